import fc from 'fast-check';
import { createApiKey, devApiKey, http, rawHttp, uniqueLoopbackAddress } from '../support/local-stack';
import { expectServiceShape } from '../support/spec-shapes';
import { anyPathSegment, anyText } from '../support/unicode-arbitraries';

/**
 * Issue 9: full Unicode in every field, header and path, thousands of runs against the local stack. Every answer
 * is below 500 (503 only as the documented outage answer, which does not happen here) and in one of the service's
 * shapes. Each property uses its own keys, so the per-key minute limit is not what answers.
 */
const RUNS = { fields: 1200, headers: 1200, paths: 1600, forms: 600, queries: 400 };
/**
 * A slow machine runs fewer cases rather than failing on Jest's timeout, which would leave the property sending
 * requests into the next tests. Each test's own timeout leaves the property room to finish its last case.
 */
const PROPERTY_TIME_LIMIT_MS = 150_000;
jest.setTimeout(PROPERTY_TIME_LIMIT_MS + 30_000);

const urlLike = fc.oneof(
  anyText(60).map((text) => `https://example.com/${text}`),
  anyText(30).map((text) => `https://${text}.example.com/`),
  anyText(20).map((text) => `https://${text}`),
  anyText(60),
);
const field = fc.oneof(anyText(60), fc.jsonValue({ maxDepth: 2 }));
const linkFields = fc.record(
  {
    url: fc.oneof({ arbitrary: urlLike, weight: 4 }, { arbitrary: field, weight: 1 }),
    alias: fc.oneof(anyText(55), field),
    // Rare: a valid password costs a real scrypt hash.
    password: fc.oneof({ arbitrary: anyText(3), weight: 6 }, { arbitrary: anyText(12), weight: 1 }, { arbitrary: field, weight: 1 }),
    expiresIn: fc.oneof(fc.integer(), fc.double(), field),
    maxClicks: fc.oneof(fc.integer(), fc.double(), field),
    // Smart links (issue 18): nested fields, each condition fed any text or JSON.
    rules: fc.oneof(field, fc.array(fc.record({ url: urlLike, when: fc.dictionary(fc.constantFrom('country', 'device', 'os', 'language', 'query', 'after', 'before', 'city'), fc.oneof(field, fc.array(anyText(8), { maxLength: 3 }))) }), { maxLength: 3 })),
    variants: fc.oneof(field, fc.array(fc.record({ url: urlLike, weight: fc.oneof(fc.integer({ min: -1, max: 101 }), field) }), { maxLength: 5 })),
    forwardQuery: field,
    utm: fc.oneof(field, fc.dictionary(fc.constantFrom('source', 'medium', 'campaign', 'term', 'content', 'other'), anyText(30))),
    expiredUrl: fc.oneof(urlLike, field),
  },
  { requiredKeys: [] },
);

