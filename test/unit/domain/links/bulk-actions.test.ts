import { InvalidRequest } from '../../../../functions/shared/domain/errors';
import { SAFE_DEFAULT_FLAGS } from '../../../../functions/shared/domain/limits/flags';
import { keyOf, type LinkRecord } from '../../../../functions/shared/domain/links/link';
import { runBulk, withoutTags, withTags, type BulkDeps } from '../../../../functions/shared/domain/links/bulk-actions';
import { BULK_TIME_BUDGET_MS, MAX_BULK_CODES, MAX_BULK_FILTER_LINKS } from '../../../../functions/shared/domain/links/bulk-request';
import type { ManagementContext } from '../../../../functions/shared/domain/links/link-viewing';
import { BulkMessages, Messages, OwnMessages } from '../../../../functions/shared/domain/messages';
import type { GuardedWrite, LinkChanges, LinkVersion } from '../../../../functions/shared/domain/ports';
import { ListSafetyChecker, MemoryDomainStore, smartFields } from '../../../support/in-memory-ports';
import type { DomainRecord } from '../../../../functions/shared/domain/domains/custom-domain';
import { keyCaller } from '../../../support/callers';

const nowMs = Date.parse('2026-11-26T10:00:00.000Z');
const owner = 'acct:acct_a';
const context: ManagementContext = {
  caller: keyCaller({ keyId: 'key_1', accountId: 'acct_a', owner, plan: 'PRO' }),
  author: { actor: { kind: 'key', keyId: 'key_1' }, requestId: 'req-1' },
  flags: SAFE_DEFAULT_FLAGS,
  nowMs,
  shortBaseUrl: 'https://sho.rt',
};

/** The nth link, created one second apart so the owner index orders them (newest first). */
const made = (n: number, fields: Partial<LinkRecord> = {}): LinkRecord => ({
  code: `code${String(n).padStart(5, '0')}`,
  url: `https://example.com/${n}`,
  isAlias: false,
  createdAt: new Date(nowMs - 1e9 + n * 1000).toISOString(),
  clicks: 0,
  owner,
  ...fields,
});

/**
 * The links table as the domain sees it: the owner's conditions and the version a bulk action read checked in the
 * write, as the DynamoDB adapter does (its own conditions are tested against DynamoDB Local). `meanwhile` runs
 * just before a link's write, as another request changing it between this request's read and its write.
 */
function table(links: LinkRecord[]) {
  const items = new Map(links.map((link) => [keyOf(link), structuredClone(link)]));
  const writes: Array<{ key: string; changes?: LinkChanges; deleted?: true; stamp?: string }> = [];
  const meanwhile = new Map<string, (link: LinkRecord) => LinkRecord>();
  const guarded = (key: string, ownerAsked: string, seen: LinkVersion | undefined, change: (link: LinkRecord) => LinkRecord): GuardedWrite => {
    const interloper = meanwhile.get(key);
    const before = items.get(key);
    if (interloper && before) items.set(key, interloper(before));
    const current = items.get(key);
    if (!current) return { done: false };
    const changeable = current.owner === ownerAsked && !current.deleted && !current.disabled && !current.retired && (current.maxClicks === undefined || current.clicks < current.maxClicks);
    if (!changeable || (seen !== undefined && current.updatedAt !== seen.updatedAt)) return { done: false, current };
    const after = { ...change(current), updatedAt: new Date(nowMs).toISOString() };
    items.set(key, after);
    return { done: true, link: after };
  };
  const links$: BulkDeps['links'] = {
    find: async (key) => items.get(key),
    findMany: async (keys) => new Map(keys.flatMap((key) => (items.has(key) ? [[key, items.get(key) as LinkRecord] as const] : []))),
    listByOwner: async (ownerAsked, page) => {
      const all = [...items.values()].filter((link) => link.owner === ownerAsked).sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
      const from = page.after ? all.findIndex((link) => link.createdAt < (page.after as { createdAt: string }).createdAt) : 0;
      const rest = from === -1 ? [] : all.slice(from);
      return { links: rest.slice(0, page.limit), more: rest.length > page.limit };
    },
    update: async (key, ownerAsked, changes, _nowMs, _claim, stamp, seen) => {
      const result = guarded(key, ownerAsked, seen, (link) => {
        const next = { ...link } as Record<string, unknown>;
        for (const [field, value] of Object.entries(changes)) {
          if (value === null) delete next[field];
          else next[field] = value;
        }
        return next as unknown as LinkRecord;
      });
      if (result.done) writes.push({ key, changes, ...(stamp ? { stamp: stamp.action } : {}) });
      return result;
    },
    markDeleted: async (key, ownerAsked, _nowMs, _claim, stamp, seen) => {
      const result = guarded(key, ownerAsked, seen, ({ url: _url, ...link }) => ({ ...link, deleted: true }));
      if (result.done) writes.push({ key, deleted: true, ...(stamp ? { stamp: stamp.action } : {}) });
      return result;
    },
    sealCache: async () => undefined,
    setDisabled: async () => true,
    keysOnDomain: async () => ({ keys: [], examined: 0 }),
    clearOfRemovedDomain: async () => false,
  };
  const deps: BulkDeps = { links: links$, safety: new ListSafetyChecker(['https://bad.example.com/']), smartFields, domains: new MemoryDomainStore() };
  return { deps, items, writes, meanwhile };
}

