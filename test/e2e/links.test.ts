import { randomBytes } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { hashApiKey } from '../../functions/shared/domain/accounts/api-keys';
import { Messages, OwnMessages } from '../../functions/shared/domain/messages';
import { StackOutputs } from '../../lib/stack-outputs';
import { clearOfWindowEdge, createApiKey, dynamo, http, jsonHeaders, stackOutput, uniqueLoopbackAddress, type HttpResult } from '../support/local-stack';
import { RATE_LIMITS } from '../../functions/shared/domain/limits/rate-limits';
import { ops } from '../support/ops-cli';
import { ISO_MS } from '../support/spec-shapes';
import { LINK_MEMORY_SECONDS } from '../../functions/shared/domain/links/cache-lease';

/** Issue 10: accounts managing their links through the API, and operators taking links down. */

const NOT_FOUND = { statusCode: 404, message: 'Link not found', error: 'Not Found' };
const GONE = { statusCode: 410, message: 'This link is no longer available', error: 'Gone' };
const DISABLED = { statusCode: 409, message: 'This link has been disabled by the platform', error: 'Conflict' };

const call = (method: string, path: string, apiKey: string, body?: object) =>
  http(method, path, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });

async function shorten(apiKey: string, fields: Record<string, unknown> = {}): Promise<{ shortCode: string; shortUrl: string }> {
  const response = await call('POST', '/v2/shorten', apiKey, { url: 'https://example.com/managed', ...fields });
  if (response.status !== 201) throw new Error(`could not create the link: ${response.text}`);
  return response.json();
}

function expectBadRequest(response: HttpResult, method: string, path: string, message: string): void {
  expect(response.status).toBe(400);
  expect(response.json()).toEqual({ statusCode: 400, timestamp: expect.stringMatching(ISO_MS), path, method, message });
}

let owner: string;
let ownerAccount: string;
let stranger: string;

beforeAll(async () => {
  ({ apiKey: owner, accountId: ownerAccount } = await createApiKey('PRO'));
  ({ apiKey: stranger } = await createApiKey('PRO'));
});

describe('GET /v2/links/{code}', () => {
  it('shows the owner the link view', async () => {
    const { shortCode, shortUrl } = await shorten(owner, { alias: `view-${Date.now().toString(36)}`, expiresIn: 3600, maxClicks: 5, password: 'open sesame' });
    const response = await call('GET', `/v2/links/${shortCode}`, owner);
    expect(response.status).toBe(200);
    expect(response.headers['x-ratelimit-limit']).toBe('1000');
    expect(response.json()).toEqual({
      shortUrl,
      shortCode,
      domain: new URL(shortUrl).host,
      url: 'https://example.com/managed',
      alias: shortCode,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
      expiresAt: expect.stringMatching(ISO_MS),
      maxClicks: 5,
      clicks: 0,
      passwordProtected: true,
      status: 'active',
    });
  });

  it('answers 404 alike for an unknown code, another account\'s link and a v1 link', async () => {
    const { shortCode } = await shorten(owner);
    const anonymous = await http('POST', '/v1/shorten', { headers: jsonHeaders(), body: { url: 'https://example.com/v1' }, localAddress: uniqueLoopbackAddress() });
    for (const [code, key] of [['no-such-code', owner], [shortCode, stranger], [anonymous.json<{ shortCode: string }>().shortCode, owner], ['%ff', owner]] as const) {
      const response = await call('GET', `/v2/links/${code}`, key);
      expect(response.status).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
  });

  it('needs a key like every v2 route', async () => {
    const response = await http('GET', '/v2/links/abcdefg');
    expect(response.status).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, message: Messages.apiKeyRequired, error: 'Unauthorized' });
  });
});

