import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoLinkStore } from '../../functions/shared/adapters/dynamo-link-store';
import { auditStamp } from '../../functions/shared/domain/audit/audit-stamp';
import { SAFE_DEFAULT_FLAGS } from '../../functions/shared/domain/limits/flags';
import { runBulk, type BulkDeps } from '../../functions/shared/domain/links/bulk-actions';
import { BULK_TIME_BUDGET_MS } from '../../functions/shared/domain/links/bulk-request';
import type { LinkRecord } from '../../functions/shared/domain/links/link';
import type { ManagementContext } from '../../functions/shared/domain/links/link-viewing';
import { BulkMessages, OwnMessages } from '../../functions/shared/domain/messages';
import { StackOutputs } from '../../lib/stack-outputs';
import { keyCaller } from '../support/callers';
import { ListSafetyChecker, MemoryDomainStore, smartFields } from '../support/in-memory-ports';
import { dynamo, freshTables } from '../support/local-stack';

/** POST /v2/links/bulk's domain against DynamoDB Local: each link's own conditional write, and what it keeps. */
const nowMs = Date.now();
const run = nowMs.toString(36);
let tableName: string;
let store: DynamoLinkStore;

beforeAll(async () => {
  tableName = (await freshTables())[StackOutputs.linksTable] as string;
  store = new DynamoLinkStore(dynamo(), tableName);
});

const contextOf = (account: string): ManagementContext => ({
  caller: keyCaller({ keyId: `key_${account}`, accountId: account, owner: `acct:${account}`, plan: 'PRO' }),
  author: { actor: { kind: 'key', keyId: `key_${account}` }, requestId: `req-${account}` },
  flags: SAFE_DEFAULT_FLAGS,
  nowMs,
  shortBaseUrl: 'https://sho.rt',
});

/** `count` links of the account (each account of a test starts with its own letter), created a millisecond apart (the owner index orders them newest first). */
async function seed(account: string, count: number, fields: Partial<LinkRecord> = {}): Promise<LinkRecord[]> {
  const links = Array.from({ length: count }, (_, n): LinkRecord => ({
    code: `b${account.charAt(0)}${n.toString().padStart(3, '0')}${run}`,
    url: `https://example.com/${n}`,
    isAlias: false,
    createdAt: new Date(nowMs - 1_000_000 + n).toISOString(),
    clicks: 0,
    owner: `acct:${account}`,
    ...fields,
  }));
  for (const link of links) await store.createIfAbsent(link);
  return links;
}

const item = async (key: string) => (await dynamo().send(new GetCommand({ TableName: tableName, Key: { code: key } }))).Item;

/** The store, with another request's edit of `key` landing between this request's read and its write of that link. */
function withEditMeanwhile(key: string, owner: string): BulkDeps['links'] {
  const interloper = auditStamp('link.updated', { actor: { kind: 'key', keyId: 'key_other' }, requestId: 'req-other' }, nowMs + 1);
  const editFirst = async (written: string) => {
    if (written === key) await store.update(key, owner, { url: 'https://theirs.example.com/' }, nowMs + 1, undefined, interloper);
  };
  return Object.assign(Object.create(store) as DynamoLinkStore, {
    update: async (...args: Parameters<DynamoLinkStore['update']>) => (await editFirst(args[0]), store.update(...args)),
    markDeleted: async (...args: Parameters<DynamoLinkStore['markDeleted']>) => (await editFirst(args[0]), store.markDeleted(...args)),
  });
}

const deps = (links: BulkDeps['links']): BulkDeps => ({ links, safety: new ListSafetyChecker([]), smartFields, domains: new MemoryDomainStore() });

