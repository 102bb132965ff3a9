import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Messages, OwnMessages } from '../../functions/shared/domain/messages';
import { fixedWindow } from '../../functions/shared/domain/limits/usage-windows';
import { StackOutputs } from '../../lib/stack-outputs';
import { clearOfWindowEdge, createApiKey, devApiKey, dynamo, http, jsonHeaders, stackOutput, uniqueLoopbackAddress } from '../support/local-stack';
import { RATE_LIMITS } from '../../functions/shared/domain/limits/rate-limits';
import { ISO_MS, expectBadRequest, expectForbidden } from '../support/spec-shapes';

const shorten = (body: unknown, apiKey = devApiKey(), headers: Record<string, string> = {}) =>
  http('POST', '/v2/shorten', { headers: { ...jsonHeaders(apiKey), ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe('POST /v2/shorten: 201', () => {
  it('answers with exactly the spec 2.2 fields when only url is sent', async () => {
    const response = await shorten({ url: 'https://example.com/plain' });
    expect(response.status).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      shortUrl: `${process.env.LOCAL_STACK_URL}/${String(body.shortCode)}`,
      shortCode: expect.stringMatching(/^[0-9A-Za-z]{7}$/),
      url: 'https://example.com/plain',
      createdAt: expect.stringMatching(ISO_MS),
    });
  });

  it('adds alias, expiresAt and maxClicks exactly when requested', async () => {
    const alias = unique('full');
    const before = Date.now();
    const response = await shorten({ url: 'https://example.com/full', alias, password: 'open-sesame', expiresIn: 3600, maxClicks: 5 });
    expect(response.status).toBe(201);
    const body = response.json<Record<string, string>>();
    expect(body).toEqual({
      shortUrl: `${process.env.LOCAL_STACK_URL}/${alias}`,
      shortCode: alias,
      url: 'https://example.com/full',
      alias,
      expiresAt: expect.stringMatching(ISO_MS),
      maxClicks: 5,
      createdAt: expect.stringMatching(ISO_MS),
    });
    expect(Date.parse(body.expiresAt ?? '') - Date.parse(body.createdAt ?? '')).toBe(3_600_000);
    expect(Date.parse(body.createdAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(JSON.stringify(body)).not.toContain('open-sesame');
  });

  it('sends the rate-limit headers on every v2 answer', async () => {
    for (const response of [await shorten({ url: 'https://example.com/h' }), await shorten({ url: 'bad' })]) {
      expect(Number(response.headers['x-ratelimit-limit'])).toBe(1000);
      expect(Number(response.headers['x-ratelimit-remaining'])).toBeLessThan(1000);
      expect(Number(response.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    }
  });
});

describe('POST /v2/shorten: every 400 of spec 7.2, in the 7.5 shape', () => {
  const taken = unique('taken');
  beforeAll(async () => {
    const response = await shorten({ url: 'https://example.com', alias: taken });
    if (response.status !== 201) throw new Error(`could not take the alias: ${response.text}`);
  });

  it.each([
    ['a missing URL', { alias: 'whatever' }, Messages.invalidUrl],
    ['a malformed URL', { url: 'htp:/nope' }, Messages.invalidUrl],
    ['a javascript: URL', { url: 'javascript:alert(1)' }, Messages.invalidUrl],
    ['a private-network URL', { url: 'http://192.168.0.1/admin' }, Messages.invalidUrl],
    ['a taken alias', () => ({ url: 'https://example.com', alias: taken }), Messages.aliasTaken],
    ['a reserved alias', { url: 'https://example.com', alias: 'Admin' }, Messages.aliasReserved],
    ['a short alias', { url: 'https://example.com', alias: 'ab' }, Messages.aliasLength],
    ['a long alias', { url: 'https://example.com', alias: 'a'.repeat(51) }, Messages.aliasLength],
    ['a short password', { url: 'https://example.com', password: 'abc' }, Messages.passwordLength],
    ['a long password', { url: 'https://example.com', password: 'a'.repeat(101) }, Messages.passwordLength],
    ['expiresIn below 60', { url: 'https://example.com', expiresIn: 59 }, Messages.expiresInTooShort],
    ['a URL the safety check flags', { url: 'https://testsafebrowsing.appspot.com/s/malware.html' }, Messages.unsafeUrl],
    ['maxClicks of 0', { url: 'https://example.com', maxClicks: 0 }, OwnMessages.maxClicksInvalid],
    ['a string expiresIn', { url: 'https://example.com', expiresIn: '3600' }, OwnMessages.expiresInInvalid],
    ['an absurd expiresIn', { url: 'https://example.com', expiresIn: 1e12 }, OwnMessages.expiresInTooLarge],
    ['an expiresIn beyond safe integers', { url: 'https://example.com', expiresIn: 1e300 }, OwnMessages.expiresInInvalid],
  ])('%s', async (_cause, body, message) => {
    const response = await shorten(typeof body === 'function' ? body() : body);
    expect(response.status).toBe(400);
    expectBadRequest(response.json(), '/v2/shorten', message);
  });

  it.each([
    ['malformed JSON', '{"url": ', OwnMessages.bodyMalformed],
    ['a JSON array', '["https://example.com"]', OwnMessages.bodyNotObject],
    ['JSON null', 'null', OwnMessages.bodyNotObject],
    ['an empty body', '', OwnMessages.bodyMalformed],
  ])('refuses %s with a clear message', async (_cause, raw, message) => {
    const response = await shorten(raw);
    expect(response.status).toBe(400);
    expectBadRequest(response.json(), '/v2/shorten', message);
  });

  it('refuses a body that is not declared as JSON', async () => {
    const response = await shorten({ url: 'https://example.com' }, devApiKey(), { 'content-type': 'text/plain' });
    expect(response.status).toBe(400);
    expectBadRequest(response.json(), '/v2/shorten', OwnMessages.contentType);
  });

  it('accepts a charset on the JSON content type', async () => {
    expect((await shorten({ url: 'https://example.com' }, devApiKey(), { 'content-type': 'application/json; charset=utf-8' })).status).toBe(201);
  });

  it('refuses an oversized body with 413 in the same shape', async () => {
    const response = await shorten({ url: 'https://example.com', padding: 'x'.repeat(20_000) });
    expect(response.status).toBe(413);
    expectBadRequest(response.json(), '/v2/shorten', OwnMessages.bodyTooLarge, 413);
  });
});

describe('POST /v2/shorten: plans (403)', () => {
  it.each([
    [{ alias: 'free-alias' }, 'customAliases'],
    [{ password: 'secret1' }, 'passwordProtection'],
    [{ maxClicks: 3 }, 'clickLimits'],
  ])('refuses %j on the FREE plan naming the feature, the plan and where to upgrade', async (fields, feature) => {
    const { apiKey } = await createApiKey('FREE');
    const response = await shorten({ url: 'https://example.com', ...fields }, apiKey);
    expect(response.status).toBe(403);
    expectForbidden(response.json(), feature, 'FREE');
  });

  it('lets FREE set an expiry', async () => {
    const { apiKey } = await createApiKey('FREE');
    expect((await shorten({ url: 'https://example.com', expiresIn: 120 }, apiKey)).status).toBe(201);
  });
});

describe('POST /v2/shorten: limits (429)', () => {
  it('refuses a key past 1000 calls in the minute, saying when to retry', async () => {
    const { apiKey, keyId } = await createApiKey('PRO');
    const now = Date.now();
    for (const window of [fixedWindow(now, 60), fixedWindow(now + 60_000, 60)]) {
      await dynamo().send(
        new PutCommand({ TableName: stackOutput(StackOutputs.usageTable), Item: { pk: `rate#key#${keyId}#${window.id}`, count: 1000, ttl: window.resetsAt + 60 } }),
      );
    }
    const response = await shorten({ url: 'https://example.com' }, apiKey);
    expect(response.status).toBe(429);
    const body = response.json<{ retryAfter: number }>();
    expect(body).toEqual({ statusCode: 429, message: Messages.rateLimited, error: 'Too Many Requests', retryAfter: expect.any(Number) });
    expect(body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(body.retryAfter).toBeLessThanOrEqual(60);
    expect(response.headers['retry-after']).toBe(String(body.retryAfter));
    expect(response.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('refuses a key past its monthly quota with limit, resetDate and upgradeUrl', async () => {
    const { apiKey } = await createApiKey('FREE', { monthlyLimit: 2 });
    expect((await shorten({ url: 'https://example.com/1' }, apiKey)).status).toBe(201);
    expect((await shorten({ url: 'bad' }, apiKey)).status).toBe(400);
    const response = await shorten({ url: 'https://example.com/3' }, apiKey);
    expect(response.status).toBe(429);
    const now = new Date();
    const resetDate = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
    expect(response.json()).toEqual({ statusCode: 429, message: expect.stringContaining('Monthly API call limit'), limit: 2, resetDate, upgradeUrl: 'https://example.com/pricing' });
  });
});

describe('POST /v2/shorten: concurrency', () => {
  it('gives one alias to exactly one of 50 concurrent requests', async () => {
    const alias = unique('race');
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => shorten({ url: `https://example.com/${i}`, alias })));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    const losers = responses.filter((response) => response.status !== 201);
    expect(losers).toHaveLength(49);
    for (const loser of losers) expectBadRequest(loser.json(), '/v2/shorten', Messages.aliasTaken);
  });
});

describe('POST /v1/shorten: the anonymous twin', () => {
  const v1 = (body: unknown, localAddress: string, headers: Record<string, string> = {}) =>
    http('POST', '/v1/shorten', { headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), localAddress });

  it('creates without a key, and never answers 401, even to a bad key', async () => {
    const address = uniqueLoopbackAddress();
    const response = await v1({ url: 'https://example.com/v1' }, address, { authorization: 'Bearer not-a-key' });
    expect(response.status).toBe(201);
    expect(response.json()).toMatchObject({ url: 'https://example.com/v1', shortCode: expect.any(String) });
  });

  it('applies the FREE plan', async () => {
    const response = await v1({ url: 'https://example.com', alias: unique('v1') }, uniqueLoopbackAddress());
    expect(response.status).toBe(403);
    expectForbidden(response.json(), 'customAliases', 'FREE');
  });

  it('gives the same 400s', async () => {
    const response = await v1({ url: 'nope' }, uniqueLoopbackAddress());
    expect(response.status).toBe(400);
    expectBadRequest(response.json(), '/v1/shorten', Messages.invalidUrl);
  });

  it('allows 5 requests a minute per client IP, then 429, without touching other IPs', async () => {
    // All seven calls in one minute's window: across its edge the count starts again and the sixth is let through.
    await clearOfWindowEdge(RATE_LIMITS.perAnonymousIp.windowSeconds, 10_000);
    const address = uniqueLoopbackAddress();
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await v1({ url: `https://example.com/${i}` }, address)).status);
    expect(statuses.slice(0, 5).every((status) => status === 201)).toBe(true);
    const refused = await v1({ url: 'https://example.com/7' }, address);
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({ statusCode: 429, message: Messages.rateLimited });
    expect((await v1({ url: 'https://example.com/other' }, uniqueLoopbackAddress())).status).toBe(201);
  });

  it('counts the source address the gateway saw, not a forged X-Forwarded-For', async () => {
    await clearOfWindowEdge(RATE_LIMITS.perAnonymousIp.windowSeconds, 10_000);
    const address = uniqueLoopbackAddress();
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await v1({ url: 'https://example.com' }, address, { 'x-forwarded-for': `10.0.0.${i}` })).status);
    expect(statuses.at(-1)).toBe(429);
  });
});
