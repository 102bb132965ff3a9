import type { LinkRecord } from '../../../../functions/shared/domain/links/link';
import { nextHealth } from '../../../../functions/shared/domain/health/link-health';
import { linkEventsOf, stillExpiresAt, type LinkChange } from '../../../../functions/shared/domain/webhooks/link-events';
import { clickEventsOf, quotaCounterOf, quotaEventsOf } from '../../../../functions/shared/domain/webhooks/account-events';
import type { Click } from '../../../../functions/shared/domain/analytics/click';

const BASE = 'https://sho.rt';
const atMs = Date.parse('2026-11-24T12:00:00.000Z');
const link = (fields: Partial<LinkRecord> = {}): LinkRecord => ({
  code: 'abc1234',
  url: 'https://example.org/',
  isAlias: false,
  createdAt: '2026-11-24T11:00:00.000Z',
  clicks: 0,
  owner: 'acct:owner',
  ...fields,
});
const change = (kind: LinkChange['kind'], before: LinkRecord | undefined, after: LinkRecord | undefined, extra: Partial<LinkChange> = {}): LinkChange => ({
  recordId: `rec-${kind}`,
  kind,
  ...(before ? { old: before } : {}),
  ...(after ? { new: after } : {}),
  byTtl: false,
  atMs,
  ...extra,
});
const types = (events: ReturnType<typeof linkEventsOf>) => events.map((event) => event.type);