describe('bulk actions on DynamoDB Local', () => {
  it('change 100 links one write each, keep a change made in the middle and say so for that link alone', async () => {
    const account = `a${run}`;
    const links = await seed(account, 100);
    const middle = links[50] as LinkRecord;
    const codes = links.map((link) => link.code);
    const { results } = await runBulk({ codes, action: 'update', changes: { url: 'https://ours.example.com/', tags: ['Q4'] } }, contextOf(account), deps(withEditMeanwhile(middle.code, `acct:${account}`)), Date.now);
    expect(results).toEqual(codes.map((code) => (code === middle.code ? { code, success: false, error: BulkMessages.changedMeanwhile } : { code, success: true })));
    const kept = await item(middle.code);
    expect(kept).toMatchObject({ url: 'https://theirs.example.com/', auditStamp: { requestId: 'req-other' } });
    expect(kept?.tags).toBeUndefined();
    for (const link of links.filter((other) => other !== middle)) {
      // The stamp the audit log and the webhooks read off the stream: one per link, the request's.
      expect(await item(link.code)).toMatchObject({ url: 'https://ours.example.com/', tags: ['q4'], auditStamp: { action: 'link.updated', requestId: `req-${account}` } });
    }
  });

  it('delete no link that changed after the read, one edited before included', async () => {
    const account = `d${run}`;
    const links = await seed(account, 3);
    // An earlier edit: the version read is an updatedAt, not its absence.
    await store.update(links[1]?.code as string, `acct:${account}`, { tags: ['old'] }, nowMs - 10);
    const codes = links.map((link) => link.code);
    const { results } = await runBulk({ codes, action: 'delete' }, contextOf(account), deps(withEditMeanwhile(codes[1] as string, `acct:${account}`)), Date.now);
    expect(results.map((result) => result.error ?? 'deleted')).toEqual(['deleted', BulkMessages.changedMeanwhile, 'deleted']);
    expect(await item(codes[1] as string)).toMatchObject({ url: 'https://theirs.example.com/', tags: ['old'] });
    expect((await item(codes[1] as string))?.deleted).toBeUndefined();
  });

  it('answer another workspace\'s codes as not found, changing nothing of theirs', async () => {
    const mine = `m${run}`;
    const theirs = await seed(`t${run}`, 3, { tags: ['keep'] });
    const [own] = await seed(mine, 1);
    const codes = [theirs[0]?.code, own?.code, theirs[1]?.code] as string[];
    const { results } = await runBulk({ codes, action: 'delete' }, contextOf(mine), deps(store), Date.now);
    expect(results).toEqual([
      { code: codes[0], success: false, error: OwnMessages.linkNotFound },
      { code: codes[1], success: true },
      { code: codes[2], success: false, error: OwnMessages.linkNotFound },
    ]);
    for (const link of theirs) expect(await item(link.code)).toMatchObject({ url: link.url, tags: ['keep'] });
    expect(await item(own?.code as string)).toMatchObject({ deleted: true, auditStamp: { action: 'link.deleted' } });
  });

  it('go through a filter of more than a page with the cursor, each link once, and never into another workspace', async () => {
    const account = `f${run}`;
    const tagged = await seed(account, 230, { tags: ['sale'] });
    await seed(`x${run}`, 20, { tags: ['sale'] });
    const others = await seed(`o${run}`, 5, { tags: ['sale'] });
    let looks = 0;
    // The budget runs out after the first page of the first call.
    const hurried = () => nowMs + (looks++ === 0 ? 0 : BULK_TIME_BUDGET_MS);
    const body = { filter: { tag: 'sale' }, action: 'removeTags', tags: ['sale'] };
    const first = await runBulk(body, contextOf(account), deps(store), hurried);
    expect(first.results).toHaveLength(100);
    expect(first.cursor).toEqual(expect.any(String));
    // A clock that stands still: on a slow machine the real one could run out this call's budget too.
    const rest = await runBulk({ ...body, cursor: first.cursor }, contextOf(account), deps(store), () => nowMs);
    expect(rest.cursor).toBeUndefined();
    const changed = [...first.results, ...rest.results];
    expect(changed.every((result) => result.success)).toBe(true);
    expect(changed.map((result) => result.code)).toEqual(tagged.map((link) => link.code).reverse());
    for (const link of tagged) expect((await item(link.code))?.tags).toBeUndefined();
    for (const link of others) expect((await item(link.code))?.tags).toEqual(['sale']);
  }, 120_000); // 255 links seeded and 235 read back one by one: tens of seconds on a busy machine
});
