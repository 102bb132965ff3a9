import { CachedLinkStore } from '../../../functions/shared/adapters/cached-link-store';
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
  let clock = 0;
  const cache = new CachedLinkStore(inner, { ttlMs: 60_000, maxEntries: 2, now: () => clock });
  return { inner, cache, reads: () => reads, advance: (ms: number) => (clock += ms) };
}

describe('the in-memory link cache', () => {
  it('serves a found link from memory for its time to live, then reads again', async () => {
    const { inner, cache, reads, advance } = setup();
    await inner.createIfAbsent(link);
    await cache.find('abc123');
    await cache.find('abc123');
    expect(reads()).toBe(1);
    advance(60_000);
    await cache.find('abc123');
    expect(reads()).toBe(2);
  });

  it('does not remember a miss, so a link created a moment later is found', async () => {
    const { inner, cache } = setup();
    expect(await cache.find('abc123')).toBeUndefined();
    await inner.createIfAbsent(link);
    expect(await cache.find('abc123')).toEqual(link);
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
});
