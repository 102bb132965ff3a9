import { Messages } from '../../functions/shared/domain/messages';
import { createApiKey, devApiKey, http, jsonHeaders } from '../support/local-stack';
import { ops } from '../support/ops-cli';

const create = (apiKey?: string, headers: Record<string, string> = {}) =>
  http('POST', '/v2/shorten', { headers: { ...jsonHeaders(apiKey), ...headers }, body: { url: 'https://example.com/foundation' } });

describe('the local stack', () => {
  it('answers GET /health with JSON once ready', async () => {
    const response = await http('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers unknown routes and methods with JSON, never HTML, with one Content-Type as API Gateway sends', async () => {
    for (const [method, path] of [['GET', '/v2/shorten'], ['DELETE', '/abc123'], ['GET', '/no/such/route']] as const) {
      const response = await http(method, path);
      expect(response.status).toBe(404);
      expect(response.rawHeaderNames.filter((name) => name.toLowerCase() === 'content-type')).toHaveLength(1);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.json()).toEqual({ statusCode: 404, message: 'Not Found', error: 'Not Found' });
    }
  });
});

describe('API-key authentication on v2', () => {
  it('refuses a request without Authorization with the spec 401 body', async () => {
    const response = await create();
    expect(response.status).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, message: Messages.apiKeyRequired, error: 'Unauthorized' });
  });

  it('refuses an Authorization header that is not a Bearer token as a missing key', async () => {
    const response = await create(undefined, { authorization: 'Basic dXNlcjpwYXNz' });
    expect(response.status).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, message: Messages.apiKeyRequired, error: 'Unauthorized' });
  });

  it('refuses an unknown key with the spec 401 body', async () => {
    const response = await create('shk_not-a-real-key');
    expect(response.status).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, message: Messages.apiKeyInvalid, error: 'Unauthorized' });
  });

  it('refuses an inactive key', async () => {
    const { apiKey } = await createApiKey('PRO', { status: 'inactive' });
    const response = await create(apiKey);
    expect(response.status).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, message: Messages.apiKeyInvalid, error: 'Unauthorized' });
  });

  it('lets a valid key reach the create handler, scheme in any case and spaces around', async () => {
    const response = await create(undefined, { authorization: `  bEaReR   ${devApiKey()}  ` });
    expect(response.status).toBe(201);
    expect(response.json()).toMatchObject({ url: 'https://example.com/foundation', shortCode: expect.stringMatching(/^[A-Za-z0-9]{7}$/) });
  });
});

describe('the ops CLI', () => {
  it('creates a key that works at once, lists it, and revokes it so the next request is refused', async () => {
    const created = await ops('keys', 'create', '--plan', 'INDIE', '--label', 'e2e', '--json');
    expect(created.code).toBe(0);
    const { apiKey, keyId, accountId, plan } = JSON.parse(created.stdout) as { apiKey: string; keyId: string; accountId: string; plan: string };
    expect(plan).toBe('INDIE');
    expect(apiKey).toMatch(/^shk_[A-Za-z0-9_-]{43}$/);
    expect((await create(apiKey)).status).toBe(201);

    const listed = await ops('keys', 'list');
    expect(listed.stdout).toMatch(new RegExp(`${keyId}\\t${accountId}\\tINDIE\\tactive\\t.+\\te2e`));
    expect(listed.stdout).not.toContain(apiKey);

    expect((await ops('keys', 'revoke', keyId)).code).toBe(0);
    const refused = await create(apiKey);
    expect(refused.status).toBe(401);
    expect(refused.json()).toEqual({ statusCode: 401, message: Messages.apiKeyInvalid, error: 'Unauthorized' });
  });

  it.each([[['help']], [[]], [['--help']]])('prints the usage and exits 0 for %j', async (args) => {
    const result = await ops(...args);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: npm run ops -- <command>/);
    expect(result.stdout).toContain('keys create --plan');
    expect(result.stderr).toBe('');
  });

  it('prints only its own output: no SDK notice about Node.js versions', async () => {
    const result = await ops('flags', 'list');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('exits 2 on an unknown command', async () => {
    expect((await ops('frobnicate')).code).toBe(2);
  });

  it('lists the flags with their defaults', async () => {
    const listed = await ops('flags', 'list');
    expect(listed.stdout.trim().split('\n')).toEqual(['shortening\ton', 'customAliases\ton', 'passwordProtection\ton', 'expiration\ton', 'maintenance\toff', 'customDomains\ton', 'smartLinks\ton', 'webhooks\ton']);
  });

  it.each([
    [['keys', 'create', '--plan', 'GOLD'], /--plan must be one of FREE, INDIE, PRO, ENTERPRISE/],
    [['flags', 'set', 'maintenance', 'maybe'], /the value must be on or off/],
    [['keys', 'revoke', 'key_missing'], /no key with id key_missing/],
    [['frobnicate'], /unknown command/],
    [['keys', 'create', '--bogus'], /Unknown option/],
  ])('answers bad arguments %j with one line and a non-zero exit, no stack trace', async (args, message) => {
    const result = await ops(...args);
    expect(result.code).not.toBe(0);
    const firstLine = result.stderr.split('\n').find((line) => line.startsWith('ops: '));
    expect(firstLine).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