describe('GET /v2/links', () => {
  it('lists the account\'s links newest first, in pages that return each link exactly once, even while links are being created', async () => {
    const { apiKey } = await createApiKey('PRO');
    const existing: string[] = [];
    for (let i = 0; i < 23; i += 1) existing.push((await shorten(apiKey, { url: `https://example.com/${i}` })).shortCode);
    const concurrent = Promise.all(Array.from({ length: 15 }, (_, i) => shorten(apiKey, { url: `https://example.com/new/${i}` })));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: HttpResult = await call('GET', `/v2/links?limit=5${cursor ? `&cursor=${cursor}` : ''}`, apiKey);
      expect(page.status).toBe(200);
      const body = page.json<{ links: Array<{ shortCode: string; createdAt: string }>; nextCursor: string | null }>();
      expect(body.links.length).toBeLessThanOrEqual(5);
      seen.push(...body.links.map((link) => link.shortCode));
      cursor = body.nextCursor;
    } while (cursor);
    const created = (await concurrent).map((link) => link.shortCode);
    expect(new Set(seen).size).toBe(seen.length);
    for (const code of existing) expect(seen).toContain(code);
    expect(seen.every((code) => existing.includes(code) || created.includes(code))).toBe(true);
    const oldest = seen.filter((code) => existing.includes(code));
    expect(oldest).toEqual([...existing].reverse());
  });

  it('never shows another account\'s links, and defaults to 20 per page', async () => {
    const { apiKey } = await createApiKey('PRO');
    const mine = await shorten(apiKey);
    await shorten(stranger);
    const body = (await call('GET', '/v2/links', apiKey)).json<{ links: Array<{ shortCode: string }>; nextCursor: string | null }>();
    expect(body).toEqual({ links: [expect.objectContaining({ shortCode: mine.shortCode, status: 'active' })], nextCursor: null });
    for (let i = 0; i < 20; i += 1) await shorten(apiKey);
    const page = (await call('GET', '/v2/links', apiKey)).json<{ links: unknown[]; nextCursor: string | null }>();
    expect(page.links).toHaveLength(20);
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it('filters by status', async () => {
    const { apiKey } = await createApiKey('PRO');
    const kept = await shorten(apiKey);
    const removed = await shorten(apiKey);
    expect((await call('DELETE', `/v2/links/${removed.shortCode}`, apiKey)).status).toBe(204);
    const deleted = (await call('GET', '/v2/links?status=deleted', apiKey)).json<{ links: Array<{ shortCode: string; status: string }> }>();
    expect(deleted.links.map((link) => [link.shortCode, link.status])).toEqual([[removed.shortCode, 'deleted']]);
    const active = (await call('GET', '/v2/links?status=active&limit=100', apiKey)).json<{ links: Array<{ shortCode: string }> }>();
    expect(active.links.map((link) => link.shortCode)).toEqual([kept.shortCode]);
  });

  it('searches codes, aliases and destinations, ignoring case, in the forms people type (issue 20)', async () => {
    const { apiKey } = await createApiKey('PRO');
    const alias = `Spring-${Date.now().toString(36)}`;
    const sale = await shorten(apiKey, { url: 'https://shop.example.com/sale', alias });
    const books = await shorten(apiKey, { url: 'https://bücher.de/küche' });
    await shorten(apiKey, { url: 'https://example.org/other' });
    const found = async (search: string, extra = '') =>
      (await call('GET', `/v2/links?search=${encodeURIComponent(search)}${extra}`, apiKey)).json<{ links: Array<{ shortCode: string }> }>().links.map((link) => link.shortCode);
    expect(await found(alias.toLowerCase())).toEqual([sale.shortCode]);
    expect(await found('SHOP.EXAMPLE')).toEqual([sale.shortCode]);
    expect(await found('BÜCHER.de/KÜCHE')).toEqual([books.shortCode]);
    expect(await found('xn--bcher')).toEqual([books.shortCode]);
    expect(await found('sale', '&status=deleted')).toEqual([]);
    expect(await found('nowhere at all')).toEqual([]);
  });

  it('tags links on creation, in batches and by PATCH, filters by tag and counts them (issue 20)', async () => {
    const { apiKey } = await createApiKey('PRO');
    const spring = await shorten(apiKey, { tags: ['Spring', 'promo', 'SPRING'] });
    const batch = await call('POST', '/v2/shorten/batch', apiKey, { urls: [{ url: 'https://example.com/b1', tags: ['promo'] }, { url: 'https://example.com/b2', tags: ['two words'] }] });
    const [tagged, refused] = batch.json<{ results: Array<{ success: boolean; shortCode?: string; error?: string }> }>().results;
    expect(refused).toMatchObject({ success: false, error: OwnMessages.tagsInvalid });
    expect((await call('GET', `/v2/links/${spring.shortCode}`, apiKey)).json()).toMatchObject({ tags: ['spring', 'promo'] });
    const byTag = async (tag: string) => (await call('GET', `/v2/links?tag=${tag}`, apiKey)).json<{ links: Array<{ shortCode: string }> }>().links.map((link) => link.shortCode);
    expect(await byTag('PROMO')).toEqual([tagged?.shortCode, spring.shortCode]);
    expect((await call('GET', '/v2/tags', apiKey)).json()).toEqual({ tags: [{ tag: 'promo', links: 2 }, { tag: 'spring', links: 1 }], complete: true });

    expect((await call('PATCH', `/v2/links/${spring.shortCode}`, apiKey, { tags: ['autumn'] })).json()).toMatchObject({ tags: ['autumn'] });
    expect(await byTag('spring')).toEqual([]);
    const untagged = (await call('PATCH', `/v2/links/${spring.shortCode}`, apiKey, { tags: [] })).json();
    expect(untagged).not.toHaveProperty('tags');
    expect((await call('GET', '/v2/tags', apiKey)).json()).toEqual({ tags: [{ tag: 'promo', links: 1 }], complete: true });
    expectBadRequest(await call('POST', '/v2/shorten', apiKey, { url: 'https://example.com/', tags: Array.from({ length: 11 }, (_, index) => `t${index}`) }), 'POST', '/v2/shorten', OwnMessages.tagsInvalid);
    expectBadRequest(await call('GET', '/v2/links?tag=no%20spaces', apiKey), 'GET', '/v2/links', OwnMessages.tagParameter);
    // Another account's tags are its own.
    const { apiKey: other } = await createApiKey('PRO');
    expect((await call('GET', '/v2/tags', other)).json()).toEqual({ tags: [], complete: true });
  });

  it.each([
    ['search=', OwnMessages.searchParameter],
    ['limit=0', OwnMessages.limitParameter],
    ['limit=101', OwnMessages.limitParameter],
    ['limit=ten', OwnMessages.limitParameter],
    ['limit=2.5', OwnMessages.limitParameter],
    ['cursor=not-a-cursor', OwnMessages.cursorParameter],
    ['status=archived', OwnMessages.statusParameter],
  ])('refuses %s with a 400 naming the parameter', async (query, message) => {
    expectBadRequest(await call('GET', `/v2/links?${query}`, owner), 'GET', '/v2/links', message);
  });
});

describe('PATCH /v2/links/{code}', () => {
  it('changes the destination, and visitors land there', async () => {
    const { shortCode } = await shorten(owner);
    const response = await call('PATCH', `/v2/links/${shortCode}`, owner, { url: 'https://example.org/über' });
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ shortCode, url: 'https://example.org/%C3%BCber', status: 'active' });
    expect(response.json<{ updatedAt: string; createdAt: string }>().updatedAt >= response.json<{ createdAt: string }>().createdAt).toBe(true);
    expect((await http('GET', `/${shortCode}`)).headers.location).toBe('https://example.org/%C3%BCber');
  });

  it('sets and removes an expiry, a click limit and a password (null removes)', async () => {
    const guarded = await shorten(owner);
    await call('PATCH', `/v2/links/${guarded.shortCode}`, owner, { password: 'open sesame' });
    expect((await http('GET', `/${guarded.shortCode}`, { headers: { accept: 'application/json' } })).status).toBe(401);

    const { shortCode } = await shorten(owner);
    const set = await call('PATCH', `/v2/links/${shortCode}`, owner, { expiresIn: 120, maxClicks: 3, password: 'open sesame' });
    expect(set.json()).toMatchObject({ maxClicks: 3, passwordProtected: true, expiresAt: expect.stringMatching(ISO_MS) });
    const removed = await call('PATCH', `/v2/links/${shortCode}`, owner, { expiresIn: null, maxClicks: null, password: null });
    expect(removed.status).toBe(200);
    const view = removed.json<Record<string, unknown>>();
    expect(view.passwordProtected).toBe(false);
    expect(view).not.toHaveProperty('expiresAt');
    expect(view).not.toHaveProperty('maxClicks');
    expect((await http('GET', `/${shortCode}`)).status).toBe(302);
  });

  it('refuses a click limit below the clicks already used, naming them', async () => {
    const { shortCode } = await shorten(owner, { maxClicks: 10 });
    for (let i = 0; i < 3; i += 1) expect((await http('GET', `/${shortCode}`)).status).toBe(302);
    expectBadRequest(await call('PATCH', `/v2/links/${shortCode}`, owner, { maxClicks: 2 }), 'PATCH', `/v2/links/${shortCode}`, 'maxClicks cannot be lower than the clicks already used (3)');
    expect((await call('PATCH', `/v2/links/${shortCode}`, owner, { maxClicks: 3 })).json()).toMatchObject({ clicks: 3, maxClicks: 3, status: 'used-up' });
  });

  it.each([
    ['an empty body', {}, OwnMessages.patchEmpty],
    ['only unknown fields', { colour: 'blue' }, OwnMessages.patchEmpty],
    ['a bad URL', { url: 'javascript:alert(1)' }, Messages.invalidUrl],
    ['a null URL', { url: null }, Messages.invalidUrl],
    ['a short expiry', { expiresIn: 30 }, Messages.expiresInTooShort],
    ['a short password', { password: 'abc' }, Messages.passwordLength],
    ['a look-alike host', { url: 'https://аpple.com/' }, Messages.unsafeUrl],
    ['a blocklisted host', { url: 'https://testsafebrowsing.appspot.com/s/malware.html' }, Messages.unsafeUrl],
    ['an alias beside a URL (a code never changes)', { url: 'https://example.org/', alias: 'new-name' }, OwnMessages.aliasUnchangeable],
    ['an alias alone', { alias: 'new-name' }, OwnMessages.aliasUnchangeable],
    ['a NAT64 address of a private one', { url: 'http://[64:ff9b::a00:1]/' }, Messages.invalidUrl],
    ['a .test host', { url: 'https://example.test/' }, Messages.invalidUrl],
  ])('refuses %s with the creation message', async (_why, body, message) => {
    const { shortCode } = await shorten(owner);
    expectBadRequest(await call('PATCH', `/v2/links/${shortCode}`, owner, body), 'PATCH', `/v2/links/${shortCode}`, message);
  });

  it('gates features by plan with the 403 body, and lets any plan remove them', async () => {
    const { apiKey } = await createApiKey('FREE');
    const { shortCode } = await shorten(apiKey, { expiresIn: 600 });
    const refused = await call('PATCH', `/v2/links/${shortCode}`, apiKey, { maxClicks: 5 });
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ statusCode: 403, error: 'Forbidden', feature: 'clickLimits', currentPlan: 'FREE' });
    expect((await call('PATCH', `/v2/links/${shortCode}`, apiKey, { password: null, expiresIn: null })).status).toBe(200);
  });

  it('answers 404 for another account\'s link, 410 once used up or deleted', async () => {
    const { shortCode } = await shorten(owner, { maxClicks: 1 });
    expect((await call('PATCH', `/v2/links/${shortCode}`, stranger, { url: 'https://example.org/' })).json()).toEqual(NOT_FOUND);
    expect((await http('GET', `/${shortCode}`)).status).toBe(302);
    const usedUp = await call('PATCH', `/v2/links/${shortCode}`, owner, { maxClicks: 5 });
    expect(usedUp.status).toBe(410);
    expect(usedUp.json()).toEqual(GONE);
    const other = await shorten(owner);
    await call('DELETE', `/v2/links/${other.shortCode}`, owner);
    expect((await call('PATCH', `/v2/links/${other.shortCode}`, owner, { url: 'https://example.org/' })).json()).toEqual(GONE);
  });
});