describe('the events of a committed change to a link', () => {
  it('a new link: link.created with its view, and its expiry due later when it has one', () => {
    expect(types(linkEventsOf(change('INSERT', undefined, link()), 'abc1234', BASE))).toEqual(['link.created']);
    const expiring = link({ expiresAt: '2026-11-25T00:00:00.000Z' });
    const events = linkEventsOf(change('INSERT', undefined, expiring), 'abc1234', BASE);
    expect(events.map(({ type, dueAt, confirmExpiry }) => ({ type, dueAt, confirmExpiry }))).toEqual([
      { type: 'link.created', dueAt: undefined, confirmExpiry: undefined },
      { type: 'link.expired', dueAt: Date.parse('2026-11-25T00:00:00.000Z'), confirmExpiry: { key: 'abc1234', expiresAt: '2026-11-25T00:00:00.000Z' } },
    ]);
    expect(events[0]?.data).toMatchObject({ shortUrl: 'https://sho.rt/abc1234', status: 'active', url: 'https://example.org/' });
  });

  it('an edit the owner would call one: link.updated; a new expiry is due at its new instant', () => {
    const before = link({ expiresAt: '2026-11-25T00:00:00.000Z' });
    expect(types(linkEventsOf(change('MODIFY', before, { ...before, url: 'https://example.org/b', updatedAt: '2026-11-24T12:00:00.000Z' }), 'abc1234', BASE))).toEqual(['link.updated']);
    const moved = linkEventsOf(change('MODIFY', before, { ...before, expiresAt: '2026-11-26T00:00:00.000Z' }), 'abc1234', BASE);
    expect(moved.map((event) => [event.type, event.dueAt])).toEqual([['link.updated', undefined], ['link.expired', Date.parse('2026-11-26T00:00:00.000Z')]]);
    // Two schedules for two instants have two ids: the one no longer true is dropped when due (stillExpiresAt).
    const first = linkEventsOf(change('INSERT', undefined, before), 'abc1234', BASE)[1];
    expect(first?.id).not.toBe(moved[1]?.id);
  });

  it('the service\'s bookkeeping is no event: clicks counted, cache leases', () => {
    const before = link();
    expect(linkEventsOf(change('MODIFY', before, { ...before, clicks: 5 }), 'abc1234', BASE)).toEqual([]);
    expect(linkEventsOf(change('MODIFY', before, { ...before, cacheLeaseUntil: atMs + 60_000, cacheSealedUntil: atMs }), 'abc1234', BASE)).toEqual([]);
  });

  it('deleted, disabled, enabled', () => {
    const before = link();
    expect(types(linkEventsOf(change('MODIFY', before, { code: before.code, owner: before.owner, isAlias: false, createdAt: before.createdAt, clicks: 0, deleted: true }), 'abc1234', BASE))).toEqual(['link.deleted']);
    expect(types(linkEventsOf(change('MODIFY', before, { ...before, disabled: true, disabledReason: 'phishing' }), 'abc1234', BASE))).toEqual(['link.disabled']);
    expect(types(linkEventsOf(change('MODIFY', { ...before, disabled: true }, before), 'abc1234', BASE))).toEqual(['link.enabled']);
  });

  it('a tombstone cleared of its expiredUrl (its domain removed) is no update: it was deleted already', () => {
    const tombstone: LinkRecord = { code: 'abc1234', domain: 'go.acme.com', owner: 'acct:owner', isAlias: false, createdAt: '2026-11-24T11:00:00.000Z', clicks: 0, deleted: true, expiredUrl: 'https://example.org/over' };
    const { expiredUrl: _dropped, ...cleared } = tombstone;
    expect(linkEventsOf(change('MODIFY', tombstone, cleared), 'go.acme.com/abc1234', BASE)).toEqual([]);
  });

  it('used up once: by the click that reaches maxClicks, not again by the tombstone that follows', () => {
    const limited = link({ maxClicks: 2, clicks: 1 });
    const reached = { ...limited, clicks: 2 };
    expect(types(linkEventsOf(change('MODIFY', limited, reached), 'abc1234', BASE))).toEqual(['link.used-up']);
    const { url: _url, ...tombstone } = reached;
    expect(linkEventsOf(change('MODIFY', reached, { ...tombstone, retired: true }), 'abc1234', BASE)).toEqual([]);
    // A limit lowered under the count uses it up too.
    expect(types(linkEventsOf(change('MODIFY', link({ maxClicks: 10, clicks: 3 }), link({ maxClicks: 3, clicks: 3 })), 'abc1234', BASE))).toEqual(['link.used-up']);
  });

  it('DynamoDB\'s TTL removal repeats the expiry\'s event, same id; other removals are none', () => {
    const expiring = link({ expiresAt: '2026-08-01T00:00:00.000Z' });
    const atExpiry = linkEventsOf(change('INSERT', undefined, { ...expiring, expiresAt: '2026-12-01T00:00:00.000Z' }), 'abc1234', BASE)[1];
    const removal = linkEventsOf(change('REMOVE', { ...expiring, expiresAt: '2026-12-01T00:00:00.000Z' }, undefined, { byTtl: true, atMs: Date.parse('2027-03-01T00:00:00.000Z') }), 'abc1234', BASE);
    expect(removal.map(({ type, id, dueAt }) => ({ type, id, dueAt }))).toEqual([{ type: 'link.expired', id: atExpiry?.id, dueAt: undefined }]);
    expect(linkEventsOf(change('REMOVE', expiring, undefined), 'abc1234', BASE)).toEqual([]);
  });

  it('links made through v1 belong to nobody: no events', () => {
    expect(linkEventsOf(change('INSERT', undefined, link({ owner: 'anonymous' })), 'abc1234', BASE)).toEqual([]);
  });

  it('ids are the same for the same stream record (a retried batch) and differ between records', () => {
    const insert = change('INSERT', undefined, link());
    expect(linkEventsOf(insert, 'abc1234', BASE)[0]?.id).toBe(linkEventsOf(insert, 'abc1234', BASE)[0]?.id);
    expect(linkEventsOf({ ...insert, recordId: 'other' }, 'abc1234', BASE)[0]?.id).not.toBe(linkEventsOf(insert, 'abc1234', BASE)[0]?.id);
  });

  it('an expiry is still due only for the same instant on a link that can still expire', () => {
    const expiring = link({ expiresAt: '2026-12-01T00:00:00.000Z' });
    expect(stillExpiresAt(expiring, '2026-12-01T00:00:00.000Z')).toBe(true);
    expect(stillExpiresAt(expiring, '2026-11-30T00:00:00.000Z')).toBe(false);
    expect(stillExpiresAt({ ...expiring, deleted: true }, '2026-12-01T00:00:00.000Z')).toBe(false);
    expect(stillExpiresAt({ ...expiring, disabled: true }, '2026-12-01T00:00:00.000Z')).toBe(false);
    expect(stillExpiresAt({ ...expiring, maxClicks: 1, clicks: 1 }, '2026-12-01T00:00:00.000Z')).toBe(false);
    expect(stillExpiresAt(undefined, '2026-12-01T00:00:00.000Z')).toBe(false);
  });
});

