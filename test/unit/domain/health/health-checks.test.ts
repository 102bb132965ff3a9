import { BUSY_RETRY_SECONDS, checkLink, checkQueued, HealthCheckBusy, queueDueLinks, SLOT_AHEAD_SECONDS } from '../../../../functions/shared/domain/health/health-checks';
import { CHECK_EVERY_MS } from '../../../../functions/shared/domain/health/link-health';
import type { LinkRecord } from '../../../../functions/shared/domain/links/link';
import { InMemoryHealth } from '../../../support/in-memory-health';

const link = (code: string, fields: Partial<LinkRecord> = {}): LinkRecord => ({
  code,
  url: 'https://shop.example.com/spring',
  isAlias: false,
  createdAt: '2026-11-25T00:00:00.000Z',
  clicks: 0,
  owner: 'acct:a',
  ...fields,
});

describe('a link\'s check', () => {
  it('HEAD first; a refused HEAD (405) is asked again with GET, each in its own second of the host', async () => {
    const health = new InMemoryHealth();
    health.add(link('spring'));
    health.answer = (_url, method) => (method === 'HEAD' ? { status: 405 } : { status: 200 });
    await checkLink('spring', health.deps());
    expect(health.requests.map((request) => request.method)).toEqual(['HEAD', 'GET']);
    expect(Math.floor((health.requests[1]?.atMs ?? 0) / 1000)).toBeGreaterThan(Math.floor((health.requests[0]?.atMs ?? 0) / 1000));
    expect(health.links.get('spring')?.health).toMatchObject({ status: 'ok', statusCode: 200, broken: false });
  });

  it('a URL is checked once a day however many links point at it; the next day it is checked again', async () => {
    const health = new InMemoryHealth();
    for (let index = 0; index < 1000; index += 1) health.add(link(`same${index}`));
    for (let index = 0; index < 1000; index += 1) await checkLink(`same${index}`, health.deps());
    expect(health.requests).toHaveLength(1);
    expect([...health.links.values()].every((stored) => stored.health?.status === 'ok')).toBe(true);
    health.nowMs += CHECK_EVERY_MS;
    await checkLink('same0', health.deps());
    await checkLink('same1', health.deps());
    expect(health.requests).toHaveLength(2);
  });

  it('a host pointed at by 1,000 different URLs gets one request a second at most, in seconds of its own', async () => {
    const health = new InMemoryHealth();
    for (let index = 0; index < 1000; index += 1) health.add(link(`page${index}`, { url: `https://shop.example.com/p/${index}` }));
    const startMs = health.nowMs;
    for (let index = 0; index < 1000; index += 1) await checkLink(`page${index}`, health.deps());
    const seconds = health.requests.map((request) => Math.floor(request.atMs / 1000));
    expect(seconds).toHaveLength(1000);
    expect(new Set(seconds).size).toBe(1000);
    expect(health.nowMs - startMs).toBeGreaterThanOrEqual(999_000);
  });

  it('workers that find the host booked SLOT_AHEAD_SECONDS ahead give their links back to the queue instead of waiting', async () => {
    const health = new InMemoryHealth();
    for (let index = 0; index < 100; index += 1) health.add(link(`page${index}`, { url: `https://shop.example.com/p/${index}` }));
    // All at the same instant (nobody's sleep ends before the others book).
    const results = await Promise.allSettled(Array.from({ length: 100 }, (_, index) => checkLink(`page${index}`, health.deps({ sleep: async () => undefined }))));
    const busy = results.filter((result) => result.status === 'rejected' && result.reason instanceof HealthCheckBusy);
    expect(health.requests).toHaveLength(SLOT_AHEAD_SECONDS);
    expect(busy).toHaveLength(100 - SLOT_AHEAD_SECONDS);
    // Their URLs' claims went with them: the next attempt may check.
    expect([...health.urls.values()].filter((entry) => entry.claimedUntil !== undefined)).toHaveLength(0);
  });

  it('a check whose URL another worker holds is busy, and the claim goes when the check fails', async () => {
    const health = new InMemoryHealth();
    health.add(link('spring'));
    await health.urlChecks.claim('https://shop.example.com/spring', health.nowMs, health.nowMs - CHECK_EVERY_MS, 60_000);
    await expect(checkLink('spring', health.deps())).rejects.toBeInstanceOf(HealthCheckBusy);
    health.urls.clear();
    health.answer = () => {
      throw new Error('socket exploded');
    };
    await expect(checkLink('spring', health.deps())).rejects.toThrow('socket exploded');
    expect(health.urls.get('https://shop.example.com/spring')?.claimedUntil).toBeUndefined();
  });

  it('every destination counts, the worst wins; an ended link leaves the due index and sends nothing', async () => {
    const health = new InMemoryHealth();
    health.add(link('smart', { variants: [{ url: 'https://a.example.com/', weight: 50 }, { url: 'https://b.example.com/', weight: 50 }] }));
    health.answer = (url) => (url.startsWith('https://b.') ? { failure: 'dns' } : { status: 200 });
    await checkLink('smart', health.deps());
    expect(health.requests.map((request) => request.url).sort()).toEqual(['https://a.example.com/', 'https://b.example.com/', 'https://shop.example.com/spring']);
    expect(health.links.get('smart')?.health).toMatchObject({ status: 'unreachable', error: 'dns' });
    health.add({ ...link('gone'), deleted: true });
    health.links.set('gone', { ...(health.links.get('gone') as LinkRecord), dueAtMs: 1 });
    expect(await checkLink('gone', health.deps())).toBe('notChecked');
    expect(health.links.get('gone')?.dueAtMs).toBeUndefined();
    expect(health.requests).toHaveLength(3);
  });

  it('a local run checks only the allowed destinations', async () => {
    const health = new InMemoryHealth();
    health.add(link('local', { expiredUrl: 'http://dest.example-shop.com:8080/over' }));
    await checkLink('local', health.deps({ mayCheck: (url) => url.startsWith('http://dest.example-shop.com:8080/') }));
    expect(health.requests.map((request) => request.url)).toEqual(['http://dest.example-shop.com:8080/over']);
  });
});