describe('DELETE /v2/links/{code}', () => {
  it('answers 204, keeps the code taken, sends visitors 410, shows deleted, and answers 410 to a second delete', async () => {
    const alias = `gone-${Date.now().toString(36)}`;
    const { shortCode } = await shorten(owner, { alias });
    const deleted = await call('DELETE', `/v2/links/${shortCode}`, owner);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const visit = await http('GET', `/${shortCode}`, { headers: { accept: 'text/html' } });
    expect(visit.status).toBe(410);
    expect(visit.text).toContain('deleted by its owner');
    const view = (await call('GET', `/v2/links/${shortCode}`, owner)).json<Record<string, unknown>>();
    expect(view).toMatchObject({ shortCode, status: 'deleted' });
    expect(view).not.toHaveProperty('url');
    expect((await call('POST', '/v2/shorten', owner, { url: 'https://example.com/', alias })).json().message).toBe(Messages.aliasTaken);
    const again = await call('DELETE', `/v2/links/${shortCode}`, owner);
    expect(again.status).toBe(410);
    expect(again.json()).toEqual(GONE);
  });

  it('cannot delete another account\'s link', async () => {
    const { shortCode } = await shorten(owner);
    expect((await call('DELETE', `/v2/links/${shortCode}`, stranger)).json()).toEqual(NOT_FOUND);
    expect((await http('GET', `/${shortCode}`)).status).toBe(302);
  });
});

