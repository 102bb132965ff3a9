import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { createHash, randomUUID } from 'node:crypto';
import { OwnMessages } from '../../functions/shared/domain/messages';
import { StackOutputs } from '../../lib/stack-outputs';
import { accountDirectory, createApiKey, dynamo, http, jsonHeaders, rawHttp, stackOutput, uniqueLoopbackAddress, type HttpResult } from '../support/local-stack';
import { ISO_MS } from '../support/spec-shapes';
import { anyText } from '../support/unicode-arbitraries';

/** Issue 12: Idempotency-Key on the creation routes. */

const REUSED = { statusCode: 422, message: 'Idempotency-Key has already been used with a different request', error: 'Unprocessable Entity' };
const IN_PROGRESS = { statusCode: 409, message: 'A request with this Idempotency-Key is still in progress', error: 'Conflict' };

const keyed = (apiKey: string | undefined, idempotencyKey: string) => ({ ...jsonHeaders(apiKey), 'idempotency-key': idempotencyKey });

const create = (apiKey: string, idempotencyKey: string, body: object) => http('POST', '/v2/shorten', { headers: keyed(apiKey, idempotencyKey), body });

async function linkCount(apiKey: string): Promise<number> {
  const page = await http('GET', '/v2/links?limit=100', { headers: jsonHeaders(apiKey) });
  return page.json<{ links: unknown[] }>().links.length;
}

async function monthlyCallsUsed(apiKey: string): Promise<number> {
  // The usage call counts itself: what it says minus one is what came before it.
  const usage = await http('GET', '/v2/usage', { headers: jsonHeaders(apiKey) });
  return usage.json<{ used: number }>().used - 1;
}

async function idempotencyRecords(): Promise<number> {
  const scan = await dynamo().send(new ScanCommand({ TableName: stackOutput(StackOutputs.idempotencyTable), Select: 'COUNT' }));
  return scan.Count ?? 0;
}

function expectBadKey(response: HttpResult, path: string): void {
  expect(response.status).toBe(400);
  expect(response.json()).toEqual({ statusCode: 400, timestamp: expect.stringMatching(ISO_MS), path, method: 'POST', message: OwnMessages.idempotencyKeyInvalid });
}

