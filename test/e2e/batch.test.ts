import fc from 'fast-check';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Messages, OwnMessages } from '../../functions/shared/domain/messages';
import { fixedWindow } from '../../functions/shared/domain/limits/usage-windows';
import { StackOutputs } from '../../lib/stack-outputs';
import { clearOfWindowEdge, createApiKey, devApiKey, dynamo, http, jsonHeaders, stackOutput, uniqueLoopbackAddress } from '../support/local-stack';
import { RATE_LIMITS } from '../../functions/shared/domain/limits/rate-limits';
import { expectBadRequest, expectForbidden, ISO_MS } from '../support/spec-shapes';

interface Entry {
  index: number;
  success: boolean;
  error?: string;
  shortCode?: string;
  [field: string]: unknown;
}

const batch = (body: unknown, apiKey = devApiKey()) =>
  http('POST', '/v2/shorten/batch', { headers: jsonHeaders(apiKey), body: typeof body === 'string' ? body : JSON.stringify(body) });

const results = async (body: unknown, apiKey?: string): Promise<Entry[]> => {
  const response = await batch(body, apiKey);
  expect(response.status).toBe(200);
  return response.json<{ results: Entry[] }>().results;
};

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe('POST /v2/shorten/batch: the request as a whole', () => {
  it.each([
    ['an empty array', { urls: [] }, Messages.batchEmpty],
    ['51 items', { urls: Array.from({ length: 51 }, () => ({ url: 'https://example.com' })) }, Messages.batchTooLarge],
    ['no urls', {}, OwnMessages.urlsNotArray],
    ['urls that is not an array', { urls: { url: 'https://example.com' } }, OwnMessages.urlsNotArray],
    ['a body that is an array', [{ url: 'https://example.com' }], OwnMessages.bodyNotObject],
    ['malformed JSON', '{"urls": [', OwnMessages.bodyMalformed],
  ])('is refused for %s with 400', async (_cause, body, message) => {
    const response = await batch(body);
    expect(response.status).toBe(400);
    expectBadRequest(response.json(), '/v2/shorten/batch', message);
  });

  it('needs an API key', async () => {
    const response = await batch({ urls: [{ url: 'https://example.com' }] }, '');
    expect(response.status).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, message: Messages.apiKeyRequired, error: 'Unauthorized' });
  });

  it('is refused with 429 past the per-minute limit, and counts as one call', async () => {
    const { apiKey, keyId } = await createApiKey('PRO');
    const fifty = { urls: Array.from({ length: 50 }, (_, i) => ({ url: `https://example.com/${i}` })) };
    const first = await batch(fifty, apiKey);
    expect(first.headers['x-ratelimit-remaining']).toBe('999');
    const now = Date.now();
    for (const window of [fixedWindow(now, 60), fixedWindow(now + 60_000, 60)]) {
      await dynamo().send(new PutCommand({ TableName: stackOutput(StackOutputs.usageTable), Item: { pk: `rate#key#${keyId}#${window.id}`, count: 1000, ttl: window.resetsAt + 60 } }));
    }
    const refused = await batch(fifty, apiKey);
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({ statusCode: 429, message: Messages.rateLimited, retryAfter: expect.any(Number) });
  });

  it('is refused with 429 past the monthly quota', async () => {
    const { apiKey } = await createApiKey('INDIE', { monthlyLimit: 1 });
    expect((await batch({ urls: [{ url: 'https://example.com' }] }, apiKey)).status).toBe(200);
    const refused = await batch({ urls: [{ url: 'https://example.com' }] }, apiKey);
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({ limit: 1, resetDate: expect.stringMatching(/^\d{4}-\d{2}-01$/), upgradeUrl: 'https://example.com/pricing' });
  });
});