describe('changes and visitors', () => {
  it('reach a visitor within the redirect function\'s 30 s of memory (60 s with the browser\'s own cache)', async () => {
    const { shortCode } = await shorten(owner);
    // The copy's 30 s run from the read of this first visit, so they are counted from before it.
    const visitedAt = Date.now();
    expect((await http('GET', `/${shortCode}`)).status).toBe(302);
    expect((await call('DELETE', `/v2/links/${shortCode}`, owner)).status).toBe(204);
    let status = 302;
    while (status === 302 && Date.now() - visitedAt < 40_000) {
      status = (await http('GET', `/${shortCode}`)).status;
      if (status === 302) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(410);
    expect(Date.now() - visitedAt).toBeLessThanOrEqual(LINK_MEMORY_SECONDS * 1000 + 1_000);
  }, 45_000);

  it('are never cached by a shared cache: a plain link\'s redirect is private to the browser', async () => {
    const { shortCode } = await shorten(owner);
    expect((await http('GET', `/${shortCode}`)).headers['cache-control']).toBe('private, max-age=30');
  });
});

describe('GET /v2/usage', () => {
  it('reports the account\'s month and the key\'s minute', async () => {
    // Both calls in one minute's window, or the key's minute would show one call, not two.
    await clearOfWindowEdge(RATE_LIMITS.perApiKey.windowSeconds, 10_000);
    const { apiKey, accountId } = await createApiKey('INDIE');
    await shorten(apiKey);
    const response = await call('GET', '/v2/usage', apiKey);
    expect(response.status).toBe(200);
    const nextMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
    expect(response.json()).toEqual({
      accountId,
      plan: 'INDIE',
      monthlyLimit: 10_000,
      used: 2,
      remaining: 9_998,
      resetDate: nextMonth,
      rateLimit: { limit: 1000, remaining: 998, reset: Number(response.headers['x-ratelimit-reset']) },
    });
  });

  it('shares one monthly quota among the keys of an account', async () => {
    const first = await createApiKey('PRO', { monthlyLimit: 3 });
    const second = await createApiKey('PRO', { accountId: first.accountId });
    expect((await call('GET', '/v2/usage', first.apiKey)).json()).toMatchObject({ used: 1, remaining: 2 });
    expect((await call('GET', '/v2/usage', second.apiKey)).json()).toMatchObject({ used: 2, remaining: 1 });
    await shorten(first.apiKey);
    const refused = await call('POST', '/v2/shorten', second.apiKey, { url: 'https://example.com/' });
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({ statusCode: 429, limit: 3 });
  });
});

describe('GET /v2/links/{code}/qr', () => {
  it('draws the short URL as SVG by default', async () => {
    const { shortCode } = await shorten(owner);
    const response = await call('GET', `/v2/links/${shortCode}/qr`, owner);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml');
    expect(response.text).toMatch(/^<svg[^>]+width="512"/);
  });

  it('draws a PNG of the asked size that a real decoder reads back as the short URL', async () => {
    const { shortCode, shortUrl } = await shorten(owner);
    const response = await new Promise<{ status: number; type: string; bytes: Buffer }>((resolve, reject) => {
      import('node:http').then(({ get }) =>
        get(new URL(`/v2/links/${shortCode}/qr?format=png&size=256`, process.env.LOCAL_STACK_URL), { headers: { authorization: `Bearer ${owner}` } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), bytes: Buffer.concat(chunks) }));
        }).on('error', reject),
      );
    });
    expect(response.status).toBe(200);
    expect(response.type).toBe('image/png');
    const png = PNG.sync.read(response.bytes);
    expect(png.width).toBe(256);
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(shortUrl);
  });

  it.each([
    ['format=gif', OwnMessages.formatParameter],
    ['size=127', OwnMessages.sizeParameter],
    ['size=1025', OwnMessages.sizeParameter],
    ['size=big', OwnMessages.sizeParameter],
  ])('refuses %s with a 400 naming the parameter', async (query, message) => {
    const { shortCode } = await shorten(owner);
    expectBadRequest(await call('GET', `/v2/links/${shortCode}/qr?${query}`, owner), 'GET', `/v2/links/${shortCode}/qr`, message);
  });

  it('answers 404 for another account\'s link', async () => {
    const { shortCode } = await shorten(owner);
    expect((await call('GET', `/v2/links/${shortCode}/qr`, stranger)).json()).toEqual(NOT_FOUND);
  });
});

