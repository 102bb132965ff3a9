import { assertDescribedByContract, type Answer } from '../../support/contract';

/** The contract check itself: it must refuse what the document does not describe, or it proves nothing. */
const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  text: JSON.stringify(body),
});
const rateLimit = { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '999', 'x-ratelimit-reset': '1800000000' };
const created = { shortUrl: 'https://s.test/abc', shortCode: 'abc', url: 'https://example.com/', createdAt: '2026-11-23T00:00:00.000Z' };

describe('assertDescribedByContract', () => {
  it('accepts a documented answer', () => {
    expect(() => assertDescribedByContract('POST', '/v2/shorten', json(201, created, rateLimit))).not.toThrow();
    expect(() => assertDescribedByContract('GET', '/v2/links/abc?x=1', json(404, { statusCode: 404, message: 'Link not found', error: 'Not Found' }))).not.toThrow();
  });

  it('refuses a status the operation does not list', () => {
    expect(() => assertDescribedByContract('GET', '/v2/usage', json(418, {}))).toThrow(/does not list 418/);
  });

  it('refuses a body with a field the document does not name, or without one it requires', () => {
    expect(() => assertDescribedByContract('POST', '/v2/shorten', json(201, { ...created, secret: 1 }, rateLimit))).toThrow(/does not match the document/);
    const { createdAt: _createdAt, ...incomplete } = created;
    expect(() => assertDescribedByContract('POST', '/v2/shorten', json(201, incomplete, rateLimit))).toThrow(/does not match the document/);
  });

  it('refuses a success without its required headers, and a 503 without Retry-After', () => {
    expect(() => assertDescribedByContract('POST', '/v2/shorten', json(201, created))).toThrow(/lacks the required header X-RateLimit-Limit/);
    const unavailable = { statusCode: 503, message: 'Service is temporarily unavailable for maintenance', error: 'Service Unavailable' };
    expect(() => assertDescribedByContract('GET', '/v2/usage', json(503, unavailable))).toThrow(/Retry-After/);
  });

  it("refuses an answer to no operation unless it is the gateway's 404; visitor pages are not its business", () => {
    expect(() => assertDescribedByContract('PUT', '/v2/shorten', json(404, { statusCode: 404, message: 'Not Found', error: 'Not Found' }))).not.toThrow();
    expect(() => assertDescribedByContract('PUT', '/v2/shorten', json(200, {}))).toThrow(/reaches no documented operation/);
    expect(() => assertDescribedByContract('GET', '/abc123', { status: 302, headers: {}, text: '' })).not.toThrow();
  });
});
