import { OwnMessages } from '../../functions/shared/domain/messages';
import { CACHE_LEASE_MS } from '../../functions/shared/domain/links/cache-lease';
import { createApiKey, eventually, http, jsonHeaders } from '../support/local-stack';

/**
 * Issue 16, finding 6: a plain link visited a moment ago, then given a click limit or a password. Copies of its
 * redirect (the function's memory, browsers) cannot see the change, so the change waits for them: 409 with
 * Retry-After, and from the 200 of the retry on, no visitor gets past the new limit or without the password.
 */
jest.setTimeout(CACHE_LEASE_MS + 60_000);

const call = (method: string, path: string, apiKey: string, body?: object) => http(method, path, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('adding a click limit or a password to a plain link visitors hold copies of', () => {
  it('is refused with 409 and Retry-After while copies may exist, then enforced exactly from the retry\'s 200 on', async () => {
    const { apiKey } = await createApiKey('PRO');
    const { shortCode } = (await call('POST', '/v2/shorten', apiKey, { url: 'https://example.com/viral' })).json<{ shortCode: string }>();
    const visited = await http('GET', `/${shortCode}`);
    expect(visited.status).toBe(302);
    expect(visited.headers['cache-control']).toBe('private, max-age=30');

    const refused = await call('PATCH', `/v2/links/${shortCode}`, apiKey, { maxClicks: 1_000 });
    expect(refused.status).toBe(409);
    expect(refused.json()).toEqual({ statusCode: 409, message: OwnMessages.linkStillCached, error: 'Conflict' });
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(CACHE_LEASE_MS / 1000);
    // Visits go on meanwhile (the edit has not happened); the copies they are served from all end within the wait.
    expect((await http('GET', `/${shortCode}`)).status).toBe(302);

    await sleep(wait * 1000);
    // Clicks counted so far (the log subscription adds them within seconds) and a limit two above them.
    const before = await eventually(async () => {
      const view = (await call('GET', `/v2/links/${shortCode}`, apiKey)).json<{ clicks: number }>();
      expect(view.clicks).toBe(2);
      return view;
    });
    const limited = await call('PATCH', `/v2/links/${shortCode}`, apiKey, { maxClicks: before.clicks + 2 });
    expect(limited.status).toBe(200);
    const { clicks, maxClicks } = limited.json<{ clicks: number; maxClicks: number }>();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await http('GET', `/${shortCode}`)).status);
    expect(statuses.filter((status) => status === 302).length).toBeLessThanOrEqual(maxClicks - clicks);
    expect(statuses.slice(-2)).toEqual([410, 410]);
  });

  it('lets a link nobody visited take a password at once, and no visitor past it from then on', async () => {
    const { apiKey } = await createApiKey('PRO');
    const { shortCode } = (await call('POST', '/v2/shorten', apiKey, { url: 'https://example.com/quiet' })).json<{ shortCode: string }>();
    expect((await call('PATCH', `/v2/links/${shortCode}`, apiKey, { password: 'open sesame' })).status).toBe(200);
    const visit = await http('GET', `/${shortCode}`, { headers: { accept: 'text/html' } });
    expect(visit.status).toBe(200);
    expect(visit.text).toContain('protected');
  });
});
