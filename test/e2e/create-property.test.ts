import fc from 'fast-check';
import { createApiKey, http, type HttpResult } from '../support/local-stack';
import { ISO_MS } from '../support/spec-shapes';

/** Whatever clients throw at POST /v2/shorten, the answer is never a 5xx and always one of the spec's shapes. */
function expectSpecShape(response: HttpResult): void {
  expect(response.status).toBeLessThan(500);
  const body = response.json<Record<string, unknown>>();
  const keys = Object.keys(body).sort();
  switch (response.status) {
    case 201:
      expect(['alias', 'createdAt', 'expiresAt', 'maxClicks', 'shortCode', 'shortUrl', 'url']).toEqual(expect.arrayContaining(keys));
      expect(body.createdAt).toMatch(ISO_MS);
      break;
    case 400:
    case 413:
      expect(keys).toEqual(['message', 'method', 'path', 'statusCode', 'timestamp']);
      expect(body.statusCode).toBe(response.status);
      break;
    case 401:
      expect(keys).toEqual(['error', 'message', 'statusCode']);
      break;
    case 403:
      expect(keys).toEqual(['currentPlan', 'error', 'feature', 'message', 'statusCode', 'upgradeUrl']);
      break;
    default:
      throw new Error(`unexpected status ${response.status}: ${response.text}`);
  }
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const linkLike = fc.record(
  {
    url: fc.oneof(fc.webUrl(), fc.string(), jsonValue, fc.constantFrom('javascript:alert(1)', 'http://127.0.0.1', 'https://malware.testing.google.test/x')),
    alias: fc.oneof(fc.string({ maxLength: 60 }), jsonValue, fc.stringMatching(/^[A-Za-z0-9-]{3,12}$/)),
    password: fc.oneof(fc.string({ maxLength: 120 }), jsonValue),
    expiresIn: fc.oneof(fc.integer(), fc.double(), jsonValue, fc.constant(60)),
    maxClicks: fc.oneof(fc.integer(), fc.double(), jsonValue),
  },
  { requiredKeys: [] },
);

describe('POST /v2/shorten under random input', () => {
  let apiKey: string;
  beforeAll(async () => {
    ({ apiKey } = await createApiKey('ENTERPRISE'));
  });

  it('never answers 5xx nor outside the spec shapes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(linkLike.map((body) => JSON.stringify(body)), jsonValue.map((value) => JSON.stringify(value)), fc.string()),
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', undefined, 'APPLICATION/JSON'),
        fc.constantFrom('valid', 'missing', 'garbage', 'lowercase'),
        async (body, contentType, authorization) => {
          const headers: Record<string, string> = {};
          if (contentType) headers['content-type'] = contentType;
          if (authorization === 'valid') headers.authorization = `Bearer ${apiKey}`;
          if (authorization === 'lowercase') headers.authorization = `bearer ${apiKey}`;
          if (authorization === 'garbage') headers.authorization = 'Bearer shk_garbage';
          expectSpecShape(await http('POST', '/v2/shorten', { headers, body }));
        },
      ),
      { numRuns: 150 },
    );
  });
});
