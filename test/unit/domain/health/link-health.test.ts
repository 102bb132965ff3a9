import {
  classify,
  destinationsOf,
  healthShardOf,
  HEALTH_SHARDS,
  nextHealth,
  toHealthView,
  worstOf,
  type LinkHealthRecord,
  type Observation,
} from '../../../../functions/shared/domain/health/link-health';
import { needsCheck } from '../../../../functions/shared/domain/health/health-triggers';
import { toLinkView, type LinkRecord } from '../../../../functions/shared/domain/links/link';

const URL_CHECKED = 'https://shop.example.com/spring';
const at = (hour: number) => new Date(Date.UTC(2026, 10, 26, hour)).toISOString();
const seen = (status: Observation['status'], hour: number, extra: Partial<Observation> = {}): Observation => ({ status, checkedAt: at(hour), ...extra });

describe('what an answer means', () => {
  it('2xx is ok, 3xx redirects (with where to, never followed), 4xx a client error, 5xx a server error', () => {
    expect(classify({ status: 204 }, URL_CHECKED, at(0))).toEqual({ status: 'ok', statusCode: 204, checkedAt: at(0) });
    expect(classify({ status: 301, location: '/autumn?x=1' }, URL_CHECKED, at(0))).toEqual({
      status: 'redirects',
      statusCode: 301,
      location: 'https://shop.example.com/autumn?x=1',
      checkedAt: at(0),
    });
    expect(classify({ status: 404 }, URL_CHECKED, at(0)).status).toBe('client-error');
    expect(classify({ status: 503 }, URL_CHECKED, at(0)).status).toBe('server-error');
    expect(classify({ status: 101 }, URL_CHECKED, at(0)).status).toBe('server-error');
  });

  it('no answer is unreachable, saying why in one word', () => {
    for (const failure of ['refused', 'dns', 'tls', 'timeout', 'connection'] as const) {
      expect(classify({ failure }, URL_CHECKED, at(0))).toEqual({ status: 'unreachable', error: failure, checkedAt: at(0) });
    }
  });

  it('a Location that is not an http(s) URL, or is absurdly long, is not shown', () => {
    expect(classify({ status: 302, location: 'javascript:alert(1)' }, URL_CHECKED, at(0))).toEqual({ status: 'redirects', statusCode: 302, checkedAt: at(0) });
    expect(classify({ status: 302, location: `https://x.example/${'a'.repeat(3000)}` }, URL_CHECKED, at(0)).location).toBeUndefined();
    // Where it leads is reported, not visited: a redirect to the metadata address is just a redirect.
    expect(classify({ status: 302, location: 'http://169.254.169.254/latest/meta-data/' }, URL_CHECKED, at(0)).location).toBe('http://169.254.169.254/latest/meta-data/');
  });

  it('a link is as healthy as its worst destination, checked when the latest of them was', () => {
    expect(worstOf([seen('ok', 3), seen('server-error', 1, { statusCode: 500 }), seen('redirects', 2)])).toEqual({ status: 'server-error', statusCode: 500, checkedAt: at(3) });
    expect(worstOf([])).toBeUndefined();
  });
});

describe('two checks in a row', () => {
  const run = (statuses: Array<Observation['status']>): LinkHealthRecord[] => {
    const states: LinkHealthRecord[] = [];
    statuses.reduce<LinkHealthRecord | undefined>((previous, status, index) => {
      const next = nextHealth(previous, seen(status, index));
      states.push(next);
      return next;
    }, undefined);
    return states;
  };

  it('one blip is no news: a single broken check between good ones never flips', () => {
    expect(run(['ok', 'server-error', 'ok', 'unreachable', 'ok']).map((state) => state.broken)).toEqual([false, false, false, false, false]);
  });

  it('two broken checks in a row make the link broken; two good ones in a row recover it', () => {
    const states = run(['ok', 'server-error', 'server-error', 'server-error', 'ok', 'server-error', 'ok', 'ok']);
    expect(states.map((state) => state.broken)).toEqual([false, false, true, true, true, true, true, false]);
  });

  it('broken statuses count together: a 500 then a timeout is two broken checks', () => {
    expect(run(['server-error', 'unreachable']).at(-1)?.broken).toBe(true);
    expect(run(['redirects', 'ok', 'redirects']).at(-1)?.broken).toBe(false);
  });

  it('since is when the status began, kept while it stays the same', () => {
    const states = run(['ok', 'ok', 'client-error', 'client-error']);
    expect(states.map((state) => state.since)).toEqual([at(0), at(0), at(2), at(2)]);
  });

  it('the same check seen again (a URL shared by two links, a task repeated) is not a second check', () => {
    const first = nextHealth(undefined, seen('server-error', 5));
    expect(nextHealth(first, seen('server-error', 5))).toBe(first);
    expect(nextHealth(first, seen('server-error', 4))).toBe(first);
    expect(nextHealth(first, seen('server-error', 6)).broken).toBe(true);
  });

  it('the view shows the observation and since, not the bookkeeping', () => {
    expect(toHealthView(nextHealth(undefined, seen('server-error', 1, { statusCode: 502 })))).toEqual({ status: 'server-error', statusCode: 502, checkedAt: at(1), since: at(1) });
  });
});

