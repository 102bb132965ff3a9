import { Messages } from '../../functions/shared/domain/messages';
import { SAFE_DEFAULT_FLAGS, FLAG_NAMES } from '../../functions/shared/domain/limits/flags';
import { devApiKey, eventually, http, jsonHeaders, setFlag } from '../support/local-stack';
import { expectBadRequest } from '../support/spec-shapes';

/**
 * Operators' switches, flipped through SSM as `npm run ops -- flags set` does. Functions cache flags for a few
 * seconds, so each expectation waits for the change to arrive, and every test puts the defaults back.
 */
const shorten = (body: object) => http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body });

/** Puts the defaults back and waits until every function (create, batch, redirect) has seen them. */
async function restoreDefaults(): Promise<void> {
  await Promise.all(FLAG_NAMES.map((flag) => setFlag(flag, SAFE_DEFAULT_FLAGS[flag])));
  const created = await eventually(async () => {
    const response = await shorten({ url: 'https://example.com', alias: `back-${Date.now()}`, password: 'abcd', expiresIn: 60 });
    expect(response.status).toBe(201);
    return response.json<{ shortCode: string }>();
  });
  await eventually(async () => {
    const response = await http('POST', '/v2/shorten/batch', { headers: jsonHeaders(devApiKey()), body: { urls: [{ url: 'https://example.com', alias: `back-${Date.now()}` }] } });
    expect(response.json<{ results: Array<{ success: boolean }> }>().results[0]?.success).toBe(true);
  });
  await eventually(async () => expect((await http('GET', `/${created.shortCode}`)).status).not.toBe(503));
}

afterEach(restoreDefaults);

describe('feature flags', () => {
  it('refuse each switched-off feature with its 7.2 message, leaving plain links alone', async () => {
    await Promise.all([setFlag('customAliases', false), setFlag('passwordProtection', false), setFlag('expiration', false)]);
    const aliased = await eventually(async () => {
      const response = await shorten({ url: 'https://example.com', alias: 'flagged-alias' });
      expect(response.json().message).toBe(Messages.aliasesDisabled);
      return response;
    });
    expectBadRequest(aliased.json(), '/v2/shorten', Messages.aliasesDisabled);
    expectBadRequest((await shorten({ url: 'https://example.com', password: 'abcd' })).json(), '/v2/shorten', Messages.passwordsDisabled);
    expectBadRequest((await shorten({ url: 'https://example.com', expiresIn: 60 })).json(), '/v2/shorten', Messages.expirationDisabled);
    expect((await shorten({ url: 'https://example.com' })).status).toBe(201);
  });

  it('refuse every creation, and a PATCH of a destination, while shortening is off', async () => {
    const plain = (await shorten({ url: 'https://example.com/before-the-switch' })).json<{ shortCode: string }>();
    await setFlag('shortening', false);
    const response = await eventually(async () => {
      const answer = await shorten({ url: 'https://example.com' });
      expect(answer.status).toBe(400);
      return answer;
    });
    expectBadRequest(response.json(), '/v2/shorten', Messages.shorteningDisabled);
    const whole = await eventually(async () => {
      const answer = await http('POST', '/v2/shorten/batch', { headers: jsonHeaders(devApiKey()), body: { urls: [{ url: 'https://example.com' }] } });
      expect(answer.status).toBe(400);
      return answer;
    });
    expectBadRequest(whole.json(), '/v2/shorten/batch', Messages.shorteningDisabled);
    // A new destination by PATCH is a shortening too; other edits stay possible.
    const path = `/v2/links/${plain.shortCode}`;
    const repointed = await http('PATCH', path, { headers: jsonHeaders(devApiKey()), body: { url: 'https://example.org/elsewhere' } });
    expect(repointed.status).toBe(400);
    expect(repointed.json()).toMatchObject({ statusCode: 400, path, method: 'PATCH', message: Messages.shorteningDisabled });
    expect((await http('PATCH', path, { headers: jsonHeaders(devApiKey()), body: { expiresIn: 600 } })).status).toBe(200);
    expect((await http('GET', path, { headers: jsonHeaders(devApiKey()) })).json()).toMatchObject({ url: 'https://example.com/before-the-switch' });
  });

  it('answer 503 with Retry-After in maintenance mode, on creation, batches and visits', async () => {
    const link = (await shorten({ url: 'https://example.com/visited' })).json<{ shortCode: string }>();
    await setFlag('maintenance', true);
    const response = await eventually(async () => {
      const answer = await shorten({ url: 'https://example.com' });
      expect(answer.status).toBe(503);
      return answer;
    });
    expect(response.json()).toEqual({ statusCode: 503, message: Messages.maintenance, error: 'Service Unavailable' });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    for (const [method, path, body] of [
      ['POST', '/v2/shorten/batch', { urls: [{ url: 'https://example.com' }] }],
      ['GET', `/${link.shortCode}`, undefined],
    ] as const) {
      const answer = await eventually(async () => {
        const candidate = await http(method, path, { headers: { ...jsonHeaders(devApiKey()), accept: 'application/json' }, ...(body ? { body } : {}) });
        expect(candidate.status).toBe(503);
        return candidate;
      });
      expect(answer.json()).toEqual({ statusCode: 503, message: Messages.maintenance, error: 'Service Unavailable' });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    const page = await http('GET', `/${link.shortCode}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(503);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain(Messages.maintenance);
  });
});
