import { isIP } from 'node:net';
import { isCloudFrontViewerHeader } from './cloudfront-viewer';
import type { CustomerEdgeSpec } from './template';

type EdgeHeaders = Record<string, { value: string }>;
interface EdgeRequest {
  method: string;
  uri: string;
  headers: EdgeHeaders;
}
interface EdgeResponse {
  statusCode: number;
  headers?: EdgeHeaders;
  body?: { data?: string } | string;
}

/**
 * CloudFront's `{name: {value}}` headers as `{name: value}`. Objects without a prototype, as the viewer's headers
 * are: a header a viewer names `__proto__` stays a header.
 */
function headerValues(headers: EdgeHeaders): Record<string, string> {
  const values = Object.create(null) as Record<string, string>;
  for (const name of Object.keys(headers)) values[name] = (headers[name] as { value: string }).value;
  return values;
}

type ViewerRequestHandler = (event: { request: EdgeRequest }) => EdgeRequest | EdgeResponse;

/**
 * `localhost`, addresses (a customer's domain is never one: a LAN address reaches the API as loopback does) and the
 * local short host are the shared domain; any other Host is a customer's domain.
 */
const isSharedHost = (hostname: string, sharedHostname: string) =>
  hostname === '' || hostname === 'localhost' || hostname === sharedHostname || isIP(hostname.replace(/^\[|\]$/g, '')) !== 0;

/**
 * Plays the customer domains' CloudFront distribution for a request whose Host is a customer's: runs the template's
 * own viewer-request function (the code CloudFront runs), then adds the origin's headers (the origin secret among
 * them), as CloudFront does on the way to API Gateway.
 */
export class LocalCustomerEdge {
  private readonly handler: ViewerRequestHandler;

  constructor(
    spec: CustomerEdgeSpec,
    private readonly originHeaders: Readonly<Record<string, string>>,
    private readonly sharedHostname: string,
  ) {
    this.handler = new Function(`${spec.functionCode}\nreturn handler;`)() as ViewerRequestHandler;
  }

  servesHost(hostHeader: string | undefined): boolean {
    return !isSharedHost((hostHeader ?? '').replace(/:\d+$/, '').toLowerCase(), this.sharedHostname);
  }

  /**
   * The request's headers as the origin gets them, or the edge's own answer. CloudFront's own viewer headers are
   * CloudFront's: whatever a viewer sent under those names is dropped and the address is the connection's (as the
   * dashboard's stand-in does), or a visitor on a customer's domain would choose the address its password attempts
   * count under and the country a smart link's rules read.
   */
  viewerRequest(
    method: string,
    uri: string,
    headers: Record<string, string>,
    viewerAddress: string,
  ): { headers: Record<string, string> } | { response: { statusCode: number; headers: Record<string, string>; body: string } } {
    // Plain loops rather than entries/map/fromEntries: this runs on the gateway's thread for every visit on a
    // customer's domain, the thread the visitor's path waits on (issue 28).
    const viewerHeaders = Object.create(null) as EdgeHeaders;
    for (const name of Object.keys(headers)) {
      const lower = name.toLowerCase();
      if (!isCloudFrontViewerHeader(lower)) viewerHeaders[lower] = { value: headers[name] as string };
    }
    viewerHeaders['cloudfront-viewer-address'] = { value: viewerAddress };
    const result = this.handler({ request: { method, uri, headers: viewerHeaders } });
    if ('statusCode' in result) {
      const body = typeof result.body === 'string' ? result.body : (result.body?.data ?? '');
      return { response: { statusCode: result.statusCode, headers: headerValues(result.headers ?? {}), body } };
    }
    return { headers: Object.assign(headerValues(result.headers), this.originHeaders) };
  }
}