describe('quota events', () => {
  const counterId = 'quota#acct#acct_1#2026-11';
  const quota = (before: number, after: number, limit = 100) => quotaEventsOf({ counterId, before, after, limit, atMs }, 'acct:owner').map((event) => event.type);

  it('warn when the count crosses 80 % and tell when it reaches the limit, once each', () => {
    expect(quota(78, 79)).toEqual([]);
    expect(quota(79, 80)).toEqual(['quota.warning']);
    expect(quota(80, 81)).toEqual([]);
    expect(quota(99, 100)).toEqual(['quota.exhausted']);
    expect(quota(100, 100)).toEqual([]);
    expect(quota(0, 1, 1)).toEqual(['quota.warning', 'quota.exhausted']);
    // A call given back (release) never crosses upward.
    expect(quota(81, 80)).toEqual([]);
  });

  it('carry the month, the count and the limit, under one id per counter and threshold', () => {
    const [event] = quotaEventsOf({ counterId, before: 7, after: 8, limit: 10, atMs }, 'acct:owner');
    expect(event).toMatchObject({ owner: 'acct:owner', type: 'quota.warning', data: { month: '2026-11', used: 8, limit: 10 } });
    expect(quotaEventsOf({ counterId, before: 7, after: 8, limit: 10, atMs: atMs + 5 }, 'acct:owner')[0]?.id).toBe(event?.id);
  });

  it('come from monthly quota counters only', () => {
    expect(quotaCounterOf('rate#key#123#456')).toBeUndefined();
    expect(quotaCounterOf('quota#acct#acct_x#y#2026-01')).toEqual({ accountId: 'acct_x#y', month: '2026-01' });
    expect(quotaEventsOf({ counterId: 'rate#k#1', before: 0, after: 100, limit: 100, atMs }, 'o')).toEqual([]);
  });
});

describe('click events', () => {
  const click = (fields: Partial<Click> = {}): Click => ({ code: 'abc1234', at: '2026-11-24T12:00:00.000Z', country: 'DE', referrer: 'news.example.com', device: 'mobile', counted: true, ...fields });

  it('one per click the stats count, for its owner, with the stats\' click and nothing about the visitor', async () => {
    const owners: Record<string, string> = { abc1234: 'acct:a', 'go.acme.com/x1': 'acct:b', v1link: 'anonymous' };
    const reads: string[] = [];
    const events = await clickEventsOf(
      [click(), click({ counted: false }), click({ code: 'go.acme.com/x1', destination: 'rules[0]' }), click({ code: 'v1link' }), click({ code: 'gone' }), click()],
      'delivery-1',
      async (key) => {
        reads.push(key);
        return owners[key];
      },
    );
    expect(events.map((event) => [event.owner, event.data])).toEqual([
      ['acct:a', { code: 'abc1234', at: '2026-11-24T12:00:00.000Z', country: 'DE', referrer: 'news.example.com', device: 'mobile' }],
      // Whether the redirect already added it to the link's total changes nothing: it is a click.
      ['acct:a', expect.objectContaining({ code: 'abc1234' })],
      ['acct:b', { code: 'x1', domain: 'go.acme.com', at: '2026-11-24T12:00:00.000Z', country: 'DE', referrer: 'news.example.com', device: 'mobile', destination: 'rules[0]' }],
      ['acct:a', expect.objectContaining({ code: 'abc1234' })],
    ]);
    // One owner read per link, and distinct ids for two clicks of one link in one delivery.
    expect(reads.sort()).toEqual(['abc1234', 'go.acme.com/x1', 'gone', 'v1link']);
    expect(new Set(events.map((event) => event.id)).size).toBe(4);
  });
});

describe('link health\'s events (issue 31)', () => {
  const checkedAt = (hour: number) => new Date(atMs + hour * 3_600_000).toISOString();
  const broken1 = nextHealth(undefined, { status: 'server-error', statusCode: 500, checkedAt: checkedAt(1) });
  const broken2 = nextHealth(broken1, { status: 'server-error', statusCode: 500, checkedAt: checkedAt(2) });
  const ok1 = nextHealth(broken2, { status: 'ok', statusCode: 200, checkedAt: checkedAt(3) });
  const ok2 = nextHealth(ok1, { status: 'ok', statusCode: 200, checkedAt: checkedAt(4) });

  it('link.broken when the second broken check in a row is written, link.recovered at the second good one; nothing else', () => {
    expect(types(linkEventsOf(change('MODIFY', link(), link({ health: broken1 })), 'abc1234', BASE))).toEqual([]);
    const broken = linkEventsOf(change('MODIFY', link({ health: broken1 }), link({ health: broken2 })), 'abc1234', BASE);
    expect(types(broken)).toEqual(['link.broken']);
    expect(broken[0]?.data).toMatchObject({ health: { status: 'server-error', statusCode: 500, since: checkedAt(1) } });
    expect(types(linkEventsOf(change('MODIFY', link({ health: broken2 }), link({ health: ok1 })), 'abc1234', BASE))).toEqual([]);
    expect(types(linkEventsOf(change('MODIFY', link({ health: ok1 }), link({ health: ok2 })), 'abc1234', BASE))).toEqual(['link.recovered']);
  });
});