describe('POST /v2/shorten/batch: one result per item', () => {
  it('answers a 50-item batch mixing every per-item failure with successes, in order, with single creation\'s messages', async () => {
    const taken = unique('taken');
    expect((await results({ urls: [{ url: 'https://example.com', alias: taken }] }))[0]?.success).toBe(true);
    const fresh = unique('fresh');
    const failures: Array<[item: unknown, message: string]> = [
      [{ url: 'not a url' }, Messages.invalidUrl],
      [{ alias: 'no-url-here' }, Messages.invalidUrl],
      [{ url: 'https://example.com', alias: taken }, Messages.aliasTaken],
      [{ url: 'https://example.com', alias: 'admin' }, Messages.aliasReserved],
      [{ url: 'https://example.com', alias: 'ab' }, Messages.aliasLength],
      [{ url: 'https://example.com', alias: 'no spaces' }, OwnMessages.aliasCharacters],
      [{ url: 'https://example.com', password: 'abc' }, Messages.passwordLength],
      [{ url: 'https://example.com', expiresIn: 30 }, Messages.expiresInTooShort],
      [{ url: 'https://testsafebrowsing.appspot.com/s/malware.html' }, Messages.unsafeUrl],
      ['https://example.com', OwnMessages.itemNotObject],
      [null, OwnMessages.itemNotObject],
      [{ url: 'https://example.com', maxClicks: 'many' }, OwnMessages.maxClicksInvalid],
    ];
    const items: unknown[] = [];
    const expected: Array<Partial<Entry>> = [];
    for (let i = 0; i < 50; i += 1) {
      const failure = i % 4 === 1 ? failures[(i - 1) / 4] : undefined;
      if (failure) {
        items.push(failure[0]);
        expected.push({ index: i, success: false, error: failure[1] });
      } else if (i === 0) {
        items.push({ url: 'https://example.com/0', alias: fresh, expiresIn: 600, maxClicks: 2 });
        expected.push({ index: 0, success: true, shortCode: fresh, alias: fresh, maxClicks: 2 });
      } else {
        items.push({ url: `https://example.com/${i}` });
        expected.push({ index: i, success: true, url: `https://example.com/${i}` });
      }
    }
    expect(failures.every(([item]) => items.includes(item))).toBe(true);
    const answer = await results({ urls: items });
    expect(answer).toHaveLength(50);
    answer.forEach((entry, i) => expect(entry).toMatchObject(expected[i] ?? {}));
    for (const entry of answer.filter((candidate) => !candidate.success)) expect(Object.keys(entry).sort()).toEqual(['error', 'index', 'success']);
    const plain = answer[2] as Entry;
    expect(Object.keys(plain).sort()).toEqual(['index', 'shortCode', 'shortUrl', 'success', 'url']);
    expect(answer[0]).toEqual({
      index: 0,
      success: true,
      shortUrl: `${process.env.LOCAL_STACK_URL}/${fresh}`,
      shortCode: fresh,
      url: 'https://example.com/0',
      alias: fresh,
      expiresAt: expect.stringMatching(ISO_MS),
      maxClicks: 2,
    });
    expect(new Set(answer.filter((entry) => entry.success).map((entry) => entry.shortCode)).size).toBe(answer.filter((entry) => entry.success).length);
  });

  it('refuses features outside the plan item by item with the 403 message', async () => {
    const { apiKey } = await createApiKey('FREE');
    const answer = await results({ urls: [{ url: 'https://example.com', alias: unique('free') }, { url: 'https://example.com', expiresIn: 60 }, { url: 'https://example.com', password: 'abcd' }] }, apiKey);
    expect(answer).toEqual([
      { index: 0, success: false, error: 'Custom aliases require the INDIE plan or higher.' },
      expect.objectContaining({ index: 1, success: true }),
      { index: 2, success: false, error: 'Password protection requires the INDIE plan or higher.' },
    ]);
  });

  it('gives an alias asked twice in one batch to the first item only', async () => {
    const alias = unique('twice');
    const answer = await results({ urls: [{ url: 'https://example.com/1', alias }, { url: 'https://example.com/2', alias }] });
    expect(answer[0]).toMatchObject({ index: 0, success: true, shortCode: alias, url: 'https://example.com/1' });
    expect(answer[1]).toEqual({ index: 1, success: false, error: Messages.aliasTaken });
  });

  it('gives an alias raced for by 10 concurrent batches to exactly one item overall', async () => {
    const alias = unique('raced');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => results({ urls: [{ url: `https://example.com/${i}`, alias }, { url: 'https://example.com/x' }] })));
    expect(answers.filter((answer) => answer[0]?.success)).toHaveLength(1);
    expect(answers.every((answer) => answer[1]?.success)).toBe(true);
  });

  it('never fails as a whole for random items, and answers each item once, in order', async () => {
    const { apiKey } = await createApiKey('ENTERPRISE');
    const item = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.record(
        { url: fc.oneof(fc.webUrl(), fc.string()), alias: fc.stringMatching(/^[A-Za-z0-9-]{1,8}$/), password: fc.string({ maxLength: 8 }), expiresIn: fc.integer({ min: -10, max: 100 }), maxClicks: fc.integer({ min: -1, max: 3 }) },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 50 }), async (urls) => {
        const response = await batch({ urls }, apiKey);
        expect(response.status).toBe(200);
        const entries = response.json<{ results: Entry[] }>().results;
        expect(entries.map((entry) => entry.index)).toEqual(urls.map((_, i) => i));
        for (const entry of entries) expect(entry.success ? typeof entry.shortCode : typeof entry.error).toBe('string');
      }),
      { numRuns: 40 },
    );
  });
});

describe('POST /v1/shorten/batch', () => {
  it('works without a key under FREE rules and shares the v1 limit of 5 a minute per IP', async () => {
    // All six calls in one minute's window: across its edge the count starts again and the last is let through.
    await clearOfWindowEdge(RATE_LIMITS.perAnonymousIp.windowSeconds, 10_000);
    const address = uniqueLoopbackAddress();
    const v1 = (path: string, body: object) => http('POST', path, { headers: { 'content-type': 'application/json' }, body, localAddress: address });
    const answer = await v1('/v1/shorten/batch', { urls: [{ url: 'https://example.com' }, { url: 'https://example.com', alias: unique('v1') }] });
    expect(answer.status).toBe(200);
    expect(answer.json<{ results: Entry[] }>().results).toEqual([
      expect.objectContaining({ index: 0, success: true }),
      { index: 1, success: false, error: 'Custom aliases require the INDIE plan or higher.' },
    ]);
    for (let i = 0; i < 4; i += 1) expect((await v1('/v1/shorten', { url: 'https://example.com' })).status).toBe(201);
    const refused = await v1('/v1/shorten/batch', { urls: [{ url: 'https://example.com' }] });
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({ message: Messages.rateLimited });
  });

  it('gives the whole-request 400s', async () => {
    const response = await http('POST', '/v1/shorten/batch', { headers: { 'content-type': 'application/json' }, body: { urls: [] }, localAddress: uniqueLoopbackAddress() });
    expectBadRequest(response.json(), '/v1/shorten/batch', Messages.batchEmpty);
  });
});

describe('plans in batches', () => {
  it('are checked with the caller\'s plan, as single creation does', async () => {
    const { apiKey } = await createApiKey('FREE');
    const single = await http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url: 'https://example.com', maxClicks: 1 } });
    expectForbidden(single.json(), 'clickLimits', 'FREE');
    const [entry] = await results({ urls: [{ url: 'https://example.com', maxClicks: 1 }] }, apiKey);
    expect(entry?.error).toBe(single.json().message);
  });
});
