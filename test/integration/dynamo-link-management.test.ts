import { DynamoLinkStore } from '../../functions/shared/adapters/dynamo-link-store';
import type { LinkRecord } from '../../functions/shared/domain/links/link';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, freshTables } from '../support/local-stack';

/** The link store's management writes against DynamoDB Local: the conditions that keep edits honest. */
const nowMs = Date.now();
let store: DynamoLinkStore;

beforeAll(async () => {
  store = new DynamoLinkStore(dynamo(), (await freshTables())[StackOutputs.linksTable] as string);
});

let counter = 0;
function link(fields: Partial<LinkRecord> = {}): LinkRecord {
  counter += 1;
  return { code: `m${counter}x${nowMs.toString(36)}`, url: 'https://example.com/', isAlias: false, createdAt: new Date(nowMs + counter).toISOString(), clicks: 0, owner: 'acct:a', ...fields };
}

async function stored(fields: Partial<LinkRecord> = {}): Promise<LinkRecord> {
  const record = link(fields);
  await store.createIfAbsent(record);
  return record;
}

describe('listing an owner\'s links', () => {
  it('pages newest first through the index, exactly once each, with an exact "more"', async () => {
    const owner = `acct:list${nowMs}`;
    const codes: string[] = [];
    for (let i = 0; i < 7; i += 1) codes.push((await stored({ owner })).code);
    await stored({ owner: 'acct:someone-else' });
    const seen: string[] = [];
    let after: { code: string; createdAt: string } | undefined;
    let pages = 0;
    for (;;) {
      const page = await store.listByOwner(owner, { limit: 3, ...(after ? { after } : {}) });
      pages += 1;
      seen.push(...page.links.map((entry) => entry.code));
      const last = page.links[page.links.length - 1];
      if (!page.more || !last) break;
      after = { code: last.code, createdAt: last.createdAt };
    }
    expect(seen).toEqual([...codes].reverse());
    expect(pages).toBe(3);
  });
});

