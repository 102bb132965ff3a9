import { API_PATH_SEGMENTS } from '../../../functions/shared/http/routes';
import { visitorRoutesOnlyCode } from '../../../lib/short-domain';

interface ViewerRequest {
  uri: string;
}
type Handler = (event: { request: ViewerRequest }) => ViewerRequest | { statusCode: number; body: { data: string } };

/** Runs the CloudFront function's own source, as CloudFront would, on viewer requests. */
const handler = new Function(`${visitorRoutesOnlyCode(API_PATH_SEGMENTS)}; return handler;`)() as Handler;

describe('the short domain', () => {
  it.each(['/abc1234', '/my-alias', '/Promo-2026'])('lets visitors through to %s', (uri) => {
    expect(handler({ request: { uri } })).toEqual({ uri });
  });

  it.each(['/v2/shorten', '/v1/shorten/batch', '/v2', '/health', '/', '/a/b', '/a.b', '/favicon.ico'])('answers %s with 404 at the edge', (uri) => {
    const answer = handler({ request: { uri } });
    expect(answer).toMatchObject({ statusCode: 404 });
    expect(JSON.parse((answer as { body: { data: string } }).body.data)).toEqual({ statusCode: 404, message: 'Not Found', error: 'Not Found' });
  });

  it('knows every API path segment from the route list', () => {
    expect([...API_PATH_SEGMENTS].sort()).toEqual(['docs', 'health', 'v1', 'v2']);
  });
});
