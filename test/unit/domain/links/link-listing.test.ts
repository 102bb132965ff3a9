import { InvalidRequest, PlanRequired } from '../../../../functions/shared/domain/errors';
import { nextHealth } from '../../../../functions/shared/domain/health/link-health';
import type { LinkRecord } from '../../../../functions/shared/domain/links/link';
import { assertListingAllowed, countTags, encodeCursor, listLinks, parseListQuery } from '../../../../functions/shared/domain/links/link-listing';
import { OwnMessages } from '../../../../functions/shared/domain/messages';
import type { LinkPosition } from '../../../../functions/shared/domain/ports';

const nowMs = Date.parse('2026-11-22T10:00:00.000Z');
const context = { nowMs, shortBaseUrl: 'https://sho.rt' };

/** The index as DynamoDB keeps it: the owner's links by createdAt, read newest first after a position. */
function indexOf(links: LinkRecord[]) {
  const sorted = [...links].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const reads: number[] = [];
  return {
    reads,
    async listByOwner(_owner: string, page: { limit: number; after?: LinkPosition }) {
      const start = page.after ? sorted.findIndex((link) => link.code === page.after?.code) + 1 : 0;
      const slice = sorted.slice(start, start + page.limit);
      reads.push(slice.length);
      return { links: slice, more: start + page.limit < sorted.length };
    },
  };
}

const links = (count: number, fields: (i: number) => Partial<LinkRecord> = () => ({})): LinkRecord[] =>
  Array.from({ length: count }, (_, i) => ({
    code: `code${String(i).padStart(4, '0')}`,
    url: 'https://example.com/',
    isAlias: false,
    createdAt: new Date(nowMs - (count - i) * 1000).toISOString(),
    clicks: 0,
    owner: 'acct:a',
    ...fields(i),
  }));

describe('listing an account\'s links', () => {
  it('pages through every link once, newest first, and ends with a null cursor', async () => {
    const index = indexOf(links(45));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await listLinks('acct:a', parseListQuery(cursor ? { limit: '20', cursor } : { limit: '20' }), context, index);
      seen.push(...page.links.map((link) => link.shortCode));
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(links(45).map((link) => link.code).reverse());
    expect(index.reads).toEqual([20, 20, 5]);
  });

  it('filters by status, reading on until the page is full, and resumes exactly where it stopped', async () => {
    const index = indexOf(links(300, (i) => (i % 50 === 0 ? { deleted: true } : {})));
    const first = await listLinks('acct:a', parseListQuery({ status: 'deleted', limit: '4' }), context, index);
    expect(first.links.map((link) => link.shortCode)).toEqual(['code0250', 'code0200', 'code0150', 'code0100']);
    const second = await listLinks('acct:a', parseListQuery({ status: 'deleted', limit: '4', cursor: first.nextCursor ?? '' }), context, index);
    expect(second.links.map((link) => link.shortCode)).toEqual(['code0050', 'code0000']);
    expect(second.nextCursor).toBeNull();
  });

  it('stops a sparse filter after examining 1,000 links and hands back a cursor to carry on', async () => {
    const index = indexOf(links(1_500, (i) => (i === 0 ? { deleted: true } : {})));
    const first = await listLinks('acct:a', parseListQuery({ status: 'deleted' }), context, index);
    expect(first).toEqual({ links: [], nextCursor: expect.any(String) });
    const rest = await listLinks('acct:a', parseListQuery({ status: 'deleted', cursor: first.nextCursor ?? '' }), context, index);
    expect(rest.links.map((link) => link.shortCode)).toEqual(['code0000']);
  });
});

describe('searching an account\'s links (issue 20)', () => {
  const searchable = links(6, (i) =>
    [
      { code: 'Spring-Sale', isAlias: true, url: 'https://shop.example.com/spring' },
      { url: 'https://xn--bcher-kva.de/k%C3%BCche' },
      { url: 'https://example.org/SUMMER?utm=x' },
      { code: 'abc', url: undefined, deleted: true },
      {},
      { url: 'https://example.org/spring-2' },
    ][i] ?? {},
  );

  it.each([
    ['spring', ['code0005', 'Spring-Sale']],
    ['SALE', ['Spring-Sale']],
    ['bücher', ['code0001']],
    ['küche', ['code0001']],
    ['%c3%bc', ['code0001']],
    ['summer?utm', ['code0002']],
    ['abc', ['abc']],
    ['nothing like it', []],
  ])('%j finds the code, alias or destination containing it, ignoring case', async (search, expected) => {
    const page = await listLinks('acct:a', parseListQuery({ search }), context, indexOf(searchable));
    expect(page.links.map((link) => link.shortCode)).toEqual(expected);
  });

  it('combines with status and stays within the 1,000-examined bound', async () => {
    expect((await listLinks('acct:a', parseListQuery({ search: 'spring', status: 'active' }), context, indexOf(searchable))).links).toHaveLength(2);
    const many = indexOf(links(1_500, (i) => (i === 0 ? { url: 'https://needle.example/' } : {})));
    const first = await listLinks('acct:a', parseListQuery({ search: 'needle' }), context, many);
    expect(first).toEqual({ links: [], nextCursor: expect.any(String) });
    expect((await listLinks('acct:a', parseListQuery({ search: 'needle', cursor: first.nextCursor ?? '' }), context, many)).links.map((link) => link.shortCode)).toEqual(['code0000']);
  });
});