/** A smart link reads the visitor's country, languages, user agent, cookie and query string (issue 18). */
async function smartLink(): Promise<string> {
  const response = await http('POST', '/v2/shorten', {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${devApiKey()}` },
    body: {
      url: 'https://example.com/smart?own=1',
      rules: [{ url: 'https://example.com/de', when: { country: ['DE'], language: ['de'] } }, { url: 'https://example.com/q', when: { query: { ref: true }, os: ['ios'] } }],
      variants: [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 50 }],
      forwardQuery: true,
      utm: { source: 'ünïcode' },
    },
  });
  return response.json<{ shortCode: string }>().shortCode;
}

/** Up to 1,000 calls a minute per key: a key every 500 runs keeps the limit out of the way. */
async function keys(count: number): Promise<string[]> {
  return Promise.all(Array.from({ length: count }, async () => (await createApiKey('ENTERPRISE')).apiKey));
}

describe('full Unicode everywhere', () => {
  it('in every body field of single and batch creation, v2 and v1', async () => {
    const apiKeys = await keys(Math.ceil(RUNS.fields / 500));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(linkFields, fc.constantFrom('/v2/shorten', '/v2/shorten/batch', '/v1/shorten', '/v1/shorten/batch'), async (fields, path) => {
        const apiKey = apiKeys[Math.floor(run++ / 500)] ?? devApiKey();
        const body = path.endsWith('batch') ? { urls: [fields, fields] } : fields;
        const response = await http('POST', path, {
          headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
          body: JSON.stringify(body),
          localAddress: uniqueLoopbackAddress(),
        });
        expectServiceShape(response, 'POST');
      }),
      { numRuns: RUNS.fields, interruptAfterTimeLimit: PROPERTY_TIME_LIMIT_MS },
    );
  });

  it('in every header a client controls, as raw bytes, on the API and on visitor paths', async () => {
    const apiKeys = await keys(Math.ceil(RUNS.headers / 500));
    const code = (await http('POST', '/v2/shorten', {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${devApiKey()}` },
      body: { url: 'https://example.com/headers', password: 'correct horse' },
    })).json<{ shortCode: string }>().shortCode;
    const smart = await smartLink();
    const headerValue = anyText(40).map((text) => Buffer.from(text, 'utf8'));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(['POST', '/v2/shorten'], ['POST', '/v1/shorten'], ['GET', `/${code}`], ['POST', `/${code}`], ['HEAD', `/${code}`], ['GET', `/${smart}?ref=1&x=%E2%9C%93`], ['HEAD', `/${smart}`]),
        fc.subarray(['authorization', 'content-type', 'accept', 'user-agent', 'cookie', 'cloudfront-viewer-address', 'x-origin-verify', 'x-forwarded-proto', 'referer', 'idempotency-key', 'accept-language', 'cloudfront-viewer-country']),
        headerValue,
        fc.boolean(),
        async ([method, path], names, value, validKey) => {
          const apiKey = apiKeys[Math.floor(run++ / 500)] ?? devApiKey();
          const headers: Array<[string, Buffer | string]> = names.map((name) => [name, value]);
          if (validKey && !names.includes('authorization')) headers.push(['authorization', `Bearer ${apiKey}`]);
          const body = method === 'POST' && path.startsWith('/v') ? JSON.stringify({ url: 'https://example.com/' }) : 'password=x&csrf=y';
          expectServiceShape(await rawHttp(method, path, headers, body), method);
        },
      ),
      { numRuns: RUNS.headers, interruptAfterTimeLimit: PROPERTY_TIME_LIMIT_MS },
    );
  });

  it('in the password form: any cookie and any form body, as raw bytes, the CSRF pair matching or not', async () => {
    const code = (await http('POST', '/v2/shorten', {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${devApiKey()}` },
      body: { url: 'https://example.com/forms', password: 'correct horse' },
    })).json<{ shortCode: string }>().shortCode;
    const rawText = anyText(30);
    await fc.assert(
      fc.asyncProperty(
        rawText,
        rawText,
        rawText,
        // Rare: a matching pair reaches the (costly) password check.
        fc.oneof({ arbitrary: fc.constant(false), weight: 7 }, { arbitrary: fc.constant(true), weight: 1 }),
        fc.boolean(),
        async (cookie, csrf, password, matching, encoded) => {
          const token = matching ? cookie : csrf;
          const form = encoded
            ? new URLSearchParams({ password, csrf: token }).toString()
            : `password=${password}&csrf=${token}`;
          const headers: Array<[string, Buffer | string]> = [
            ['content-type', 'application/x-www-form-urlencoded'],
            ['cookie', Buffer.from(`shortener_csrf=${cookie}`, 'utf8')],
          ];
          const response = await rawHttp('POST', `/${code}`, headers, form);
          expectServiceShape(response, 'POST');
        },
      ),
      { numRuns: RUNS.forms, interruptAfterTimeLimit: PROPERTY_TIME_LIMIT_MS },
    );
  });

  it('in a smart link\'s query string, which it forwards: any names and values, malformed encodings too', async () => {
    const smart = await smartLink();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(anyPathSegment, anyPathSegment), { minLength: 1, maxLength: 4 }), async (pairs) => {
        const response = await rawHttp('GET', `/${smart}?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`, [['accept-language', 'de']]);
        expectServiceShape(response, 'GET');
        // Every redirect leads to one of the link's hosts, with an ASCII Location whatever was forwarded.
        expect(response.status === 302 ? String(response.headers.location) : 'https://example.com/').toMatch(/^https:\/\/example\.com\/[\x21-\x7e]*$/);
      }),
      { numRuns: RUNS.queries, interruptAfterTimeLimit: PROPERTY_TIME_LIMIT_MS },
    );
  });

  it('in every path: encoded text of any kind and malformed percent-encodings, with every method', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE'),
        fc.array(anyPathSegment, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('text/html', 'application/json', '*/*'),
        async (method, segments, accept) => {
          const response = await rawHttp(method, `/${segments.join('/')}`, [['accept', accept]], method === 'POST' ? 'password=x' : '');
          expectServiceShape(response, method);
        },
      ),
      {
        numRuns: RUNS.paths,
        interruptAfterTimeLimit: PROPERTY_TIME_LIMIT_MS,
        // The dashboard's paths, answered by its distribution and bucket: a run found the first (seed 949383220).
        examples: [
          ['DELETE', ['app', ''], 'text/html'],
          ['GET', ['app', 'missing.js'], '*/*'],
        ],
      },
    );
  });
});
