import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { LocalFunction } from './lambda-runtime';
import { listen } from './listen';
import { TokenBucket } from './token-bucket';
import type { LocalCustomerEdge } from './customer-edge';
import type { ApiBehaviorOutcome, LocalStaticSite } from './static-site';
import type { GatewayResponseSpec, RouteSpec, Topology } from './template';

/** API Gateway's own payload ceiling. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

interface ProxyResult {
  statusCode?: number;
  headers?: Record<string, string | number | boolean>;
  multiValueHeaders?: Record<string, Array<string | number | boolean>>;
  body?: string;
  isBase64Encoded?: boolean;
}

interface AuthorizerResult {
  principalId?: string;
  policyDocument?: { Statement?: Array<{ Effect?: string }> };
  context?: Record<string, string | number | boolean>;
}

interface Matched {
  route: RouteSpec;
  pathParameters: Record<string, string> | null;
}

/** A route's resource path taken apart once: each segment a literal or a {parameter}'s name. */
interface CompiledRoute {
  route: RouteSpec;
  segments: ReadonlyArray<{ literal: string } | { parameter: string }>;
}

export function compileRoutes(routes: readonly RouteSpec[]): CompiledRoute[] {
  return routes.map((route) => ({
    route,
    segments: route.resourcePath
      .split('/')
      .slice(1)
      .map((part) => {
        const parameter = /^\{(.+)\}$/.exec(part)?.[1];
        return parameter ? { parameter } : { literal: part };
      }),
  }));
}

/** Static segments win over {parameters}, as in API Gateway. Routes come compiled: this runs on every request. */
export function matchRoute(routes: readonly CompiledRoute[], method: string, pathname: string): Matched | 'methodNotAllowed' | undefined {
  const segments = pathname.split('/').slice(1);
  let best = -1;
  let match: { route: RouteSpec; parameters: Record<string, string> } | undefined;
  let resourceFound = false;
  for (const { route, segments: pattern } of routes) {
    if (pattern.length !== segments.length) continue;
    let staticCount = 0;
    let parameters: Record<string, string> | undefined;
    let fits = true;
    for (const [index, part] of pattern.entries()) {
      const segment = segments[index] ?? '';
      if ('literal' in part) {
        if (part.literal !== segment) {
          fits = false;
          break;
        }
        staticCount += 1;
      } else if (segment === '') {
        fits = false;
        break;
      } else (parameters ??= {})[part.parameter] = decodePathSegment(segment);
    }
    if (!fits || staticCount < best) continue;
    if (staticCount > best) {
      best = staticCount;
      match = undefined;
      resourceFound = true;
    }
    if (!match && route.method === method) match = { route, parameters: parameters ?? {} };
  }
  if (!resourceFound) return undefined;
  if (!match) return 'methodNotAllowed';
  return { route: match.route, pathParameters: Object.keys(match.parameters).length > 0 ? match.parameters : null };
}

/** The few `$context` variables our gateway-response templates use. */
function renderTemplate(template: string, variables: Record<string, string>): string {
  return template.replace(/\$context\.[A-Za-z.]+/g, (name) => variables[name] ?? '');
}

export interface LocalGatewayOptions {
  topology: Topology;
  functions: ReadonlyMap<string, LocalFunction>;
  log: (message: string) => void;
  /** Apply the stage's per-method throttles (on unless the benchmarks measure the stack beyond them). */
  throttles: boolean;
  /** The customer domains' distribution, for requests on any host but the shared one. */
  customerEdge?: LocalCustomerEdge;
  /** The dashboard's distribution: its files on every host, its API behavior on the dashboard's host. */
  staticSite?: LocalStaticSite;
}

/** An HTTP server that plays API Gateway (REST, Lambda proxy integration) for the template's routes. */
export class LocalGateway {
  private server?: Server;
  private readonly buckets = new Map<RouteSpec, TokenBucket>();
  private readonly routes: CompiledRoute[];

  constructor(private readonly options: LocalGatewayOptions) {
    this.routes = compileRoutes(options.topology.routes);
    if (!options.throttles) return;
    for (const route of options.topology.routes) {
      if (route.throttle) this.buckets.set(route, new TokenBucket(route.throttle.rateLimit, route.throttle.burstLimit));
    }
  }