describe('the broken-links filter (issue 31)', () => {
  const observed = (status: 'ok' | 'server-error', hour: number) => ({ status, checkedAt: new Date(nowMs - (10 - hour) * 3_600_000).toISOString() });
  const twice = (status: 'ok' | 'server-error') => nextHealth(nextHealth(undefined, observed(status, 1)), observed(status, 2));
  const checked = links(4, (i) => [{ health: twice('server-error') }, { health: nextHealth(undefined, observed('server-error', 1)) }, { health: twice('ok') }, { health: twice('server-error'), disabled: true }][i] ?? {});

  it('keeps the active links two checks in a row found broken: not a single blip, not an ended link', async () => {
    const page = await listLinks('acct:a', parseListQuery({ health: 'broken' }), context, indexOf(checked));
    expect(page.links.map((link) => [link.shortCode, link.health?.status])).toEqual([['code0000', 'server-error']]);
    expect(page.links[0]?.health).not.toHaveProperty('broken');
  });

  it('is PRO\'s and up; any other value is a 400 naming it', () => {
    expect(() => assertListingAllowed(parseListQuery({ health: 'broken' }), 'INDIE')).toThrow(PlanRequired);
    expect(() => assertListingAllowed(parseListQuery({ health: 'broken' }), 'PRO')).not.toThrow();
    expect(() => assertListingAllowed(parseListQuery({}), 'FREE')).not.toThrow();
    expect(() => parseListQuery({ health: 'ok' })).toThrow(OwnMessages.healthParameter);
  });
});

describe('tags in the listing (issue 20)', () => {
  const tagged = links(5, (i) => [{ tags: ['spring', 'promo'] }, { tags: ['promo'] }, {}, { tags: ['spring'] }, { tags: ['autumn'] }][i] ?? {});

  it('filter by one tag, in any case', async () => {
    const page = await listLinks('acct:a', parseListQuery({ tag: 'SPRING' }), context, indexOf(tagged));
    expect(page.links.map((link) => [link.shortCode, link.tags])).toEqual([['code0003', ['spring']], ['code0000', ['spring', 'promo']]]);
  });

  it('are counted per account, most used first, ties by name', async () => {
    expect(await countTags('acct:a', indexOf(tagged))).toEqual({ tags: [{ tag: 'promo', links: 2 }, { tag: 'spring', links: 2 }, { tag: 'autumn', links: 1 }], complete: true });
  });

  it('are counted over the newest 10,000 links at most, saying so', async () => {
    const index = indexOf(links(10_050, () => ({ tags: ['bulk'] })));
    expect(await countTags('acct:a', index)).toEqual({ tags: [{ tag: 'bulk', links: 10_000 }], complete: false });
  });
});

describe('list query parameters', () => {
  it('default to 20 links, any status', () => {
    expect(parseListQuery(null)).toEqual({ limit: 20 });
  });

  it.each([
    [{ limit: '0' }, OwnMessages.limitParameter],
    [{ limit: '-1' }, OwnMessages.limitParameter],
    [{ limit: '1e2' }, OwnMessages.limitParameter],
    [{ cursor: 'abc' }, OwnMessages.cursorParameter],
    [{ cursor: encodeCursor({ code: 'a/b', createdAt: '2026-01-01T00:00:00.000Z' }) }, OwnMessages.cursorParameter],
    [{ status: 'Active' }, OwnMessages.statusParameter],
    [{ search: '' }, OwnMessages.searchParameter],
    [{ tag: 'two words' }, OwnMessages.tagParameter],
    [{ tag: '' }, OwnMessages.tagParameter],
    [{ search: 'x'.repeat(201) }, OwnMessages.searchParameter],
  ])('refuse %j naming the parameter', (parameters, message) => {
    expect(() => parseListQuery(parameters)).toThrow(new InvalidRequest(message));
  });
});