const still = () => nowMs;

describe('tags added and removed', () => {
  it('adds only tags the link lacks, after its own, and removes only those it has: twice is once', () => {
    expect(withTags(['a', 'b'], ['b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(withTags(withTags(['a', 'b'], ['b', 'c']), ['b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(withoutTags(['a', 'b', 'c'], ['b', 'x'])).toEqual(['a', 'c']);
    expect(withoutTags(withoutTags(['a', 'b', 'c'], ['b', 'x']), ['b', 'x'])).toEqual(['a', 'c']);
  });

  it('writes nothing for a link the tags would not change: no webhook, no audit record', async () => {
    const { deps, writes, items } = table([made(1, { tags: ['sale'] }), made(2)]);
    const body = { codes: ['code00001', 'code00002'], action: 'addTags', tags: ['SALE'] };
    expect(await runBulk(body, context, deps, still)).toEqual({ results: [{ code: 'code00001', success: true }, { code: 'code00002', success: true }] });
    expect(await runBulk(body, context, deps, still)).toEqual({ results: [{ code: 'code00001', success: true }, { code: 'code00002', success: true }] });
    expect(writes).toEqual([{ key: 'code00002', changes: { tags: ['sale'] }, stamp: 'link.updated' }]);
    await runBulk({ codes: ['code00001', 'code00002'], action: 'removeTags', tags: ['sale'] }, context, deps, still);
    expect(items.get('code00001')?.tags).toBeUndefined();
    expect(writes.at(-1)).toEqual({ key: 'code00002', changes: { tags: null }, stamp: 'link.updated' });
  });

  it('refuses, for that link alone, more than ten tags', async () => {
    const full = ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9', 't10'];
    const { deps } = table([made(1, { tags: full }), made(2)]);
    const { results } = await runBulk({ codes: ['code00001', 'code00002'], action: 'addTags', tags: ['more'] }, context, deps, still);
    expect(results).toEqual([
      { code: 'code00001', success: false, error: BulkMessages.tooManyTags(10) },
      { code: 'code00002', success: true },
    ]);
  });
});

describe('results', () => {
  it('answer every code in the request\'s order, a repeated code as often as given, and change it once', async () => {
    const { deps, writes } = table([made(1), made(2), made(3, { owner: 'acct:acct_b' }), made(4, { deleted: true }), made(5, { disabled: true })]);
    const codes = ['code00002', 'nope!', 'code00003', 'code00001', 'code00004', 'code00005', 'code00002', 'code99999'];
    const { results } = await runBulk({ codes, action: 'delete' }, context, deps, still);
    expect(results).toEqual([
      { code: 'code00002', success: true },
      { code: 'nope!', success: false, error: OwnMessages.linkNotFound },
      // Another workspace's link answers as no link at all.
      { code: 'code00003', success: false, error: OwnMessages.linkNotFound },
      { code: 'code00001', success: true },
      { code: 'code00004', success: false, error: OwnMessages.linkGone },
      { code: 'code00005', success: false, error: OwnMessages.linkDisabled },
      { code: 'code00002', success: true },
      { code: 'code99999', success: false, error: OwnMessages.linkNotFound },
    ]);
    expect(writes.map((write) => write.key).sort()).toEqual(['code00001', 'code00002']);
    expect(writes.every((write) => write.stamp === 'link.deleted')).toBe(true);
  });

  it('keep a change made after the read and say so, applying the action to every other link', async () => {
    const { deps, items, meanwhile } = table([made(1), made(2), made(3)]);
    meanwhile.set('code00002', (link) => ({ ...link, url: 'https://theirs.example.com/', updatedAt: '2026-11-26T09:59:59.999Z' }));
    const { results } = await runBulk({ codes: ['code00001', 'code00002', 'code00003'], action: 'update', changes: { url: 'https://ours.example.com/' } }, context, deps, still);
    expect(results).toEqual([
      { code: 'code00001', success: true },
      { code: 'code00002', success: false, error: BulkMessages.changedMeanwhile },
      { code: 'code00003', success: true },
    ]);
    expect(items.get('code00002')?.url).toBe('https://theirs.example.com/');
    expect(items.get('code00003')?.url).toBe('https://ours.example.com/');
  });

  it('check an edit once for all links, as PATCH does, before any write', async () => {
    const { deps, writes } = table([made(1)]);
    await expect(runBulk({ codes: ['code00001'], action: 'update', changes: { url: 'https://bad.example.com/' } }, context, deps, still)).rejects.toThrow(Messages.unsafeUrl);
    await expect(runBulk({ codes: ['code00001'], action: 'update', changes: {} }, context, deps, still)).rejects.toThrow(OwnMessages.patchEmpty);
    await expect(runBulk({ codes: ['code00001'], action: 'update', changes: { alias: 'x' } }, context, deps, still)).rejects.toThrow(OwnMessages.aliasUnchangeable);
    expect(writes).toEqual([]);
  });
});

describe('a bulk request refused as a whole', () => {
  const { deps, writes } = table([made(1)]);
  it.each([
    ['101 codes', { codes: Array.from({ length: MAX_BULK_CODES + 1 }, (_, n) => `c${n}`), action: 'delete' }, BulkMessages.codesInvalid(MAX_BULK_CODES)],
    ['no codes', { codes: [], action: 'delete' }, BulkMessages.codesInvalid(MAX_BULK_CODES)],
    ['a code that is no string', { codes: [42], action: 'delete' }, BulkMessages.codesInvalid(MAX_BULK_CODES)],
    ['codes and a filter', { codes: ['code00001'], filter: {}, action: 'delete' }, BulkMessages.targetInvalid(MAX_BULK_CODES)],
    ['neither', { action: 'delete' }, BulkMessages.targetInvalid(MAX_BULK_CODES)],
    ['a cursor without a filter', { codes: ['code00001'], cursor: 'WyIyMDI2LTExLTI2VDEwOjAwOjAwLjAwMFoiLCJhYmMxMjM0Il0', action: 'delete' }, BulkMessages.cursorWithoutFilter],
    ['a cursor of its own making', { filter: {}, cursor: 'not-a-cursor', action: 'delete' }, OwnMessages.cursorParameter],
    ['a filter that is no object', { filter: 'all', action: 'delete' }, BulkMessages.filterInvalid],
    ['a filter\'s bad status', { filter: { status: 'gone' }, action: 'delete' }, OwnMessages.statusParameter],
    ['an unknown action', { codes: ['code00001'], action: 'archive' }, BulkMessages.actionInvalid],
    ['no action', { codes: ['code00001'] }, BulkMessages.actionInvalid],
    ['changes that are no object', { codes: ['code00001'], action: 'update', changes: 'x' }, BulkMessages.changesInvalid],
    ['no tags', { codes: ['code00001'], action: 'addTags', tags: [] }, BulkMessages.tagsInvalid],
    ['a tag in Unicode letters', { codes: ['code00001'], action: 'addTags', tags: ['café'] }, BulkMessages.tagsInvalid],
    ['a tag with a look-alike letter', { codes: ['code00001'], action: 'removeTags', tags: ['ѕale'] }, BulkMessages.tagsInvalid],
    ['eleven tags', { codes: ['code00001'], action: 'addTags', tags: Array.from({ length: 11 }, (_, n) => `t${n}`) }, BulkMessages.tagsInvalid],
  ])('%s', async (_why, body, message) => {
    await expect(runBulk(body, context, deps, still)).rejects.toThrow(new InvalidRequest(message));
    expect(writes).toEqual([]);
  });
});

describe('a filter', () => {
  it('changes only the workspace\'s own links that match, newest first, with the list route\'s rules', async () => {
    const { deps, items } = table([
      made(1, { tags: ['sale'] }),
      made(2, { tags: ['sale'], owner: 'acct:acct_b' }),
      made(3, { tags: ['other'] }),
      made(4, { tags: ['sale'], url: 'https://shop.example.com/x' }),
    ]);
    const { results, cursor } = await runBulk({ filter: { tag: 'SALE' }, action: 'removeTags', tags: ['sale'] }, context, deps, still);
    expect(results).toEqual([{ code: 'code00004', success: true }, { code: 'code00001', success: true }]);
    expect(cursor).toBeUndefined();
    expect(items.get('code00002')?.tags).toEqual(['sale']);
    const searched = await runBulk({ filter: { search: 'SHOP.example' }, action: 'addTags', tags: ['found'] }, context, deps, still);
    expect(searched.results).toEqual([{ code: 'code00004', success: true }]);
  });

  it('manages each link through its own domain and whoever holds it now: a link of an earlier claim, or on a name another account holds, is not found', async () => {
    const { deps, writes } = table([
      made(1, { domain: 'go.acme.com', claimId: 'claim-2' }),
      made(2, { domain: 'go.acme.com', claimId: 'claim-1' }),
      made(3, { domain: 'lost.example.org', claimId: 'claim-9' }),
      made(4),
    ]);
    const held = (domain: string, holder: string, claimId: string) =>
      ({ domain, owner: holder, claimId, status: 'active', isDefault: false, dnsRecords: [], createdAt: '2026-01-01T00:00:00.000Z', history: [] }) as DomainRecord;
    const domains = deps.domains as MemoryDomainStore;
    domains.domains.set('go.acme.com', held('go.acme.com', owner, 'claim-2'));
    domains.domains.set('lost.example.org', held('lost.example.org', 'acct:acct_b', 'claim-10'));
    // `?domain=` names one domain for codes; a filter's links each keep their own.
    const { results } = await runBulk({ filter: {}, action: 'addTags', tags: ['x'] }, { ...context, domain: 'elsewhere.example.net' }, deps, still);
    expect(results).toEqual([
      { code: 'code00004', success: true },
      { code: 'code00003', domain: 'lost.example.org', success: false, error: OwnMessages.linkNotFound },
      { code: 'code00002', domain: 'go.acme.com', success: false, error: OwnMessages.linkNotFound },
      { code: 'code00001', domain: 'go.acme.com', success: true },
    ]);
    expect(writes.map((write) => write.key).sort()).toEqual(['code00004', 'go.acme.com/code00001']);
  });

  it(`changes at most ${MAX_BULK_FILTER_LINKS} links a call and goes on from its cursor, never twice, never skipping one`, async () => {
    const total = MAX_BULK_FILTER_LINKS + 150;
    const { deps, writes } = table(Array.from({ length: total }, (_, n) => made(n + 1)));
    const first = await runBulk({ filter: {}, action: 'addTags', tags: ['bulk'] }, context, deps, still);
    expect(first.results).toHaveLength(MAX_BULK_FILTER_LINKS);
    expect(first.cursor).toEqual(expect.any(String));
    const second = await runBulk({ filter: {}, cursor: first.cursor, action: 'addTags', tags: ['bulk'] }, context, deps, still);
    expect(second).toEqual({ results: expect.any(Array) });
    expect(second.results).toHaveLength(150);
    expect(new Set(writes.map((write) => write.key)).size).toBe(total);
  });

  it('answers with a cursor once its time budget is spent, after the page in hand', async () => {
    const { deps } = table(Array.from({ length: 250 }, (_, n) => made(n + 1)));
    let calls = 0;
    // Each look at the clock is a page later; the budget is spent once the first page is done.
    const clock = () => nowMs + (calls++ === 0 ? 0 : BULK_TIME_BUDGET_MS);
    const first = await runBulk({ filter: {}, action: 'delete' }, context, deps, clock);
    expect(first.results).toHaveLength(100);
    expect(first.cursor).toEqual(expect.any(String));
    const rest = await runBulk({ filter: {}, cursor: first.cursor, action: 'delete' }, context, deps, still);
    expect(rest.results).toHaveLength(150);
    expect(rest.results.every((result) => result.success)).toBe(true);
  });
});
