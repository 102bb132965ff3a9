import { CachedLinkStore } from '../../../functions/shared/adapters/cached-link-store';
import { browserMayCache, CACHE_LEASE_MS, LINK_MEMORY_SECONDS, PLAIN_REDIRECT_MAX_AGE_SECONDS } from '../../../functions/shared/domain/links/cache-lease';
import type { LinkRecord } from '../../../functions/shared/domain/links/link';
import { MemoryLinkStore } from '../../support/in-memory-ports';

const link: LinkRecord = { code: 'abc123', url: 'https://example.com/', isAlias: false, createdAt: '2026-11-22T09:00:00.000Z', clicks: 0, owner: 'key:k' };

function setup() {
  const inner = new MemoryLinkStore();
  let reads = 0;
  const find = inner.find.bind(inner);
  inner.find = (code) => {
    reads += 1;
    return find(code);
  };
  let clock = 1_000_000;
  const cache = new CachedLinkStore(inner, { maxEntries: 2, now: () => clock });
  return { inner, cache, reads: () => reads, now: () => clock, advance: (ms: number) => (clock += ms) };
}

describe('the in-memory link cache', () => {
  it('serves a plain link from memory for 30 s under a lease it takes, then reads again', async () => {
    const { inner, cache, reads, advance, now } = setup();
    await inner.createIfAbsent(link);
    await cache.find('abc123');
    expect(inner.links.get('abc123')?.cacheLeaseUntil).toBe(now() + CACHE_LEASE_MS);
    await cache.find('abc123');
    expect(reads()).toBe(1);
    advance(LINK_MEMORY_SECONDS * 1000);
    await cache.find('abc123');
    expect(reads()).toBe(2);
  });

  it('never keeps a copy past its lease minus a browser\'s max-age, and renews a lease running short', async () => {
    const { inner, cache, reads, advance, now } = setup();
    // A lease another container took 45 s ago: 15 s left, none of them for a new browser copy.
    await inner.createIfAbsent({ ...link, cacheLeaseUntil: now() + 15_000 });
    const found = await cache.find('abc123');
    expect(inner.leaseRenewals).toBe(1);
    expect(found?.cacheLeaseUntil).toBe(now() + CACHE_LEASE_MS);
    advance(1_000);
    await cache.find('abc123');
    expect(reads()).toBe(1);
  });

  it('reads a link with a click limit or a password on every visit, and never leases it', async () => {
    const { inner, cache, reads } = setup();
    await inner.createIfAbsent({ ...link, passwordHash: 'scrypt$x' });
    await cache.find('abc123');
    await cache.find('abc123');
    expect(reads()).toBe(2);
    expect(inner.leaseRenewals).toBe(0);
  });

  it('takes no lease on a sealed link: the copy is not kept, and no browser may keep it either', async () => {
    const { inner, cache, reads, now } = setup();
    await inner.createIfAbsent({ ...link, cacheSealedUntil: now() + 60_000 });
    const found = await cache.find('abc123');
    await cache.find('abc123');
    expect(reads()).toBe(2);
    expect(found && browserMayCache(found, now())).toBe(false);
  });

  it('lets a browser keep the redirect only while the lease outlasts its max-age', () => {
    const nowMs = 5_000_000;
    const leased = (leftMs: number) => ({ ...link, cacheLeaseUntil: nowMs + leftMs });
    expect(browserMayCache(leased(PLAIN_REDIRECT_MAX_AGE_SECONDS * 1000), nowMs)).toBe(true);
    expect(browserMayCache(leased(PLAIN_REDIRECT_MAX_AGE_SECONDS * 1000 - 1), nowMs)).toBe(false);
    expect(browserMayCache({ ...leased(CACHE_LEASE_MS), maxClicks: 3 }, nowMs)).toBe(false);
    expect(browserMayCache({ ...leased(CACHE_LEASE_MS), expiresAt: '2030-01-01T00:00:00.000Z' }, nowMs)).toBe(false);
  });

  it('does not remember a miss, so a link created a moment later is found', async () => {
    const { inner, cache } = setup();
    expect(await cache.find('abc123')).toBeUndefined();
    await inner.createIfAbsent(link);
    expect(await cache.find('abc123')).toMatchObject({ code: 'abc123' });
  });

  it('forgets a link it retires, and never remembers a tombstone', async () => {
    const { inner, cache, reads } = setup();
    await inner.createIfAbsent({ ...link, maxClicks: 1 });
    await cache.find('abc123');
    await cache.retire('abc123');
    expect(await cache.find('abc123')).toMatchObject({ retired: true });
    await cache.find('abc123');
    expect(reads()).toBe(3);
  });

  it('holds at most maxEntries links, evicting the oldest', async () => {
    const { inner, cache, reads } = setup();
    for (const code of ['one', 'two', 'three']) await inner.createIfAbsent({ ...link, code });
    for (const code of ['one', 'two', 'three']) await cache.find(code);
    await cache.find('three');
    await cache.find('one');
    expect(reads()).toBe(4);
  });

  it('sends one read and one lease renewal when many visits at once find a hot link\'s copy gone', async () => {
    const { inner, cache, reads, now } = setup();
    await inner.createIfAbsent(link);
    const found = await Promise.all(Array.from({ length: 50 }, () => cache.find('abc123')));
    expect(reads()).toBe(1);
    expect(inner.leaseRenewals).toBe(1);
    expect(found.every((copy) => copy?.cacheLeaseUntil === now() + CACHE_LEASE_MS)).toBe(true);
  });

  it('lets visits at once read a password link, a miss or a failed read each for themselves', async () => {
    const { inner, cache, reads } = setup();
    await inner.createIfAbsent({ ...link, code: 'locked', passwordHash: 'scrypt$x' });
    await Promise.all([cache.find('locked'), cache.find('locked'), cache.find('nothing'), cache.find('nothing')]);
    expect(reads()).toBe(4);
    // A read that fails leaves the visits waiting on it to read again (one of them may then succeed).
    const failing = setup();
    await failing.inner.createIfAbsent(link);
    const find = failing.inner.find.bind(failing.inner);
    let calls = 0;
    failing.inner.find = async (code) => {
      calls += 1;
      if (calls === 1) throw new Error('throttled');
      return find(code);
    };
    const [first, second] = await Promise.allSettled([failing.cache.find('abc123'), failing.cache.find('abc123')]);
    expect(first.status).toBe('rejected');
    expect(second).toMatchObject({ status: 'fulfilled', value: { code: 'abc123' } });
  });
});
