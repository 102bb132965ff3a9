import { API_PATH_SEGMENTS } from '../../../functions/shared/http/routes';
import { visitorRoutesOnlyCode } from '../../../lib/short-domain';

interface ViewerRequest {
  uri: string;
  headers: Record<string, { value: string }>;
}
type Handler = (event: { request: ViewerRequest }) => ViewerRequest | { statusCode: number; body: { data: string } };

/** Runs the CloudFront function's own source, as CloudFront would, on viewer requests. */
const edgeFunction = (hosts: 'shared' | 'customer') => new Function(`${visitorRoutesOnlyCode(API_PATH_SEGMENTS, hosts)}; return handler;`)() as Handler;
const shared = edgeFunction('shared');
const handler = (request: { uri: string; headers?: ViewerRequest['headers'] }) => shared({ request: { headers: {}, ...request } });

describe('the short domain', () => {
  it.each(['/abc1234', '/my-alias', '/Promo-2026'])('lets visitors through to %s', (uri) => {
    expect(handler({ uri })).toEqual({ uri, headers: {} });
  });

  it('drops a viewer-host header a visitor sends, so nobody can name a customer domain through the shared one', () => {
    expect(handler({ uri: '/abc1234', headers: { 'x-viewer-host': { value: 'go.acme.com' }, host: { value: 'sho.rt' } } })).toEqual({ uri: '/abc1234', headers: { host: { value: 'sho.rt' } } });
  });

  it.each(['/v2/shorten', '/v1/shorten/batch', '/v2', '/health', '/', '/a/b', '/a.b', '/favicon.ico'])('answers %s with 404 at the edge', (uri) => {
    const answer = handler({ uri });
    expect(answer).toMatchObject({ statusCode: 404 });
    expect(JSON.parse((answer as { body: { data: string } }).body.data)).toEqual({ statusCode: 404, message: 'Not Found', error: 'Not Found' });
  });

  it('knows every API path segment from the route list', () => {
    expect([...API_PATH_SEGMENTS].sort()).toEqual(['docs', 'health', 'v1', 'v2']);
  });
});

describe('customer domains at the edge', () => {
  const customer = edgeFunction('customer');
  const request = (uri: string, headers: ViewerRequest['headers'] = { host: { value: 'go.acme.com' } }) => customer({ request: { uri, headers } });

  it.each(['/', '/promo', '/abc1234'])('pass %s on with the viewer\'s host in x-viewer-host, whatever the viewer claimed', (uri) => {
    expect(request(uri, { host: { value: 'go.acme.com' }, 'x-viewer-host': { value: 'victim.example.com' } })).toEqual({
      uri,
      headers: { host: { value: 'go.acme.com' }, 'x-viewer-host': { value: 'go.acme.com' } },
    });
  });

  it.each(['/v2/links', '/v1/shorten', '/docs', '/health', '/a/b', '/favicon.ico'])('answer %s with 404, as the shared domain does', (uri) => {
    expect(request(uri)).toMatchObject({ statusCode: 404 });
  });

  it('has the same API path segments', () => {
    expect([...API_PATH_SEGMENTS].sort()).toEqual(['docs', 'health', 'v1', 'v2']);
  });
});
