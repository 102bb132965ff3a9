import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { TRANSPORT_LIMITS } from '../../functions/shared/adapters/outages';
import { auditStamp } from '../../functions/shared/domain/audit/audit-stamp';
import { LINKS_BY_OWNER_INDEX } from '../../functions/shared/config';
import { localAwsEnvironment } from '../../bin/local/stack';
import { DynamoLinkStore } from '../../functions/shared/adapters/dynamo-link-store';
import type { LinkRecord } from '../../functions/shared/domain/links/link';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, freshTables } from '../support/local-stack';

const nowMs = Date.now();
let store: DynamoLinkStore;
let tableName: string;

beforeAll(async () => {
  tableName = (await freshTables())[StackOutputs.linksTable] as string;
  store = new DynamoLinkStore(dynamo(), tableName);
});

let counter = 0;
function link(fields: Partial<LinkRecord> = {}): LinkRecord {
  counter += 1;
  return { code: `code-${counter}-${nowMs}`, url: 'https://example.com', isAlias: false, createdAt: new Date(nowMs).toISOString(), clicks: 0, owner: 'key:test', ...fields };
}

/**
 * A client as the functions build it (TRANSPORT_LIMITS: a second attempt after a late answer) whose first PutItem
 * reaches DynamoDB and then loses its answer, as a request timing out on a loaded machine does.
 */
function clientLosingTheFirstPutAnswer(): DynamoDBDocumentClient {
  const environment = localAwsEnvironment(Number(process.env.LOCAL_DYNAMODB_PORT), Number(process.env.LOCAL_SSM_PORT));
  const client = new DynamoDBClient({ ...TRANSPORT_LIMITS, region: environment.AWS_REGION, endpoint: environment.AWS_ENDPOINT_URL_DYNAMODB, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  let lost = false;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const answer = await next(args);
      if (context.commandName !== 'PutItemCommand' || lost) return answer;
      lost = true;
      throw Object.assign(new Error('the answer came too late'), { name: 'TimeoutError' });
    },
    // Inside the retry step: the SDK sees the lost answer and sends the put again, as it does on a real timeout.
    { step: 'deserialize', name: 'loseTheFirstPutAnswer' },
  );
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

describe('DynamoLinkStore against DynamoDB Local', () => {
  it('counts a put whose answer was lost and which the SDK sent again as made, not as a taken code (issue 31)', async () => {
    // Before the fix the second attempt found the code "taken" by its own first attempt: creation then wrote the same
    // link again under another code, and an import of 909 links left 913-928.
    const retrying = new DynamoLinkStore(clientLosingTheFirstPutAnswer(), tableName);
    const owner = `acct:retry-${nowMs}`;
    const made = link({ owner });
    expect(await retrying.createIfAbsent(made, auditStamp('link.created', { actor: { kind: 'operator' } }, nowMs))).toBe(true);
    const { Items = [] } = await dynamo().send(
      new QueryCommand({ TableName: tableName, IndexName: LINKS_BY_OWNER_INDEX, KeyConditionExpression: '#owner = :owner', ExpressionAttributeNames: { '#owner': 'owner' }, ExpressionAttributeValues: { ':owner': owner } }),
    );
    expect(Items.map((item) => item.code)).toEqual([made.code]);
    // Another link under the same code is still refused, however alike.
    expect(await store.createIfAbsent({ ...made, createdAt: new Date(nowMs + 1).toISOString() })).toBe(false);
  });

  it('writes a link once and never overwrites it', async () => {
    const first = link();
    expect(await store.createIfAbsent(first)).toBe(true);
    expect(await store.createIfAbsent({ ...first, url: 'https://evil.example.com' })).toBe(false);
    expect((await store.find(first.code))?.url).toBe('https://example.com');
  });

  it('lets exactly one of 50 concurrent writers take an alias', async () => {
    const code = `race-${nowMs}`;
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => store.createIfAbsent(link({ code, url: `https://example.com/${i}` }))));
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect((await store.find(code))?.url).toBe(`https://example.com/${winner}`);
  });

  it('sets the TTL attribute in epoch seconds, 90 days after the expiry (the stats window, the expiredUrl\'s life)', async () => {
    const expiring = link({ expiresAt: new Date(nowMs + 60_500).toISOString() });
    await store.createIfAbsent(expiring);
    const { Item } = await dynamo().send(new GetCommand({ TableName: tableName, Key: { code: expiring.code } }));
    expect(Item?.ttl).toBe(Math.ceil((nowMs + 60_500) / 1000) + 90 * 86_400);
    expect(await store.find(expiring.code)).toEqual(expiring);
  });

  it('counts exactly maxClicks clicks out of 200 concurrent ones', async () => {
    const limited = link({ maxClicks: 10 });
    await store.createIfAbsent(limited);
    const outcomes = await Promise.all(Array.from({ length: 200 }, () => store.consumeClick(limited.code, Date.now())));
    expect(outcomes.filter((outcome) => outcome.kind === 'counted')).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome.kind === 'usedUp')).toHaveLength(190);
    expect((await store.find(limited.code))?.clicks).toBe(10);
  });

  it('drops the last change\'s audit stamp with a click, which the audit recorder\'s stream filter then passes over (issue 28)', async () => {
    const limited = link({ maxClicks: 5 });
    await store.createIfAbsent(limited, auditStamp('link.created', { actor: { kind: 'operator' } }, nowMs));
    const stored = async () => (await dynamo().send(new GetCommand({ TableName: tableName, Key: { code: limited.code } }))).Item;
    expect((await stored())?.auditStamp).toMatchObject({ action: 'link.created' });
    expect(await store.consumeClick(limited.code, Date.now())).toMatchObject({ kind: 'counted', link: { clicks: 1 } });
    const clicked = await stored();
    expect(clicked).toMatchObject({ clicks: 1, maxClicks: 5, url: limited.url });
    expect(clicked?.auditStamp).toBeUndefined();
  });

  it('retires a used-up link to a tombstone without destination, password or TTL, still answering usedUp', async () => {
    const limited = link({ maxClicks: 1, passwordHash: 'scrypt$x', expiresAt: new Date(nowMs + 3_600_000).toISOString() });
    await store.createIfAbsent(limited);
    expect((await store.consumeClick(limited.code, Date.now())).kind).toBe('counted');
    await store.retire(limited.code);
    const { Item } = await dynamo().send(new GetCommand({ TableName: tableName, Key: { code: limited.code } }));
    expect(Item).toMatchObject({ code: limited.code, retired: true, clicks: 1 });
    expect(Item?.url).toBeUndefined();
    expect(Item?.passwordHash).toBeUndefined();
    expect(Item?.ttl).toBeUndefined();
    expect(await store.consumeClick(limited.code, Date.now())).toEqual({ kind: 'usedUp' });
    expect(await store.createIfAbsent({ ...limited, url: 'https://example.com/again' })).toBe(false);
  });

  it('counts a passwordless click only on a link without a password (counted before anything was read)', async () => {
    const limited = link({ maxClicks: 5 });
    const guarded = link({ maxClicks: 5, passwordHash: 'scrypt$x' });
    await store.createIfAbsent(limited);
    await store.createIfAbsent(guarded);
    expect(await store.consumeClick(limited.code, Date.now(), { passwordless: true })).toMatchObject({ kind: 'counted', link: { clicks: 1 } });
    expect(await store.consumeClick(guarded.code, Date.now(), { passwordless: true })).toEqual({ kind: 'missing' });
    expect((await store.find(guarded.code))?.clicks).toBe(0);
  });

  it('names the expiredUrl of a link whose click it refused as used up, so no read has to follow', async () => {
    const limited = link({ maxClicks: 1, expiredUrl: 'https://example.com/over' });
    await store.createIfAbsent(limited);
    expect((await store.consumeClick(limited.code, Date.now(), { passwordless: true })).kind).toBe('counted');
    await store.retire(limited.code);
    expect(await store.consumeClick(limited.code, Date.now(), { passwordless: true })).toEqual({ kind: 'usedUp', expiredUrl: 'https://example.com/over' });
  });

  it('refuses a click on an expired link even while the item still exists, and on a missing one', async () => {
    const expired = link({ maxClicks: 5, expiresAt: new Date(nowMs + 1_000).toISOString() });
    await store.createIfAbsent(expired);
    expect(await store.consumeClick(expired.code, nowMs + 1_000)).toEqual({ kind: 'expired' });
    expect((await store.consumeClick(expired.code, nowMs + 999)).kind).toBe('counted');
    expect(await store.consumeClick('no-such-code', nowMs)).toEqual({ kind: 'missing' });
  });
});

