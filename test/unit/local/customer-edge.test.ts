import { LocalCustomerEdge } from '../../../bin/local/customer-edge';
import { visitorRoutesOnlyCode } from '../../../lib/short-domain';
import { API_PATH_SEGMENTS } from '../../../functions/shared/http/routes';

const edge = new LocalCustomerEdge(
  { functionCode: visitorRoutesOnlyCode(API_PATH_SEGMENTS, 'customer'), originHeaders: [] },
  { 'x-origin-verify': 'the-secret' },
  'localhost',
);

describe('the local customer edge', () => {
  it.each(['localhost:3000', '127.0.0.1:3000', '[::1]:3000', '192.168.1.20:3000', 'LOCALHOST', undefined])('leaves %s to the shared domain (the API among it)', (host) => {
    expect(edge.servesHost(host)).toBe(false);
  });

  it('serves any other name as a customer domain: its function\'s answer, with the origin secret added', () => {
    expect(edge.servesHost('go.acme.com:3000')).toBe(true);
    expect(edge.viewerRequest('GET', '/promo', { Host: 'go.acme.com:3000', 'X-Viewer-Host': 'victim.example.com' })).toEqual({
      headers: { host: 'go.acme.com:3000', 'x-viewer-host': 'go.acme.com:3000', 'x-origin-verify': 'the-secret' },
    });
    expect(edge.viewerRequest('GET', '/v2/links', { host: 'go.acme.com' })).toMatchObject({ response: { statusCode: 404 } });
  });

  it('keeps a header named __proto__ a header, beside the others', () => {
    const headers = JSON.parse('{"host": "go.acme.com", "__proto__": "x"}') as Record<string, string>;
    const outcome = edge.viewerRequest('GET', '/promo', headers) as { headers: Record<string, string> };
    expect(Object.entries(outcome.headers).sort()).toEqual([
      ['__proto__', 'x'],
      ['host', 'go.acme.com'],
      ['x-origin-verify', 'the-secret'],
      ['x-viewer-host', 'go.acme.com'],
    ]);
  });
});