describe('Idempotency-Key on POST /v2/shorten', () => {
  it('answers a repeat with the first answer, marked as a replay, creating nothing and counting nothing', async () => {
    const { apiKey } = await createApiKey('PRO', { monthlyLimit: 1_000 });
    const key = randomUUID();
    const body = { url: 'https://example.com/idempotent', alias: `idem-${randomUUID().slice(0, 8)}`, maxClicks: 3 };

    const first = await create(apiKey, key, body);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const usedAfterFirst = await monthlyCallsUsed(apiKey);

    const repeat = await create(apiKey, key, body);
    expect(repeat.status).toBe(201);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json()).toEqual(first.json());
    expect(repeat.headers['x-ratelimit-limit']).toBe('1000');

    // The usage call between them counted; the replay did not.
    expect(await monthlyCallsUsed(apiKey)).toBe(usedAfterFirst + 1);
    expect(await linkCount(apiKey)).toBe(1);
  });

  it('takes the same body with its fields in another order as the same request', async () => {
    const { apiKey } = await createApiKey('PRO');
    const key = randomUUID();
    const first = await create(apiKey, key, { url: 'https://example.com/order', maxClicks: 2 });
    const repeat = await http('POST', '/v2/shorten', { headers: keyed(apiKey, key), body: '{ "maxClicks": 2,  "url": "https://example.com/order" }' });
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json()).toEqual(first.json());
  });

  it('refuses the same key with a different body with 422', async () => {
    const { apiKey } = await createApiKey('PRO');
    const key = randomUUID();
    expect((await create(apiKey, key, { url: 'https://example.com/one' })).status).toBe(201);
    const other = await create(apiKey, key, { url: 'https://example.com/two' });
    expect(other.status).toBe(422);
    expect(other.json()).toEqual(REUSED);
    expect(await linkCount(apiKey)).toBe(1);
  });

  it('lets 20 concurrent requests with one key create exactly one link; the others get 409 or the replay', async () => {
    const { apiKey } = await createApiKey('PRO');
    const key = randomUUID();
    const body = { url: 'https://example.com/concurrent' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => create(apiKey, key, body)));

    const created = answers.filter((answer) => answer.status === 201 && answer.headers['idempotent-replayed'] === undefined);
    const replays = answers.filter((answer) => answer.status === 201 && answer.headers['idempotent-replayed'] === 'true');
    const inProgress = answers.filter((answer) => answer.status === 409);
    expect(created).toHaveLength(1);
    expect(replays.length + inProgress.length).toBe(19);
    for (const replay of replays) expect(replay.json()).toEqual(created[0]?.json());
    for (const conflict of inProgress) expect(conflict.json()).toEqual(IN_PROGRESS);
    expect(await linkCount(apiKey)).toBe(1);
  });

  it('stores no failure: after a 400 or a 403 a corrected retry with the same key creates the link', async () => {
    const { apiKey } = await createApiKey('FREE');
    const key = randomUUID();
    const invalid = await create(apiKey, key, { url: 'not a url' });
    expect(invalid.status).toBe(400);
    const notOnPlan = await create(apiKey, key, { url: 'https://example.com/fixed', alias: `plan-${randomUUID().slice(0, 8)}` });
    expect(notOnPlan.status).toBe(403);
    const fixed = await create(apiKey, key, { url: 'https://example.com/fixed' });
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(await linkCount(apiKey)).toBe(1);
  });

  it('does not store a 429 either: the quota refuses the keyed call, and counts it only when it runs', async () => {
    const { apiKey } = await createApiKey('PRO', { monthlyLimit: 2 });
    const key = randomUUID();
    expect((await create(apiKey, key, { url: 'https://example.com/quota' })).status).toBe(201);
    // The replay is free; the second call of the month is this plain one, the third is refused.
    expect((await create(apiKey, key, { url: 'https://example.com/quota' })).headers['idempotent-replayed']).toBe('true');
    expect((await http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url: 'https://example.com/plain' } })).status).toBe(201);
    const refused = await create(apiKey, randomUUID(), { url: 'https://example.com/over' });
    expect(refused.status).toBe(429);
    expect(refused.json<{ limit: number }>().limit).toBe(2);
  });

  it('scopes keys to the account: its other keys share them, another account does not', async () => {
    const { apiKey, accountId } = await createApiKey('PRO');
    const { apiKey: sameAccount } = await createApiKey('PRO', { accountId });
    const { apiKey: otherAccount } = await createApiKey('PRO');
    const key = randomUUID();
    const body = { url: 'https://example.com/scoped' };
    const first = await create(apiKey, key, body);
    const sibling = await create(sameAccount, key, body);
    expect(sibling.headers['idempotent-replayed']).toBe('true');
    expect(sibling.json()).toEqual(first.json());
    const stranger = await create(otherAccount, key, body);
    expect(stranger.status).toBe(201);
    expect(stranger.headers['idempotent-replayed']).toBeUndefined();
    expect(stranger.json<{ shortCode: string }>().shortCode).not.toBe(first.json<{ shortCode: string }>().shortCode);
  });

  it.each([
    ['empty', ''],
    ['256 characters long', 'k'.repeat(256)],
    ['holding a control character', 'abc\tdef'],
  ])('refuses a key %s with 400 naming the header', async (_case, value) => {
    const { apiKey } = await createApiKey('PRO');
    expectBadKey(await http('POST', '/v2/shorten', { headers: keyed(apiKey, value), body: { url: 'https://example.com/bad-key' } }), '/v2/shorten');
    expect(await linkCount(apiKey)).toBe(0);
  });

  it('refuses a key of non-ASCII characters with 400', async () => {
    const { apiKey } = await createApiKey('PRO');
    const body = JSON.stringify({ url: 'https://example.com/bad-key' });
    const answer = await rawHttp('POST', '/v2/shorten', [['authorization', `Bearer ${apiKey}`], ['content-type', 'application/json'], ['idempotency-key', Buffer.from('clé-☃', 'utf8')]], body);
    expectBadKey(answer, '/v2/shorten');
  });

  it('takes any text as a key: printable ASCII (as HTTP trims it) creates, anything else is a 400 naming the header', async () => {
    const { apiKey } = await createApiKey('PRO');
    const body = JSON.stringify({ url: 'https://example.com/any-key' });
    // Line breaks would end the header and start another: that is header injection, not a key.
    const keys = fc.oneof(anyText(60), fc.string({ minLength: 1, maxLength: 300, unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)) }));
    await fc.assert(
      fc.asyncProperty(keys.filter((text) => !/[\r\n]/.test(text)), async (key) => {
        const answer = await rawHttp('POST', '/v2/shorten', [['authorization', `Bearer ${apiKey}`], ['content-type', 'application/json'], ['idempotency-key', Buffer.from(key, 'utf8')]], body);
        const asReceived = key.replace(/^[ \t]+|[ \t]+$/g, '');
        const refusal = answer.status === 400 ? answer.json<{ message: string; path?: string }>() : undefined;
        // Ours names the header; a request Node cannot parse gets the gateway's own 400, which has no path.
        const outcome = answer.status === 201 ? 'created' : refusal && (refusal.path === undefined || refusal.message === OwnMessages.idempotencyKeyInvalid) ? 'refused' : `unexpected ${answer.status}`;
        expect(outcome).toBe(/^[\x20-\x7e]{1,255}$/.test(asReceived) ? 'created' : 'refused');
      }),
      { numRuns: 300 },
    );
  });

  it('accepts a key of exactly 255 printable characters', async () => {
    const { apiKey } = await createApiKey('PRO');
    const key = ' !~'.repeat(85);
    const first = await create(apiKey, key, { url: 'https://example.com/long-key' });
    expect(first.status).toBe(201);
    expect((await create(apiKey, key, { url: 'https://example.com/long-key' })).headers['idempotent-replayed']).toBe('true');
  });

  it('writes no idempotency record for a request without the header', async () => {
    const { apiKey } = await createApiKey('PRO');
    const before = await idempotencyRecords();
    for (let index = 0; index < 3; index += 1) {
      expect((await http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url: `https://example.com/plain/${index}` } })).status).toBe(201);
    }
    expect(await idempotencyRecords()).toBe(before);
    expect(await linkCount(apiKey)).toBe(3);
  });
});