  private gatewayResponse(response: ServerResponse, type: string, variables: Record<string, string> = {}): void {
    const spec: GatewayResponseSpec =
      this.options.topology.gatewayResponses.get(type) ??
      this.options.topology.gatewayResponses.get(type.startsWith('DEFAULT') ? type : 'DEFAULT_4XX') ??
      { statusCode: 500, template: '{"message":"Internal server error"}', headers: {} };
    // One header per name, whatever case the template's responseHeaders use: API Gateway sends one Content-Type.
    const headers = Object.fromEntries(Object.entries({ 'content-type': 'application/json', ...spec.headers }).map(([name, value]) => [name.toLowerCase(), value]));
    response.writeHead(spec.statusCode, headers);
    response.end(renderTemplate(spec.template, variables));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    if (body === undefined) return this.gatewayResponse(response, 'REQUEST_TOO_LARGE');
    // Origin-form only: as a relative reference "//x" would be read as a host, not as the path "//x".
    const url = new URL(`http://localhost${(request.url ?? '/').startsWith('/') ? request.url : '/'}`);
    const method = request.method ?? 'GET';
    // The dashboard's host and a customer's first go through their distribution's edge function, as on AWS; the
    // function reads the path as the viewer sent it (URL parsing above resolved its dot segments).
    let edgeHeaders: Record<string, string> | undefined;
    const edge = this.options.customerEdge;
    const site = this.options.staticSite;
    const rawPath = (request.url ?? '/').split('?')[0] ?? '/';
    let outcome: ApiBehaviorOutcome | undefined;
    const viewerAddress = () => `${normaliseIp(request.socket.remoteAddress)}:${request.socket.remotePort ?? 0}`;
    if (site?.servesHost(request.headers.host)) {
      if (site.serve(method, url.pathname, response)) return;
      outcome = site.toApi(method, rawPath, rawHeaderRecord(request), viewerAddress());
    } else if (edge?.servesHost(request.headers.host)) {
      outcome = edge.viewerRequest(method, url.pathname, rawHeaderRecord(request), viewerAddress());
    } else if (site?.serve(method, url.pathname, response)) return;
    if (outcome && 'response' in outcome) {
      response.writeHead(outcome.response.statusCode, outcome.response.headers);
      response.end(outcome.response.body);
      return;
    }
    if (outcome) edgeHeaders = outcome.headers;
    const matched = matchRoute(this.routes, method, url.pathname);
    if (!matched || matched === 'methodNotAllowed') return this.gatewayResponse(response, 'MISSING_AUTHENTICATION_TOKEN');
    const { route } = matched;
    // Throttling comes before the authorizer and the function, as on AWS: a refused request costs neither.
    if (this.buckets.get(route)?.take() === false) return this.gatewayResponse(response, 'THROTTLED');

    const headers: Record<string, string> = {};
    const multiValueHeaders: Record<string, string[]> = {};
    if (edgeHeaders) {
      for (const [name, value] of Object.entries(edgeHeaders)) {
        headers[name] = value;
        multiValueHeaders[name] = [value];
      }
    } else {
      for (let index = 0; index < request.rawHeaders.length; index += 2) {
        const name = request.rawHeaders[index] ?? '';
        const value = request.rawHeaders[index + 1] ?? '';
        headers[name] = value;
        (multiValueHeaders[name] ??= []).push(value);
      }
    }
    // API Gateway tells functions how the client came in, whatever the client claimed; here it is plain HTTP.
    for (const name of Object.keys(headers)) {
      if (name.toLowerCase() === 'x-forwarded-proto') {
        delete headers[name];
        delete multiValueHeaders[name];
      }
    }
    headers['X-Forwarded-Proto'] = 'http';
    multiValueHeaders['X-Forwarded-Proto'] = ['http'];
    const query = [...url.searchParams.keys()].length > 0 ? Object.fromEntries(url.searchParams) : null;
    const stage = this.options.topology.stage;
    const requestId = randomUUID();
    const requestContext = {
      accountId: '000000000000',
      apiId: 'local',
      stage,
      requestId,
      httpMethod: method,
      // The local URL has no stage in it, as behind a custom domain: the path is the one the client asked for.
      path: url.pathname,
      resourcePath: route.resourcePath,
      requestTimeEpoch: Date.now(),
      identity: { sourceIp: normaliseIp(request.socket.remoteAddress), userAgent: headers['User-Agent'] ?? headers['user-agent'] ?? null },
      authorizer: null as Record<string, unknown> | null,
    };

    // What API Gateway tells both the authorizer and the function about the request.
    const requestFields = {
      resource: route.resourcePath,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders,
      queryStringParameters: query,
      pathParameters: matched.pathParameters,
      requestContext,
    };

    if (route.integration.kind === 'mock') {
      response.writeHead(route.integration.statusCode, { 'content-type': 'application/json' });
      response.end(route.integration.body);
      return;
    }

    if (route.authorizer) {
      const lowerHeaders = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
      if (route.authorizer.identityHeaders.some((name) => !lowerHeaders[name]?.trim())) return this.gatewayResponse(response, 'UNAUTHORIZED');
      const authorizerFunction = this.options.functions.get(route.authorizer.functionId);
      let verdict: AuthorizerResult;
      try {
        verdict = (await authorizerFunction?.invoke({
          type: 'REQUEST',
          methodArn: `arn:aws:execute-api:local:000000000000:local/${stage}/${method}${route.resourcePath}`,
          ...requestFields,
        })) as AuthorizerResult;
      } catch (error) {
        this.options.log(`authorizer failed: ${String(error)}`);
        return this.gatewayResponse(response, 'AUTHORIZER_FAILURE');
      }
      const context = Object.fromEntries(Object.entries(verdict?.context ?? {}).map(([key, value]) => [key, String(value)]));
      const allowed = verdict?.policyDocument?.Statement?.every((statement) => statement.Effect === 'Allow') ?? false;
      if (!allowed) {
        return this.gatewayResponse(
          response,
          'ACCESS_DENIED',
          Object.fromEntries(Object.entries(context).map(([key, value]) => [`$context.authorizer.${key}`, value])),
        );
      }
      requestContext.authorizer = { ...context, principalId: verdict.principalId };
    }

    const target = this.options.functions.get(route.integration.functionId);
    let result: ProxyResult;
    try {
      result = (await target?.invoke({
        ...requestFields,
        multiValueQueryStringParameters: query ? Object.fromEntries([...url.searchParams.keys()].map((key) => [key, url.searchParams.getAll(key)])) : null,
        stageVariables: null,
        ...requestBody(body, headers, this.options.topology.binaryMediaTypes),
      })) as ProxyResult;
    } catch (error) {
      this.options.log(`${route.integration.functionId} failed: ${String(error)}`);
      return this.gatewayResponse(response, 'DEFAULT_5XX');
    }
    if (!result || typeof result.statusCode !== 'number') return this.gatewayResponse(response, 'DEFAULT_5XX');
    const outgoing: Record<string, string | string[]> = {};
    for (const [key, value] of Object.entries(result.headers ?? {})) outgoing[key] = String(value);
    for (const [key, values] of Object.entries(result.multiValueHeaders ?? {})) outgoing[key] = values.map(String);
    response.writeHead(result.statusCode, outgoing);
    response.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? ''));
  }

  listen(port: number, host = '127.0.0.1'): Promise<number> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        this.options.log(`gateway failure: ${String(error)}`);
        if (!response.headersSent) this.gatewayResponse(response, 'DEFAULT_5XX');
        else response.end();
      });
    });
    // Requests Node's parser refuses (bytes no header may hold, say) get the gateway's JSON 400, not a bare one.
    this.server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
      if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
      const spec = this.options.topology.gatewayResponses.get('DEFAULT_4XX');
      const body = renderTemplate(spec?.template ?? '{"message":"Bad request"}', {});
      socket.end(`HTTP/1.1 ${spec?.statusCode ?? 400} Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    });
    // Load tests open many keep-alive connections; the defaults would drop idle ones mid-run.
    this.server.keepAliveTimeout = 65_000;
    return listen(this.server, port, host);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

/** The request's headers, the last value of each name winning. */
function rawHeaderRecord(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let index = 0; index < request.rawHeaders.length; index += 2) headers[request.rawHeaders[index] ?? ''] = request.rawHeaders[index + 1] ?? '';
  return headers;
}

/** As API Gateway passes a body: base64 when its type is one of the API's binary media types, else as text. */
function requestBody(body: Buffer, headers: Record<string, string>, binaryMediaTypes: readonly string[]): { body: string | null; isBase64Encoded: boolean } {
  if (body.length === 0) return { body: null, isBase64Encoded: false };
  const contentType = (Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const [type, subtype] = contentType.split('/');
  const binary = binaryMediaTypes.some((pattern) => {
    const [patternType, patternSubtype] = pattern.toLowerCase().split('/');
    return (patternType === '*' || patternType === type) && (patternSubtype === '*' || patternSubtype === subtype);
  });
  return binary ? { body: body.toString('base64'), isBase64Encoded: true } : { body: body.toString('utf8'), isBase64Encoded: false };
}

/** API Gateway decodes path parameters; a malformed escape (`/%ff%fe`) is passed on as it came, never a 500. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function normaliseIp(address: string | undefined): string {
  return (address ?? '127.0.0.1').replace(/^::ffff:/, '');
}

const NO_BODY = Buffer.alloc(0);

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  // Without either header an HTTP/1.1 request has no body (RFC 9112 §6.3): nothing to wait for. A visit is such a
  // request; reading its empty stream cost the gateway's thread a promise, three listeners and two ticks.
  if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) return Promise.resolve(NO_BODY);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PAYLOAD_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
