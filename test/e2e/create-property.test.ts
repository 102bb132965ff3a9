import fc from 'fast-check';
import { createApiKey, http } from '../support/local-stack';
import { expectServiceShape } from '../support/spec-shapes';

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const linkLike = fc.record(
  {
    url: fc.oneof(fc.webUrl(), fc.string(), jsonValue, fc.constantFrom('javascript:alert(1)', 'http://127.0.0.1', 'https://testsafebrowsing.appspot.com/s/malware.html')),
    alias: fc.oneof(fc.string({ maxLength: 60 }), jsonValue, fc.stringMatching(/^[A-Za-z0-9-]{3,12}$/)),
    password: fc.oneof(fc.string({ maxLength: 120 }), jsonValue),
    expiresIn: fc.oneof(fc.integer(), fc.double(), jsonValue, fc.constant(60)),
    maxClicks: fc.oneof(fc.integer(), fc.double(), jsonValue),
  },
  { requiredKeys: [] },
);

/** Whatever clients throw at POST /v2/shorten, the answer is never a 5xx and always one of the spec's shapes. */
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
          expectServiceShape(await http('POST', '/v2/shorten', { headers, body }), 'POST');
        },
      ),
      { numRuns: 150 },
    );
  });
});