describe('operators', () => {
  it('take a link down with a reason visitors never see; the owner sees disabled and cannot change it; enable undoes it', async () => {
    const { shortCode } = await shorten(owner);
    expect((await ops('links', 'disable', shortCode, '--reason', 'phishing report #42')).code).toBe(0);
    const visit = await http('GET', `/${shortCode}`, { headers: { accept: 'text/html' } });
    expect(visit.status).toBe(410);
    expect(visit.text).toContain('This link has been disabled');
    expect(visit.text).not.toContain('phishing');
    expect((await call('GET', `/v2/links/${shortCode}`, owner)).json()).toMatchObject({ status: 'disabled' });
    expect((await call('PATCH', `/v2/links/${shortCode}`, owner, { url: 'https://example.org/' })).json()).toEqual(DISABLED);
    expect((await call('DELETE', `/v2/links/${shortCode}`, owner)).json()).toEqual(DISABLED);
    const shown = await ops('links', 'show', shortCode);
    expect(shown.stdout).toContain('status\tdisabled');
    expect(shown.stdout).toContain('takedown reason\tphishing report #42');
    expect(shown.stdout).toContain(`owner\tacct:${ownerAccount}`);
    expect((await ops('links', 'enable', shortCode)).code).toBe(0);
    expect((await http('GET', `/${shortCode}`)).status).toBe(302);
  });

  it('open accounts, add keys that share their links, and change plans effective on the next request', async () => {
    const created = await ops('keys', 'create', '--plan', 'FREE', '--label', 'acme', '--json');
    const first = JSON.parse(created.stdout) as { apiKey: string; accountId: string; plan: string };
    expect(first).toMatchObject({ accountId: expect.stringMatching(/^acct_[0-9a-f]{16}$/), plan: 'FREE' });
    const added = JSON.parse((await ops('keys', 'create', '--account', first.accountId, '--json')).stdout) as { apiKey: string; accountId: string; plan: string };
    expect(added).toMatchObject({ accountId: first.accountId, plan: 'FREE' });
    const { shortCode } = await shorten(first.apiKey);
    expect((await call('GET', `/v2/links/${shortCode}`, added.apiKey)).status).toBe(200);
    expect((await call('POST', '/v2/shorten', added.apiKey, { url: 'https://example.com/', alias: `acme-${Date.now().toString(36)}` })).status).toBe(403);
    expect((await ops('accounts', 'set-plan', first.accountId, 'INDIE')).code).toBe(0);
    expect((await call('POST', '/v2/shorten', added.apiKey, { url: 'https://example.com/', alias: `acme-${Date.now().toString(36)}` })).status).toBe(201);
    const shown = await ops('accounts', 'show', first.accountId);
    expect(shown.stdout).toContain('plan\tINDIE');
    expect(shown.stdout).toMatch(/calls this month\t4 /);
    expect(shown.stdout.match(/^key\t/gm)).toHaveLength(2);
    expect((await ops('accounts', 'list')).stdout).toContain(`${first.accountId}\tINDIE`);
    // Revoking a key loses no links: the account's other key still manages them.
    const firstKeyId = (await ops('keys', 'list')).stdout.split('\n').find((line) => line.includes(first.accountId))?.split('\t')[0] ?? '';
    await ops('keys', 'revoke', firstKeyId);
    expect((await call('GET', `/v2/links/${shortCode}`, added.apiKey)).status).toBe(200);
  });
});

