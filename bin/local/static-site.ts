import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { ServerResponse } from 'node:http';
import type { FileBehaviorSpec, StaticSiteSpec } from './template';
import type { DashboardSignIn } from '../../lib/dashboard';
import { SIGN_IN_CONFIG_FILE } from '../../web/dashboard/places';
import { isCloudFrontViewerHeader } from './cloudfront-viewer';

type EdgeHeaders = Record<string, { value: string }>;
type EdgeRequest = { method: string; uri: string; headers: EdgeHeaders };
type EdgeResponse = { statusCode: number; headers?: EdgeHeaders; body?: { data?: string } | string };
type ViewerRequestHandler = (event: { request: EdgeRequest }) => EdgeRequest | EdgeResponse;

/**
 * The dashboard's host on the local port: its distribution has no alias, and browsers and curl take any
 * `*.localhost` name for this machine. Other hosts are the API's own URL and the short domain (or a customer's).
 */
export const LOCAL_DASHBOARD_HOSTNAME = 'dashboard.localhost';

/** What the API behavior's origin gets, or the edge's own answer. */
export type ApiBehaviorOutcome = { headers: Record<string, string> } | { response: { statusCode: number; headers: Record<string, string>; body: string } };

const makeHandler = (code: string) => new Function(`${code}\nreturn handler;`)() as ViewerRequestHandler;

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

/** CloudFront's answer (403, text/plain) to a method the dashboard's behaviors do not allow. */
export const METHOD_REFUSED_BODY = 'This distribution is not configured to allow the HTTP request method that was used for this request.';
/** S3's answer (403, application/xml) to a file the bucket does not hold, for a reader that may not list it. */
export const ACCESS_DENIED_BODY = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';

/**
 * Plays the dashboard's CloudFront distribution on the local gateway. Its file behaviors, on every host (the
 * dashboard at localhost's /app too): the first behavior whose pattern matches runs the template's viewer-request
 * function (the code CloudFront runs), the file comes from the deployment's staged asset as S3 would serve it (403
 * for a missing key: the distribution may not list the bucket), with the headers of the behavior's response headers
 * policy. Its default behavior, the API, on the dashboard's host only: the template's viewer-request function, then
 * the request as CloudFront forwards it (the viewer's address, the origin's headers).
 */
export class LocalStaticSite {
  private readonly behaviors: Array<FileBehaviorSpec & { matches: RegExp; viewerRequest?: ViewerRequestHandler }>;
  private readonly apiViewerRequest?: ViewerRequestHandler;

  /**
   * `originHeaders`: the API origin's headers with their values (the origin secret), as CloudFormation resolves them.
   * `signIn`: the local provider in the user pool's place: its settings are the page's config.json (the deployment
   * writes it on AWS) and its origin replaces the pool's hosts in the Content-Security-Policy's connect-src.
   */
  constructor(
    private readonly spec: StaticSiteSpec,
    private readonly originHeaders: Readonly<Record<string, string>> = {},
    private readonly signIn?: DashboardSignIn,
  ) {
    if (!existsSync(spec.filesDir)) throw new Error(`the dashboard's files are not in ${spec.filesDir}: run cdk synth`);
    const connectSources = ["connect-src 'self'", ...(signIn?.providerOrigins ?? [])].join(' ');
    this.behaviors = spec.behaviors.map((behavior) => ({
      ...behavior,
      headers: Object.fromEntries(Object.entries(behavior.headers).map(([name, value]) => [name, name === 'content-security-policy' ? value.replace(/connect-src [^;]*/, connectSources) : value])),
      matches: patternRegExp(behavior.pathPattern),
      ...(behavior.viewerRequestCode ? { viewerRequest: makeHandler(behavior.viewerRequestCode) } : {}),
    }));
    if (spec.api.viewerRequestCode) this.apiViewerRequest = makeHandler(spec.api.viewerRequestCode);
  }

  servesHost(hostHeader: string | undefined): boolean {
    return (hostHeader ?? '').replace(/:\d+$/, '').toLowerCase() === LOCAL_DASHBOARD_HOSTNAME;
  }

  /**
   * A request the file behaviors left to the API, as its behavior passes it on: answered by the viewer-request
   * function, or forwarded with the viewer's address in CloudFront-Viewer-Address (whatever the viewer sent in any
   * CloudFront-Viewer-* header is not CloudFront's word, so it is dropped) and the origin's headers.
   */
  toApi(method: string, uri: string, headers: Record<string, string>, viewerAddress: string): ApiBehaviorOutcome {
    const request: EdgeRequest = { method, uri, headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), { value }])) };
    const result = this.apiViewerRequest ? this.apiViewerRequest({ request }) : request;
    if ('statusCode' in result) {
      const body = typeof result.body === 'string' ? result.body : (result.body?.data ?? '');
      return { response: { statusCode: result.statusCode, headers: Object.fromEntries(Object.entries(result.headers ?? {}).map(([name, header]) => [name, header.value])), body } };
    }
    const forwarded = Object.entries(result.headers).filter(([name]) => !isCloudFrontViewerHeader(name));
    return { headers: { ...Object.fromEntries(forwarded.map(([name, header]) => [name, header.value])), 'cloudfront-viewer-address': viewerAddress, ...this.originHeaders } };
  }

  /** Answers the request when one of the site's behaviors takes its path; false leaves it to the API. */
  serve(method: string, pathname: string, response: ServerResponse): boolean {
    const behavior = this.behaviors.find((candidate) => candidate.matches.test(pathname));
    if (!behavior) return false;
    if (method !== 'GET' && method !== 'HEAD') {
      response.writeHead(403, { 'content-type': 'text/plain' });
      response.end(METHOD_REFUSED_BODY);
      return true;
    }
    const outcome = behavior.viewerRequest ? behavior.viewerRequest({ request: { method, uri: pathname, headers: {} } }) : { uri: pathname };
    const uri = 'uri' in outcome ? outcome.uri : pathname;
    const key = uri.replace(/^\//, '');
    if (this.signIn && key === `${this.spec.keyPrefix}${SIGN_IN_CONFIG_FILE}`) {
      const body = Buffer.from(JSON.stringify(this.signIn.config));
      response.writeHead(200, { 'content-type': CONTENT_TYPES['.json'] ?? 'application/json', 'content-length': body.length, ...behavior.headers });
      response.end(method === 'HEAD' ? undefined : body);
      return true;
    }
    const file = key.startsWith(this.spec.keyPrefix) ? path.join(this.spec.filesDir, key.slice(this.spec.keyPrefix.length)) : undefined;
    const inside = file !== undefined && path.resolve(file).startsWith(path.resolve(this.spec.filesDir) + path.sep);
    if (!inside || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(403, { 'content-type': 'application/xml', ...behavior.headers });
      response.end(ACCESS_DENIED_BODY);
      return true;
    }
    const body = readFileSync(file);
    response.writeHead(200, { 'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-length': body.length, ...behavior.headers });
    response.end(method === 'HEAD' ? undefined : body);
    return true;
  }
}
