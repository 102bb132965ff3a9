import { createShortenerClient } from '../../../clients/typescript/src';
import { retryingFetch, type RetryPolicy } from '../../../clients/typescript/src/retrying-fetch';

/** Issue 12: the client's retries are bounded, wait as told plus jitter, and keep one Idempotency-Key. */
function answers(...responses: Array<Response | Error>) {
  const seen: Request[] = [];
  const fetchOnce = async (request: Request) => {
    seen.push(request);
    const next = responses.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetchOnce, seen };
}

function policy(overrides: Partial<RetryPolicy> = {}) {
  const waits: number[] = [];
  return { waits, policy: { maxRetries: 3, maxDelayMs: 30_000, sleep: async (ms: number) => void waits.push(ms), random: () => 0.5, ...overrides } };
}

const status = (code: number, headers: Record<string, string> = {}) => new Response('{}', { status: code, headers });
const post = () => new Request('https://api.test/v2/shorten', { method: 'POST', body: '{"url":"https://example.com"}' });

describe('retryingFetch', () => {
  it('waits Retry-After plus jitter after a 429 or 503, then answers what came', async () => {
    const { fetchOnce, seen } = answers(status(429, { 'retry-after': '2' }), status(503, { 'retry-after': '5' }), status(201));
    const { waits, policy: chosen } = policy();
    const response = await retryingFetch(chosen, fetchOnce)(post());
    expect(response.status).toBe(201);
    expect(waits).toEqual([2_500, 5_500]);
    // Every attempt carries the whole body.
    expect(await Promise.all(seen.map((request) => request.text()))).toEqual(Array(3).fill('{"url":"https://example.com"}'));
  });

  it('spreads clients told the same Retry-After over a second', async () => {
    const waits: number[] = [];
    for (const random of [0, 0.25, 0.999]) {
      const { fetchOnce } = answers(status(429, { 'retry-after': '1' }), status(201));
      await retryingFetch({ ...policy().policy, random: () => random, sleep: async (ms) => void waits.push(ms) }, fetchOnce)(post());
    }
    expect(waits).toEqual([1_000, 1_250, 1_999]);
  });

  it('gives up after maxRetries and returns the last answer', async () => {
    const { fetchOnce, seen } = answers(...Array.from({ length: 5 }, () => status(503, { 'retry-after': '1' })));
    const { waits, policy: chosen } = policy({ maxRetries: 2 });
    expect((await retryingFetch(chosen, fetchOnce)(post())).status).toBe(503);
    expect(seen).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('does not wait out a monthly quota (no Retry-After) nor a wait longer than maxDelayMs', async () => {
    const quota = answers(status(429));
    expect((await retryingFetch(policy().policy, quota.fetchOnce)(post())).status).toBe(429);
    expect(quota.seen).toHaveLength(1);
    const long = answers(status(429, { 'retry-after': '3600' }));
    expect((await retryingFetch(policy().policy, long.fetchOnce)(post())).status).toBe(429);
    expect(long.seen).toHaveLength(1);
  });

  it('tries again after a failed connection, doubling the wait, and throws when retries run out', async () => {
    const { fetchOnce } = answers(new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed'));
    const { waits, policy: chosen } = policy({ maxRetries: 2, random: () => 0 });
    await expect(retryingFetch(chosen, fetchOnce)(post())).rejects.toThrow('fetch failed');
    expect(waits).toEqual([500, 1_000]);
  });
});

describe('createShortenerClient', () => {
  it('sends the key and one Idempotency-Key for every attempt of a creation', async () => {
    const created = { shortUrl: 'https://s.test/abc', shortCode: 'abc', url: 'https://example.com', createdAt: '2026-11-23T00:00:00.000Z' };
    const { fetchOnce, seen } = answers(status(503, { 'retry-after': '0' }), new Response(JSON.stringify(created), { status: 201, headers: { 'content-type': 'application/json' } }));
    const client = createShortenerClient({ baseUrl: 'https://api.test/', apiKey: 'shk_test', fetch: fetchOnce, retry: { sleep: async () => undefined } });
    const { data } = await client.POST('/v2/shorten', { body: { url: 'https://example.com' } });
    expect(data).toEqual(created);
    const keys = seen.map((request) => request.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(seen.map((request) => request.headers.get('authorization'))).toEqual(['Bearer shk_test', 'Bearer shk_test']);
    expect(seen[0]?.url).toBe('https://api.test/v2/shorten');
  });

  it("keeps the caller's own Idempotency-Key and sends none on reads", async () => {
    const page = new Response('{"links":[],"nextCursor":null}', { status: 200, headers: { 'content-type': 'application/json' } });
    const { fetchOnce, seen } = answers(status(201), page);
    const client = createShortenerClient({ baseUrl: 'https://api.test', apiKey: 'shk_test', fetch: fetchOnce });
    await client.POST('/v2/shorten/batch', { body: { urls: [{ url: 'https://example.com' }] }, headers: { 'idempotency-key': 'mine' } });
    await client.GET('/v2/links');
    expect(seen.map((request) => request.headers.get('idempotency-key'))).toEqual(['mine', null]);
  });
});
