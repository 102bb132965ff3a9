import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { ServerResponse } from 'node:http';
import type { FileBehaviorSpec, StaticSiteSpec } from './template';

type ViewerRequestHandler = (event: { request: { method: string; uri: string; headers: Record<string, { value: string }> } }) => { uri: string } | { statusCode: number };

/** What S3 stores as each file's Content-Type (BucketDeployment guesses it from the extension). */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json',
};

/** CloudFront path patterns: `*` any characters, `?` one; case-sensitive, the whole path. */
function patternRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.');
  return new RegExp(`^${body}$`);
}

/**
 * Plays the dashboard's CloudFront behaviors on the local gateway: the first behavior whose pattern matches runs
 * the template's viewer-request function (the code CloudFront runs), the file comes from the deployment's staged
 * asset as S3 would serve it (403 for a missing key: the distribution may not list the bucket), with the headers
 * of the behavior's response headers policy.
 */
export class LocalStaticSite {
  private readonly behaviors: Array<FileBehaviorSpec & { matches: RegExp; viewerRequest?: ViewerRequestHandler }>;

  constructor(private readonly spec: StaticSiteSpec) {
    if (!existsSync(spec.filesDir)) throw new Error(`the dashboard's files are not in ${spec.filesDir}: run cdk synth`);
    this.behaviors = spec.behaviors.map((behavior) => ({
      ...behavior,
      matches: patternRegExp(behavior.pathPattern),
      ...(behavior.viewerRequestCode ? { viewerRequest: new Function(`${behavior.viewerRequestCode}\nreturn handler;`)() as ViewerRequestHandler } : {}),
    }));
  }

  /** Answers the request when one of the site's behaviors takes its path; false leaves it to the API. */
  serve(method: string, pathname: string, response: ServerResponse): boolean {
    const behavior = this.behaviors.find((candidate) => candidate.matches.test(pathname));
    if (!behavior) return false;
    if (method !== 'GET' && method !== 'HEAD') {
      response.writeHead(403, { 'content-type': 'text/plain' });
      response.end('This distribution is not configured to allow the HTTP request method that was used for this request.');
      return true;
    }
    const outcome = behavior.viewerRequest ? behavior.viewerRequest({ request: { method, uri: pathname, headers: {} } }) : { uri: pathname };
    const uri = 'uri' in outcome ? outcome.uri : pathname;
    const key = uri.replace(/^\//, '');
    const file = key.startsWith(this.spec.keyPrefix) ? path.join(this.spec.filesDir, key.slice(this.spec.keyPrefix.length)) : undefined;
    const inside = file !== undefined && path.resolve(file).startsWith(path.resolve(this.spec.filesDir) + path.sep);
    if (!inside || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(403, { 'content-type': 'application/xml', ...behavior.headers });
      response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
      return true;
    }
    const body = readFileSync(file);
    response.writeHead(200, { 'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-length': body.length, ...behavior.headers });
    response.end(method === 'HEAD' ? undefined : body);
    return true;
  }
}