describe('Idempotency-Key on the batch and anonymous routes', () => {
  it('replays a batch with the same short codes and creates nothing more', async () => {
    const { apiKey } = await createApiKey('PRO');
    const key = randomUUID();
    const body = { urls: [{ url: 'https://example.com/b1' }, { url: 'not a url' }, { url: 'https://example.com/b3', maxClicks: 5 }] };
    const first = await http('POST', '/v2/shorten/batch', { headers: keyed(apiKey, key), body });
    expect(first.status).toBe(200);
    const repeat = await http('POST', '/v2/shorten/batch', { headers: keyed(apiKey, key), body });
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json()).toEqual(first.json());
    expect(await linkCount(apiKey)).toBe(2);

    const changed = await http('POST', '/v2/shorten/batch', { headers: keyed(apiKey, key), body: { urls: [{ url: 'https://example.com/b1' }] } });
    expect(changed.status).toBe(422);
    expect(changed.json()).toEqual(REUSED);
  });

  it('does not store a refused batch (400): the corrected batch runs', async () => {
    const { apiKey } = await createApiKey('PRO');
    const key = randomUUID();
    expect((await http('POST', '/v2/shorten/batch', { headers: keyed(apiKey, key), body: { urls: [] } })).status).toBe(400);
    const corrected = await http('POST', '/v2/shorten/batch', { headers: keyed(apiKey, key), body: { urls: [{ url: 'https://example.com/corrected' }] } });
    expect(corrected.status).toBe(200);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
  });

  it('scopes v1 keys to the source address', async () => {
    const key = randomUUID();
    const body = { url: 'https://example.com/anonymous' };
    const here = uniqueLoopbackAddress();
    const first = await http('POST', '/v1/shorten', { headers: keyed(undefined, key), body, localAddress: here });
    expect(first.status).toBe(201);
    const again = await http('POST', '/v1/shorten', { headers: keyed(undefined, key), body, localAddress: here });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const elsewhere = await http('POST', '/v1/shorten', { headers: keyed(undefined, key), body, localAddress: uniqueLoopbackAddress() });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('Idempotency-Key: issue 16', () => {
  it('names one request: the same key on the batch route after the single one is a 422, not a second creation', async () => {
    const { apiKey } = await createApiKey('PRO');
    const key = randomUUID();
    expect((await create(apiKey, key, { url: 'https://example.com/one-request' })).status).toBe(201);
    const batch = await http('POST', '/v2/shorten/batch', { headers: keyed(apiKey, key), body: { urls: [{ url: 'https://example.com/one-request' }] } });
    expect(batch.status).toBe(422);
    expect(batch.json()).toEqual(REUSED);
    expect(await linkCount(apiKey)).toBe(1);
  });

  it('keeps no batch whose every item failed: after a plan upgrade the same request and key create', async () => {
    const { apiKey, accountId } = await createApiKey('FREE');
    const key = randomUUID();
    const body = { urls: [{ url: 'https://example.com/a', alias: `up-${randomUUID().slice(0, 8)}` }, { url: 'https://example.com/b', password: 'open sesame' }] };
    const refused = await http('POST', '/v2/shorten/batch', { headers: keyed(apiKey, key), body });
    expect(refused.json<{ results: Array<{ success: boolean }> }>().results.map((result) => result.success)).toEqual([false, false]);

    await accountDirectory().setPlan(accountId, 'PRO');
    const retried = await http('POST', '/v2/shorten/batch', { headers: keyed(apiKey, key), body });
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.json<{ results: Array<{ success: boolean }> }>().results.map((result) => result.success)).toEqual([true, true]);
    // Now it is kept: a third call replays.
    expect((await http('POST', '/v2/shorten/batch', { headers: keyed(apiKey, key), body })).headers['idempotent-replayed']).toBe('true');
  });

  it('stores no password in any form a fast hash could give back: the record holds only a keyed hash of it', async () => {
    const { apiKey } = await createApiKey('PRO');
    const password = `pw-${randomUUID()}`;
    const key = randomUUID();
    expect((await create(apiKey, key, { url: 'https://example.com/secret', password })).status).toBe(201);
    const scan = await dynamo().send(new ScanCommand({ TableName: stackOutput(StackOutputs.idempotencyTable) }));
    const records = JSON.stringify(scan.Items ?? []);
    // What the record would hold if the password went in as it came: Powertools' payload hash (base64 SHA-256 of
    // the key-sorted JSON), of the body alone (as before) or of the route and body.
    const body = { password, url: 'https://example.com/secret' };
    const payloadHash = (payload: unknown) => createHash('sha256').update(JSON.stringify(payload)).digest('base64');
    expect(records).not.toContain(password);
    expect(records).not.toContain(payloadHash(body));
    expect(records).not.toContain(payloadHash({ body, route: '/v2/shorten' }));
    // A different password under the same key is a different request.
    expect((await create(apiKey, key, { url: 'https://example.com/secret', password: `${password}!` })).status).toBe(422);
  });
});