describe('an owner\'s edit', () => {
  it('sets and removes fields in one write, and moves the TTL with the expiry', async () => {
    const record = await stored({ expiresAt: new Date(nowMs + 60_000).toISOString(), passwordHash: 'scrypt$x' });
    const result = await store.update(record.code, 'acct:a', { url: 'https://example.org/', expiresAt: null, maxClicks: 4, passwordHash: null }, nowMs);
    expect(result).toMatchObject({ done: true, link: { url: 'https://example.org/', maxClicks: 4, updatedAt: new Date(nowMs).toISOString() } });
    const after = await store.find(record.code);
    expect(after?.expiresAt).toBeUndefined();
    expect(after?.passwordHash).toBeUndefined();
  });

  it('replaces smart-link fields as a whole and removes them with null, `rules` (a reserved word) included', async () => {
    const rules = [{ url: 'https://example.com/de', when: { country: ['DE'], query: { ref: true as const } } }];
    const variants = [{ url: 'https://example.com/a', weight: 60 }, { url: 'https://example.com/b', weight: 40 }];
    const record = await stored({ rules, utm: { source: 'old', medium: 'email' } });
    const changed = await store.update(record.code, 'acct:a', { variants, utm: { source: 'new' }, forwardQuery: true, expiredUrl: 'https://example.com/over' }, nowMs);
    expect(changed).toMatchObject({ done: true, link: { rules, variants, utm: { source: 'new' }, forwardQuery: true, expiredUrl: 'https://example.com/over' } });
    const removed = await store.update(record.code, 'acct:a', { rules: null, variants: null, utm: null, forwardQuery: null }, nowMs);
    expect(removed.done && [removed.link.rules, removed.link.variants, removed.link.utm, removed.link.forwardQuery]).toEqual([undefined, undefined, undefined, undefined]);
    expect(removed.done && removed.link.expiredUrl).toBe('https://example.com/over');
  });

  it('makes a deleted link a tombstone that keeps only its expiredUrl of its destinations', async () => {
    const record = await stored({ rules: [{ url: 'https://example.com/de', when: { country: ['DE'] } }], variants: [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 50 }], utm: { source: 's' }, forwardQuery: true, expiredUrl: 'https://example.com/over' });
    expect(await store.markDeleted(record.code, 'acct:a', nowMs)).toMatchObject({ done: true });
    const tombstone = await store.find(record.code);
    expect(tombstone).toMatchObject({ deleted: true, expiredUrl: 'https://example.com/over' });
    expect([tombstone?.url, tombstone?.rules, tombstone?.variants, tombstone?.utm, tombstone?.forwardQuery]).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('is refused, with the link as it was, for another owner, a deleted, used-up or disabled link, or a limit below the clicks', async () => {
    const theirs = await stored({ owner: 'acct:b' });
    expect(await store.update(theirs.code, 'acct:a', { url: 'https://example.org/' }, nowMs)).toEqual({ done: false, current: expect.objectContaining({ owner: 'acct:b' }) });
    expect(await store.update('no-such-code', 'acct:a', { url: 'https://example.org/' }, nowMs)).toEqual({ done: false });
    expect(await store.find('no-such-code')).toBeUndefined();

    const usedUp = await stored({ maxClicks: 2, clicks: 2 });
    expect(await store.update(usedUp.code, 'acct:a', { maxClicks: 5 }, nowMs)).toMatchObject({ done: false, current: { clicks: 2 } });

    const clicked = await stored({ maxClicks: 10, clicks: 3 });
    expect(await store.update(clicked.code, 'acct:a', { maxClicks: 2 }, nowMs)).toMatchObject({ done: false, current: { clicks: 3 } });
    expect(await store.update(clicked.code, 'acct:a', { maxClicks: 3 }, nowMs)).toMatchObject({ done: true });

    const disabled = await stored();
    expect(await store.setDisabled(disabled.code, 'phishing', nowMs)).toBe(true);
    expect(await store.update(disabled.code, 'acct:a', { url: 'https://example.org/' }, nowMs)).toMatchObject({ done: false, current: { disabled: true, disabledReason: 'phishing' } });
    expect(await store.setDisabled('no-such-code', 'x', nowMs)).toBe(false);
  });
});

describe('deleting', () => {
  it('leaves a tombstone without destination, password or TTL, and refuses a second delete', async () => {
    const record = await stored({ passwordHash: 'scrypt$x', expiresAt: new Date(nowMs + 60_000).toISOString() });
    expect(await store.markDeleted(record.code, 'acct:a', nowMs)).toMatchObject({ done: true, link: { deleted: true } });
    const tombstone = await store.find(record.code);
    expect(tombstone).toMatchObject({ code: record.code, deleted: true, owner: 'acct:a' });
    expect(tombstone?.url).toBeUndefined();
    expect(tombstone?.passwordHash).toBeUndefined();
    expect(await store.markDeleted(record.code, 'acct:a', nowMs)).toMatchObject({ done: false, current: { deleted: true } });
    expect(await store.createIfAbsent({ ...record, owner: 'acct:b' })).toBe(false);
  });
});

describe('a click on a link changed since a visitor\'s copy was cached', () => {
  it('reports deleted, disabled, or unlimited (limit removed) instead of a wrong 404', async () => {
    const deleted = await stored({ maxClicks: 5 });
    await store.markDeleted(deleted.code, 'acct:a', nowMs);
    expect(await store.consumeClick(deleted.code, nowMs)).toEqual({ kind: 'deleted' });

    const disabled = await stored({ maxClicks: 5 });
    await store.setDisabled(disabled.code, 'spam', nowMs);
    expect(await store.consumeClick(disabled.code, nowMs)).toEqual({ kind: 'disabled' });

    const unlimited = await stored({ maxClicks: 5 });
    await store.update(unlimited.code, 'acct:a', { maxClicks: null }, nowMs);
    expect(await store.consumeClick(unlimited.code, nowMs)).toMatchObject({ kind: 'unlimited', link: { url: 'https://example.com/' } });
  });
});