const link = (fields: Partial<LinkRecord> = {}): LinkRecord => ({ code: 'spring', url: URL_CHECKED, isAlias: false, createdAt: at(0), clicks: 0, owner: 'acct:a', ...fields });

describe('which destinations, and when', () => {
  it('url, every rule and variant, and expiredUrl, each once', () => {
    const smart = link({
      rules: [{ url: 'https://de.example.com/', when: { country: ['DE'] } }, { url: URL_CHECKED, when: { device: ['mobile'] } }],
      variants: [{ url: 'https://a.example.com/', weight: 50 }, { url: 'https://b.example.com/', weight: 50 }],
      expiredUrl: 'https://shop.example.com/over',
    } as Partial<LinkRecord>);
    expect(destinationsOf(smart)).toEqual([URL_CHECKED, 'https://de.example.com/', 'https://a.example.com/', 'https://b.example.com/', 'https://shop.example.com/over']);
  });

  it('leaves out a stored destination that does not parse, rather than failing', () => {
    expect(destinationsOf(link({ url: 'not a url', expiredUrl: 'https://shop.example.com/over' }))).toEqual(['https://shop.example.com/over']);
    expect(needsCheck(undefined, link({ url: 'http://[oops' }))).toBe(false);
  });

  it('a new link, a changed destination or a link turned on again is checked now; health writes and clicks are not', () => {
    expect(needsCheck(undefined, link())).toBe(true);
    expect(needsCheck(link(), link({ url: 'https://shop.example.com/autumn' }))).toBe(true);
    expect(needsCheck(link(), link({ expiredUrl: 'https://shop.example.com/over' }))).toBe(true);
    expect(needsCheck(link({ disabled: true }), link())).toBe(true);
    expect(needsCheck(link(), link({ clicks: 4, tags: ['x'] }))).toBe(false);
    expect(needsCheck(link(), link({ health: nextHealth(undefined, seen('ok', 1)) }))).toBe(false);
    expect(needsCheck(undefined, link({ owner: 'anonymous' }))).toBe(false);
    expect(needsCheck(link(), link({ url: 'https://shop.example.com/autumn', deleted: true }))).toBe(false);
    // Nothing a local run may check: nothing queued.
    expect(needsCheck(undefined, link(), (url) => url.startsWith('http://dest.example-shop.com:8080/'))).toBe(false);
    expect(needsCheck(undefined, link({ expiredUrl: 'http://dest.example-shop.com:8080/over' }), (url) => url.startsWith('http://dest.example-shop.com:8080/'))).toBe(true);
  });

  it('the link view shows health while the link may still send visitors on, not once it is used up or deleted', () => {
    const health = nextHealth(undefined, seen('client-error', 1, { statusCode: 404 }));
    expect(toLinkView(link({ health }), 'https://sho.rt', Date.parse(at(2))).health).toEqual({ status: 'client-error', statusCode: 404, checkedAt: at(1), since: at(1) });
    expect(toLinkView(link({ health, deleted: true }), 'https://sho.rt', Date.parse(at(2)))).not.toHaveProperty('health');
    expect(toLinkView(link({ health, retired: true }), 'https://sho.rt', Date.parse(at(2)))).not.toHaveProperty('health');
  });

  it('the due index spreads links over its shards', () => {
    const shards = new Set(Array.from({ length: 400 }, (_, index) => healthShardOf(`code${index}`)));
    expect(shards.size).toBe(HEALTH_SHARDS);
    expect(healthShardOf('same')).toBe(healthShardOf('same'));
  });
});