describe('the schedule', () => {
  it('queues each due link once: leased, so the next run does not queue it again while it waits', async () => {
    const health = new InMemoryHealth();
    health.add(link('due'));
    health.add(link('later'));
    health.links.set('due', { ...(health.links.get('due') as LinkRecord), dueAtMs: health.nowMs - 1 });
    health.links.set('later', { ...(health.links.get('later') as LinkRecord), dueAtMs: health.nowMs + 60_000 });
    const deps = { links: health.healthLinks, queue: health.queue, timeScale: 1, now: () => health.nowMs };
    expect(await queueDueLinks(deps)).toBe(1);
    expect(health.queued).toEqual([{ keys: ['due'], delaySeconds: 0 }]);
    expect(await queueDueLinks(deps)).toBe(0);
  });

  it('a checked link is due again a day after its check', async () => {
    const health = new InMemoryHealth();
    health.add(link('daily'));
    await checkLink('daily', health.deps());
    expect(health.links.get('daily')?.dueAtMs).toBe(health.nowMs + CHECK_EVERY_MS);
  });
});

describe('a batch of the queue', () => {
  it('sends links with a busy host back with a delay, reports the worker\'s own failures and bodies that are no link', async () => {
    const health = new InMemoryHealth();
    health.add(link('fine', { url: 'https://fine.example.com/' }));
    health.add(link('held', { url: 'https://held.example.com/' }));
    health.add(link('broken-store', { url: 'https://store.example.com/' }));
    await health.urlChecks.claim('https://held.example.com/', health.nowMs, health.nowMs - CHECK_EVERY_MS, 60_000);
    const errors: string[] = [];
    const deps = {
      ...health.deps({
        request: async (url: string) => {
          if (url.startsWith('https://store.')) throw new Error('DynamoDB is down');
          return { status: 200 };
        },
      }),
      queue: health.queue,
    };
    const result = await checkQueued(
      [
        { messageId: 'm1', key: 'fine' },
        { messageId: 'm2', key: 'held' },
        { messageId: 'm3', key: 'broken-store' },
        { messageId: 'm4', key: undefined },
      ],
      deps,
      (messageId) => errors.push(messageId),
    );
    expect(result).toEqual({ checked: 1, failed: expect.arrayContaining(['m3', 'm4']) });
    expect(result.failed).toHaveLength(2);
    expect(errors.sort()).toEqual(['m3', 'm4']);
    expect(health.queued).toEqual([{ keys: ['held'], delaySeconds: BUSY_RETRY_SECONDS }]);
  });
});
