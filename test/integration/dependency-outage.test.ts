import { execFileSync } from 'node:child_process';
import { LOCAL_SDK_TIMEOUT_MS, TRANSPORT_LIMITS } from '../../functions/shared/adapters/outages';
import { devApiKey, eventually, http, jsonHeaders, uniqueLoopbackAddress } from '../support/local-stack';

/**
 * DynamoDB Local frozen (SIGSTOP: it accepts connections and never answers, the worst kind of outage) and thawed.
 * While frozen every answer comes within the functions' two attempts (about 3 s on AWS, 8 s against DynamoDB Local's
 * longer limit) as a 503 with Retry-After, links in the redirect's memory keep redirecting, and service is normal
 * right after the thaw.
 */
const BOUND_MS = TRANSPORT_LIMITS.maxAttempts * LOCAL_SDK_TIMEOUT_MS + 1_100;

function dynamoDbLocalPid(): number {
  const port = process.env.LOCAL_DYNAMODB_PORT;
  const found = execFileSync('pgrep', ['-f', `DynamoDBLocal.jar -port ${port} `], { encoding: 'utf8' }).trim().split('\n')[0];
  if (!found) throw new Error(`no DynamoDB Local on port ${port}`);
  return Number(found);
}

async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await call();
  return { result, ms: performance.now() - started };
}

const shorten = (path: string, apiKey?: string) =>
  http('POST', path, { headers: jsonHeaders(apiKey), body: { url: 'https://example.com/outage' }, localAddress: uniqueLoopbackAddress() });

describe('a hung DynamoDB', () => {
  let pid: number;
  let hot: string;
  let cold: string;

  beforeAll(async () => {
    pid = dynamoDbLocalPid();
    const created = await Promise.all([shorten('/v2/shorten', devApiKey()), shorten('/v2/shorten', devApiKey())]);
    [hot, cold] = created.map((response) => response.json<{ shortCode: string }>().shortCode) as [string, string];
    // One visit puts the hot link in the redirect function's memory.
    if ((await http('GET', `/${hot}`)).status !== 302) throw new Error('the hot link did not redirect before the freeze');
    process.kill(pid, 'SIGSTOP');
  });

  afterAll(() => {
    process.kill(pid, 'SIGCONT');
  });

  it('answers a visit to a link not in memory with 503 and Retry-After within the bound, as a page and as JSON', async () => {
    const page = await timed(() => http('GET', `/${cold}`, { headers: { accept: 'text/html' } }));
    expect(page.ms).toBeLessThan(BOUND_MS);
    expect(page.result.status).toBe(503);
    expect(page.result.headers['retry-after']).toBe('5');
    expect(page.result.text).toContain('Temporarily unavailable');
    const json = await timed(() => http('GET', `/${cold}`, { headers: { accept: 'application/json' } }));
    expect(json.ms).toBeLessThan(BOUND_MS);
    expect(json.result.json()).toEqual({ statusCode: 503, message: 'Service is temporarily unavailable, please try again later', error: 'Service Unavailable' });
  });

  it('keeps redirecting a link the redirect function holds in memory', async () => {
    const visit = await timed(() => http('GET', `/${hot}`));
    expect(visit.result.status).toBe(302);
    expect(visit.ms).toBeLessThan(BOUND_MS);
  });

  it('answers creations with 503 and Retry-After within the bound, on v2 (the authorizer cannot read keys) and v1', async () => {
    for (const [path, key] of [['/v2/shorten', devApiKey()], ['/v1/shorten', undefined]] as const) {
      const created = await timed(() => shorten(path, key));
      expect(created.ms).toBeLessThan(BOUND_MS);
      expect(created.result.status).toBe(503);
      expect(created.result.headers['retry-after']).toBe('5');
      expect(created.result.json()).toEqual({ statusCode: 503, message: 'Service is temporarily unavailable, please try again later', error: 'Service Unavailable' });
    }
  });

  it('serves normally right after the thaw', async () => {
    process.kill(pid, 'SIGCONT');
    const created = await eventually(async () => {
      const response = await shorten('/v2/shorten', devApiKey());
      expect(response.status).toBe(201);
      return response;
    }, 5_000);
    expect((await http('GET', `/${created.json<{ shortCode: string }>().shortCode}`)).status).toBe(302);
    expect((await http('GET', `/${cold}`)).status).toBe(302);
  });
});