describe('links made before accounts existed', () => {
  it('belong to the account of the key that made them, with no migration', async () => {
    // A key and a link exactly as they were stored before this change: no accountId, owner key:<keyId>. Keys have
    // had one shape since the first one was issued: shk_ and 32 random bytes.
    const apiKey = `shk_${randomBytes(32).toString('base64url')}`;
    const keyId = `key_${Date.now().toString(16).padStart(16, '0').slice(-16)}`;
    await dynamo().send(new PutCommand({
      TableName: stackOutput(StackOutputs.apiKeysTable),
      Item: { keyHash: hashApiKey(apiKey), keyId, plan: 'PRO', status: 'active', createdAt: '2026-01-01T00:00:00.000Z' },
    }));
    const code = `old${Date.now().toString(36)}`;
    await dynamo().send(new PutCommand({
      TableName: stackOutput(StackOutputs.linksTable),
      Item: { code, url: 'https://example.com/old', isAlias: false, createdAt: '2026-01-02T00:00:00.000Z', clicks: 0, owner: `key:${keyId}` },
    }));
    expect((await call('GET', `/v2/links/${code}`, apiKey)).json()).toMatchObject({ shortCode: code, url: 'https://example.com/old', status: 'active' });
    const listed = (await call('GET', '/v2/links', apiKey)).json<{ links: Array<{ shortCode: string }> }>();
    expect(listed.links.map((link) => link.shortCode)).toEqual([code]);
    const newer = await shorten(apiKey);
    expect((await call('GET', '/v2/links', apiKey)).json<{ links: Array<{ shortCode: string }> }>().links.map((link) => link.shortCode)).toEqual([newer.shortCode, code]);
    expect((await call('GET', '/v2/usage', apiKey)).json()).toMatchObject({ accountId: `acct_${keyId.slice(4)}` });
  });
});
