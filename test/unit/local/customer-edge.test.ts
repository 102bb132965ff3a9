import { LocalCustomerEdge } from '../../../bin/local/customer-edge';
import { visitorRoutesOnlyCode } from '../../../lib/short-domain';
import { API_PATH_SEGMENTS } from '../../../functions/shared/http/routes';

const edge = new LocalCustomerEdge(
  { functionCode: visitorRoutesOnlyCode(API_PATH_SEGMENTS, 'customer'), originHeaders: [] },
  { 'x-origin-verify': 'the-secret' },
  'localhost',
);

/** The connection's address and port, as the gateway hands it over. */
const VIEWER = '127.0.0.1:50123';

describe('the local customer edge', () => {
  it.each(['localhost:3000', '127.0.0.1:3000', '[::1]:3000', '192.168.1.20:3000', 'LOCALHOST', undefined])('leaves %s to the shared domain (the API among it)', (host) => {
    expect(edge.servesHost(host)).toBe(false);
  });

  it('serves any other name as a customer domain: its function\'s answer, with the origin secret added', () => {
    expect(edge.servesHost('go.acme.com:3000')).toBe(true);
    expect(edge.viewerRequest('GET', '/promo', { Host: 'go.acme.com:3000', 'X-Viewer-Host': 'victim.example.com' }, VIEWER)).toEqual({
      headers: { host: 'go.acme.com:3000', 'x-viewer-host': 'go.acme.com:3000', 'cloudfront-viewer-address': VIEWER, 'x-origin-verify': 'the-secret' },
    });
    expect(edge.viewerRequest('GET', '/v2/links', { host: 'go.acme.com' }, VIEWER)).toMatchObject({ response: { statusCode: 404 } });
  });

  it('drops the CloudFront viewer headers a visitor sends, and names the connection\'s address, as CloudFront does', () => {
    const forged = { host: 'go.acme.com', 'CloudFront-Viewer-Address': '203.0.113.7:443', 'cloudfront-viewer-country': 'DE', 'cloudfront-viewer-city': 'Berlin' };
    const outcome = edge.viewerRequest('GET', '/promo', forged, VIEWER) as { headers: Record<string, string> };
    expect(Object.keys(outcome.headers).filter((name) => name.startsWith('cloudfront-viewer-'))).toEqual(['cloudfront-viewer-address']);
    expect(outcome.headers['cloudfront-viewer-address']).toBe(VIEWER);
  });

  it('keeps a header named __proto__ a header, beside the others', () => {
    const headers = JSON.parse('{"host": "go.acme.com", "__proto__": "x"}') as Record<string, string>;
    const outcome = edge.viewerRequest('GET', '/promo', headers, VIEWER) as { headers: Record<string, string> };
    expect(Object.entries(outcome.headers).sort()).toEqual([
      ['__proto__', 'x'],
      ['cloudfront-viewer-address', VIEWER],
      ['host', 'go.acme.com'],
      ['x-origin-verify', 'the-secret'],
      ['x-viewer-host', 'go.acme.com'],
    ]);
  });
});
