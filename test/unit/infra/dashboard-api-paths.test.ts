import fc from 'fast-check';
import { apiPathsOnTheDashboardHost, dashboardApiPathsCode } from '../../../lib/dashboard';
import { anyText, percentEncodeAnything } from '../../support/unicode-arbitraries';

interface ViewerRequest {
  method: string;
  uri: string;
  headers: Record<string, { value: string }>;
}
type Answer = ViewerRequest | { statusCode: number; headers: Record<string, { value: string }>; body: { data: string } };

/** Issue 27, finding 6: the dashboard's host passes the API's routes only; a short code there is no redirect. */
const edge = new Function(`${dashboardApiPathsCode()}; return handler;`)() as (event: { request: ViewerRequest }) => Answer;
const viewer = (uri: string): Answer => edge({ request: { method: 'GET', uri, headers: { host: { value: 'd123.cloudfront.net' } } } });
const passes = (uri: string) => !('statusCode' in viewer(uri));

describe('the API behavior of the dashboard\'s host', () => {
  it.each(['/v2/links', '/v2/links/abc1234/stats', '/v2/domains/go.acme.com', '/v2/openapi.json', '/v1/shorten', '/v1/shorten/batch', '/docs', '/health', '/v2/links/%C3%BC', '/v2/links/ü'])(
    'passes %s on to the API, unchanged',
    (uri) => {
      expect(viewer(uri)).toEqual({ method: 'GET', uri, headers: { host: { value: 'd123.cloudfront.net' } } });
    },
  );

  it.each([
    ['a short code (the open redirect)', '/abc1234'],
    ['an alias', '/my-alias'],
    ['the root', '/'],
    ['a first segment that only starts like the API\'s', '/v2x'],
    ['v2 without its slash', '/v2'],
    ['the reference page with a trailing slash', '/docs/'],
    ['the health check below itself', '/health/x'],
    ['another case', '/V2/links'],
    ['a dot segment out of the app', '/app/../x'],
    ['a dot segment out of the API', '/v2/../abc1234'],
    ['a lone dot segment', '/v2/./links'],
    ['a trailing dot segment', '/v2/..'],
    ['escaped dots', '/v2/%2e%2e/abc1234'],
    ['escaped dots in capitals', '/v2/%2E%2E/abc1234'],
    ['an escaped slash', '/v2/..%2fabc1234'],
    ['a backslash', '/v2/..\\abc1234'],
    ['an escaped backslash', '/v2/..%5cabc1234'],
    ['a doubly escaped dot', '/v2/%252e%252e/abc1234'],
    ['the API\'s segment escaped', '/%76%32/links'],
    ['a Unicode code', '/ünïcödé'],
    ['an escaped Unicode code', '/%C3%BC'],
    ['two slashes first', '//v2/links'],
    ['a tab before a dot segment (URL parsers drop it)', '/v2/\t../abc1234'],
    ['a newline', '/v2/\n../abc1234'],
    ['a space', '/v2/ ../abc1234'],
    ['a file', '/favicon.ico'],
  ])('answers %s (%s) with 404 at the edge', (_what, uri) => {
    const answer = viewer(uri);
    expect(answer).toMatchObject({ statusCode: 404, headers: { 'content-type': { value: 'application/json' }, 'cache-control': { value: 'no-store' } } });
    expect(JSON.parse((answer as { body: { data: string } }).body.data)).toEqual({ statusCode: 404, message: 'Not Found', error: 'Not Found' });
  });

  it('knows the API\'s paths from the route list: whole pages and first segments', () => {
    const { pages, prefixes } = apiPathsOnTheDashboardHost();
    expect([...pages].sort()).toEqual(['/docs', '/health']);
    expect([...prefixes].sort()).toEqual(['/v1/', '/v2/']);
  });

  it('passes no path, however written, that decodes or normalises to anything but an API route', () => {
    const { pages, prefixes } = apiPathsOnTheDashboardHost();
    const isApi = (path: string) => pages.includes(path) || prefixes.some((prefix) => path.startsWith(prefix));
    const segment = fc.oneof(anyText(12), fc.constantFrom('\t..', '\n.', ' ..', '.\r.'), anyText(12).map(percentEncodeAnything), fc.constantFrom('.', '..', '%2e', '%2E%2e', 'v1', 'v2', 'docs', 'health', 'app', ''));
    const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((segments) => `/${segments.join('/')}`);
    fc.assert(
      fc.property(path, (uri) => {
        if (!passes(uri)) return;
        // What a later reader could make of it: the URL standard's normalisation, after one more decoding too.
        const normalised = new URL(uri, 'https://host.example').pathname;
        let decoded = normalised;
        try {
          decoded = new URL(decodeURIComponent(normalised), 'https://host.example').pathname;
        } catch {
          // not decodable: nobody reads it as another path
        }
        expect(isApi(normalised)).toBe(true);
        expect(isApi(decoded)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
