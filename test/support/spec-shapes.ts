import { ACCESS_DENIED_BODY, METHOD_REFUSED_BODY } from '../../bin/local/static-site';

/** The spec's body shapes (section 7.5 and 2.2) as exact key sets, for asserting nothing more and nothing less. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function expectBadRequest(body: Record<string, unknown>, path: string, message: string, statusCode = 400): void {
  expect(body).toEqual({ statusCode, timestamp: expect.stringMatching(ISO_MS), path, method: 'POST', message });
}

export function expectForbidden(body: Record<string, unknown>, feature: string, currentPlan: string): void {
  expect(body).toEqual({
    statusCode: 403,
    message: expect.stringMatching(/ the INDIE plan or higher\.$/),
    error: 'Forbidden',
    feature,
    currentPlan,
    upgradeUrl: 'https://example.com/pricing',
  });
}

const CREATED_KEYS = ['alias', 'createdAt', 'expiresAt', 'maxClicks', 'shortCode', 'shortUrl', 'url'];
const JSON_SHAPES: Record<number, string[][]> = {
  200: [['results'], ['status'], ['message', 'statusCode']],
  400: [['message', 'method', 'path', 'statusCode', 'timestamp'], ['error', 'message', 'statusCode']],
  401: [['error', 'message', 'statusCode']],
  403: [['currentPlan', 'error', 'feature', 'message', 'statusCode', 'upgradeUrl'], ['error', 'message', 'statusCode']],
  404: [['error', 'message', 'statusCode']],
  410: [['error', 'message', 'statusCode']],
  413: [['message', 'method', 'path', 'statusCode', 'timestamp'], ['error', 'message', 'statusCode']],
  // The key's minute limit, the monthly plan limit, and the stage's throttle, which a property's own burst of anonymous
  // calls can meet on a fast run (v1's bucket holds 100 and refills 50 a second): the OpenAPI document lists all three.
  429: [['error', 'message', 'retryAfter', 'statusCode'], ['limit', 'message', 'resetDate', 'statusCode', 'upgradeUrl'], ['error', 'message', 'statusCode']],
  503: [['error', 'message', 'statusCode']],
};
const PAGE_STATUSES = [200, 401, 403, 404, 410, 429, 503];

/**
 * Any answer of the service, API or visitor side: never a 5xx, and always one of its shapes: a spec body (exact key
 * set per status), a visitor page under the page CSP, or a redirect to an ASCII Location.
 */
export function expectServiceShape(response: { status: number; headers: Record<string, string | string[] | undefined>; text: string }, method = 'GET'): void {
  const describe = `${response.status} ${String(response.headers['content-type'])}: ${response.text.slice(0, 300)}`;
  if (response.status >= 500 && response.status !== 503) throw new Error(`5xx answer ${describe}`);
  if (response.status === 302) {
    expect(response.headers.location).toMatch(/^https?:\/\/[\x21-\x7e]+$/);
    return;
  }
  // HEAD answers carry no body; only a request the HTTP parser refused (its method unknown) gets the gateway's 400.
  if (method === 'HEAD' && response.text === '') return;
  const contentType = String(response.headers['content-type'] ?? '');
  if (contentType.startsWith('text/html')) {
    if (!PAGE_STATUSES.includes(response.status)) throw new Error(`page with status ${describe}`);
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    return;
  }
  // The dashboard's paths (/app…) are its distribution's and bucket's to answer, not the service's: CloudFront refuses
  // a method the behavior does not allow, S3 a file it does not hold, each in its own fixed words.
  if (response.status === 403 && contentType.startsWith('text/plain') && method !== 'GET' && method !== 'HEAD' && response.text === METHOD_REFUSED_BODY) return;
  if (response.status === 403 && contentType.startsWith('application/xml') && response.text === ACCESS_DENIED_BODY) return;
  if (!contentType.startsWith('application/json')) throw new Error(`neither JSON nor a page: ${describe}`);
  const body = JSON.parse(response.text) as Record<string, unknown>;
  const keys = Object.keys(body).sort();
  if (response.status === 201) {
    expect(CREATED_KEYS).toEqual(expect.arrayContaining(keys));
    expect(body.createdAt).toMatch(ISO_MS);
    return;
  }
  const shapes = JSON_SHAPES[response.status];
  if (!shapes?.some((shape) => shape.join() === keys.join())) throw new Error(`no spec shape for ${describe}`);
  if ('statusCode' in body) expect(body.statusCode).toBe(response.status);
}