describe('cache leases against DynamoDB Local (issue 16)', () => {
  it('leases a plain link, never a guarded or sealed one, and refuses a new limit or password while leased', async () => {
    const plain = link();
    await store.createIfAbsent(plain);
    const leased = await store.renewCacheLease(plain.code, nowMs + 60_000, nowMs);
    expect(leased).toMatchObject({ leased: true, link: { code: plain.code, cacheLeaseUntil: nowMs + 60_000 } });

    const refused = await store.update(plain.code, plain.owner, { maxClicks: 5 }, nowMs + 1_000);
    expect(refused).toMatchObject({ done: false, current: { cacheLeaseUntil: nowMs + 60_000 } });
    expect(await store.update(plain.code, plain.owner, { url: 'https://example.org/' }, nowMs + 1_000)).toMatchObject({ done: true });

    await store.sealCache(plain.code, nowMs + 300_000);
    expect(await store.renewCacheLease(plain.code, nowMs + 120_000, nowMs + 2_000)).toMatchObject({ leased: false, link: { cacheLeaseUntil: nowMs + 60_000 } });
    expect(await store.update(plain.code, plain.owner, { passwordHash: 'scrypt$x' }, nowMs + 60_000)).toMatchObject({ done: true });

    const guarded = link({ maxClicks: 3 });
    await store.createIfAbsent(guarded);
    expect(await store.renewCacheLease(guarded.code, nowMs + 60_000, nowMs)).toMatchObject({ leased: false, link: { maxClicks: 3 } });
    expect(await store.renewCacheLease('no-such-code', nowMs + 60_000, nowMs)).toEqual({ leased: false });
  });
});
