import { parse } from 'csv-parse/sync';
import { OwnMessages } from '../../functions/shared/domain/messages';
import { asCloudFront, createApiKey, eventually, http, jsonHeaders, uniqueLoopbackAddress } from '../support/local-stack';
import { ISO_MS } from '../support/spec-shapes';
import { SKETCH_STANDARD_ERROR } from '../../functions/shared/domain/analytics/visitor-sketch';

/**
 * Issue 11 end to end: visits through the local stack, their click lines delivered by the local subscription
 * filter (as CloudWatch Logs would) to the aggregator, then GET /v2/links/{code}/stats, exact.
 */
const CHROME_DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 19_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.0 Mobile/15E148 Safari/604.1';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 19_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.0 Safari/604.1';
const CURL = 'curl/8.5.0';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const ROKU = 'Roku/DVP-14.0 (14.0.0.4)';

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createApiKey('PRO'));
});

async function shorten(fields: Record<string, unknown> = {}): Promise<string> {
  const response = await http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url: 'https://example.com/counted', ...fields } });
  return response.json<{ shortCode: string }>().shortCode;
}

/** Visits as CloudFront passes them on: its viewer country is believed only beside the origin secret. */
const visit = async (code: string, headers: Record<string, string>, method = 'GET') => http(method, `/${code}`, { headers: await asCloudFront(headers) });

type TopValues = { top: Array<{ value: string; clicks: number }>; other: number };
interface Stats {
  shortCode: string;
  total: number;
  bots: number;
  days: Array<{ date: string; clicks: number; bots: number; unique: number }>;
  unique: number;
  countries: Array<{ country: string; clicks: number }>;
  referrers: Array<{ host: string; clicks: number }>;
  devices: Record<string, number>;
  operatingSystems: TopValues;
}

const stats = async (code: string, query = '') => (await http('GET', `/v2/links/${code}/stats${query}`, { headers: jsonHeaders(apiKey) })).json<Stats>();

describe('click statistics', () => {
  it('count every person\'s 302 by day, country, referring host, device, browser, OS, region, city and campaign, bots apart, within 30 s', async () => {
    const code = await shorten();
    const visits: Array<Record<string, string>> = [
      { 'user-agent': CHROME_DESKTOP, 'cloudfront-viewer-country': 'DE', 'cloudfront-viewer-country-region': 'BE', 'cloudfront-viewer-city': 'Berlin', referer: 'https://news.example/story?id=1' },
      { 'user-agent': CHROME_DESKTOP, 'cloudfront-viewer-country': 'DE', 'cloudfront-viewer-city': '<script>alert(1)</script>', referer: 'https://www.news.example/other' },
      { 'user-agent': IPHONE, 'cloudfront-viewer-country': 'FR', referer: 'https://social.example/' },
      { 'user-agent': IPAD, 'cloudfront-viewer-country': 'fr' },
      { 'user-agent': ROKU, 'cloudfront-viewer-country': 'ZZZ', referer: 'android-app://com.example' },
    ];
    for (const headers of visits) expect((await visit(code, headers)).status).toBe(302);
    expect((await visit(`${code}?utm_source=newsletter&utm_medium=email&utm_campaign=launch`, { 'user-agent': CHROME_DESKTOP })).status).toBe(302);
    // Bots, redirected all the same: isbot's (curl, Googlebot), a HEAD request, a link-preview fetcher.
    expect((await visit(code, { 'user-agent': CURL, 'cloudfront-viewer-country': 'US' })).status).toBe(302);
    expect((await visit(code, { 'user-agent': GOOGLEBOT, 'cloudfront-viewer-country': 'US' })).status).toBe(302);
    expect((await visit(code, { 'user-agent': CHROME_DESKTOP }, 'HEAD')).status).toBe(302);
    expect((await visit(code, { 'user-agent': SLACK })).status).toBe(302);
    // Region and city straight to the API, without the origin secret: not CloudFront's word, not counted as such.
    expect((await http('GET', `/${code}`, { headers: { 'user-agent': IPHONE, 'cloudfront-viewer-country': 'US', 'cloudfront-viewer-country-region': 'CA', 'cloudfront-viewer-city': 'Forged' } })).status).toBe(302);
    expect((await visit('no-such-link-here', { 'user-agent': CHROME_DESKTOP })).status).toBe(404);

    const counted = await eventually(async () => {
      const body = await stats(code, '?days=7');
      expect([body.total, body.bots]).toEqual([7, 4]);
      return body;
    }, 30_000);
    const today = new Date().toISOString().slice(0, 10);
    expect(counted).toMatchObject({
      shortCode: code,
      total: 7,
      bots: 4,
      days: expect.arrayContaining([expect.objectContaining({ date: today, clicks: 7, bots: 4 })]),
      countries: [
        { country: 'DE', clicks: 2 },
        { country: 'FR', clicks: 2 },
        { country: 'unknown', clicks: 3 },
      ].sort((a, b) => b.clicks - a.clicks || a.country.localeCompare(b.country)),
      referrers: [
        { host: 'direct', clicks: 4 },
        { host: 'news.example', clicks: 2 },
        { host: 'social.example', clicks: 1 },
      ],
      devices: { desktop: 3, mobile: 2, tablet: 1, bot: 0, other: 1 },
      // A plain link has one destination (issue 18).
      destinations: { default: 7 },
      browsers: { top: [{ value: 'Chrome', clicks: 3 }, { value: 'Mobile Safari', clicks: 2 }, { value: 'Safari', clicks: 1 }, { value: 'unknown', clicks: 1 }], other: 0 },
      regions: { top: [{ value: 'unknown', clicks: 6 }, { value: 'DE-BE', clicks: 1 }], other: 0 },
      cities: { top: [{ value: 'unknown', clicks: 5 }, { value: '<script>alert(1)</script>', clicks: 1 }, { value: 'Berlin', clicks: 1 }], other: 0 },
      utmSources: { top: [{ value: 'newsletter', clicks: 1 }], other: 0 },
      utmMediums: { top: [{ value: 'email', clicks: 1 }], other: 0 },
      utmCampaigns: { top: [{ value: 'launch', clicks: 1 }], other: 0 },
    });
    expect(counted.operatingSystems.top.map((entry) => entry.value).sort()).toEqual(['Windows', 'iOS', 'unknown'].sort());
    expect(counted.days).toHaveLength(7);
    expect(counted.days.map((day) => day.date)).toEqual([...counted.days.map((day) => day.date)].sort());
    expect(counted.days[6]?.date).toBe(today);
    expect(counted.days.slice(0, 6).every((day) => day.clicks === 0)).toBe(true);
    const view = (await http('GET', `/v2/links/${code}`, { headers: jsonHeaders(apiKey) })).json<{ clicks: number }>();
    expect(view.clicks).toBe(counted.total);

    // Asked for, bots join every figure.
    const withBots = await stats(code, '?days=7&bots=include');
    expect([withBots.total, withBots.bots, withBots.days[6], withBots.devices.bot]).toEqual([11, 4, expect.objectContaining({ date: today, clicks: 11, bots: 4 }), 3]);
    expect(withBots.countries).toContainEqual({ country: 'US', clicks: 2 });
    const badBots = await http('GET', `/v2/links/${code}/stats?bots=all`, { headers: jsonHeaders(apiKey) });
    expect([badBots.status, badBots.json<{ message: string }>().message]).toEqual([400, OwnMessages.botsParameter]);

    // The same window as CSV (issue 20): a row per day and dimension value, the same numbers.
    const exported = await http('GET', `/v2/links/${code}/stats?days=7&format=csv`, { headers: jsonHeaders(apiKey) });
    expect([exported.status, exported.headers['content-type'], exported.headers['content-disposition']]).toEqual([200, 'text/csv; charset=utf-8', `attachment; filename="${code}-clicks-7d.csv"`]);
    const rows = parse(exported.text, { columns: true, cast: (value, context) => (context.column === 'clicks' ? Number(value) : value) }) as Array<{ date: string; dimension: string; value: string; clicks: number }>;
    expect(rows.filter((row) => row.dimension === 'clicks').map((row) => [row.date, row.clicks])).toEqual(counted.days.map((day) => [day.date, day.clicks]));
    expect(rows.filter((row) => row.dimension === 'bots').map((row) => [row.date, row.clicks])).toEqual(counted.days.map((day) => [day.date, day.bots]));
    const todays = (dimension: string) => Object.fromEntries(rows.filter((row) => row.date === today && row.dimension === dimension).map((row) => [row.value, row.clicks]));
    expect(todays('country')).toEqual(Object.fromEntries(counted.countries.map((entry) => [entry.country, entry.clicks])));
    expect(todays('referrer')).toEqual(Object.fromEntries(counted.referrers.map((entry) => [entry.host, entry.clicks])));
    expect(todays('device')).toEqual({ desktop: 3, mobile: 2, tablet: 1, other: 1 });
    expect(todays('destination')).toEqual({ default: 7 });
    expect(todays('city')).toEqual({ unknown: 5, Berlin: 1, '<script>alert(1)</script>': 1 });
    expect(todays('utmCampaign')).toEqual({ launch: 1 });
    const badFormat = await http('GET', `/v2/links/${code}/stats?format=xml`, { headers: jsonHeaders(apiKey) });
    expect([badFormat.status, badFormat.json<{ message: string }>().message]).toEqual([400, OwnMessages.statsFormatParameter]);
  }, 40_000);

  it('count a password link only on the 302 after the right password, and a maxClicks link once per click', async () => {
    const guarded = await shorten({ password: 'open sesame' });
    const address = uniqueLoopbackAddress();
    const form = await http('GET', `/${guarded}`, { headers: { accept: 'text/html' }, localAddress: address });
    const cookie = String(form.headers['set-cookie']).split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    const post = (password: string) =>
      http('POST', `/${guarded}`, { headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, accept: 'text/html', 'user-agent': CHROME_DESKTOP }, body: new URLSearchParams({ password, csrf }).toString(), localAddress: address });
    expect((await post('wrong')).status).toBe(401);
    expect((await post('open sesame')).status).toBe(302);

    const limited = await shorten({ maxClicks: 3 });
    // A bot first: shown the link's card, never its redirect, and the three clicks are still the people's (issue 30).
    const bot = await visit(limited, { 'user-agent': GOOGLEBOT });
    expect([bot.status, bot.headers.location]).toEqual([200, undefined]);
    for (let i = 0; i < 4; i += 1) await visit(limited, { 'user-agent': IPHONE });

    await eventually(async () => {
      expect((await stats(guarded)).total).toBe(1);
      expect((await stats(guarded)).devices).toMatchObject({ desktop: 1, bot: 0 });
      const limitedStats = await stats(limited);
      // A card is no redirect: not a click, not even a bot's.
      expect([limitedStats.total, limitedStats.bots]).toEqual([3, 0]);
      expect(limitedStats.devices.mobile).toBe(3);
    }, 30_000);
  }, 40_000);

  it('count 600 visits from 150 distinct (address, agent) pairs as 150 unique visitors, within the sketch\'s error', async () => {
    const code = await shorten();
    const agents = [CHROME_DESKTOP, IPHONE, IPAD];
    const pairs = Array.from({ length: 150 }, (_, i) => ({ address: `198.51.100.${Math.floor(i / 3) + 1}`, agent: agents[i % 3] as string }));
    for (let round = 0; round < 4; round += 1) {
      await Promise.all(
        pairs.map(async ({ address, agent }) => {
          expect((await visit(code, { 'user-agent': agent, 'cloudfront-viewer-address': `${address}:${40_000 + round}` })).status).toBe(302);
        }),
      );
    }
    const counted = await eventually(async () => {
      const body = await stats(code, '?days=1');
      expect(body.total).toBe(600);
      return body;
    }, 60_000);
    const error = Math.ceil(3 * SKETCH_STANDARD_ERROR * 150);
    expect(Math.abs(counted.unique - 150)).toBeLessThanOrEqual(error);
    expect(counted.days[0]?.unique).toBe(counted.unique);
  }, 120_000);

  it('add up the whole workspace from its own items (filtered by tag), and show the last hour live per minute', async () => {
    const { apiKey: workspaceKey } = await createApiKey('PRO');
    const create = async (fields: Record<string, unknown>) =>
      (await http('POST', '/v2/shorten', { headers: jsonHeaders(workspaceKey), body: { url: 'https://example.com/ws', ...fields } })).json<{ shortCode: string }>().shortCode;
    const spring = await create({ tags: ['Spring'] });
    const plain = await create({});
    const startedAt = Date.now();
    for (let i = 0; i < 3; i += 1) await visit(spring, { 'user-agent': IPHONE, 'cloudfront-viewer-address': `192.0.2.${i + 1}:443` });
    await visit(plain, { 'user-agent': CHROME_DESKTOP });
    await visit(plain, { 'user-agent': GOOGLEBOT });
    const get = async <T>(path: string) => (await http('GET', path, { headers: jsonHeaders(workspaceKey) })).json<T>();
    type Live = { minutes: Array<{ minute: string; clicks: number; bots: number }>; total: number };
    const live = await eventually(async () => {
      const body = await get<Live>('/v2/stats/live');
      // The bot's visit came last and may be in a later delivery: both figures are waited for.
      expect([body.total, body.minutes.reduce((sum, minute) => sum + minute.bots, 0)]).toEqual([4, 1]);
      return body;
    }, 30_000);
    // The aggregator's delay as measured here (docs/api.md): from the last visit to the live figure.
    process.stdout.write(`live hour caught up ${Date.now() - startedAt} ms after the first of five visits\n`);
    expect(live.minutes).toHaveLength(60);
    expect((await get<Live>(`/v2/links/${spring}/stats/live`)).total).toBe(3);

    type Workspace = { total: number; bots: number; unique: number; topLinks: Array<{ shortCode: string; clicks: number }>; days: Array<{ clicks: number }>; browsers: { top: Array<{ value: string; clicks: number }> } };
    const all = await eventually(async () => {
      const body = await get<Workspace>('/v2/stats?days=7');
      expect([body.total, body.bots]).toEqual([4, 1]);
      return body;
    }, 30_000);
    expect([all.bots, all.days.length]).toEqual([1, 7]);
    expect(all.topLinks).toEqual([{ shortCode: spring, clicks: 3 }, { shortCode: plain, clicks: 1 }]);
    expect(all.unique).toBe(4);
    expect(all.browsers.top).toEqual([{ value: 'Mobile Safari', clicks: 3 }, { value: 'Chrome', clicks: 1 }]);
    const tagged = await get<Workspace>('/v2/stats?days=7&tag=spring');
    expect([tagged.total, tagged.topLinks]).toEqual([3, [{ shortCode: spring, clicks: 3 }]]);
    expect((await get<Workspace>('/v2/stats?bots=include')).total).toBe(5);
    const badDomain = await http('GET', '/v2/stats?domain=not%20a%20domain', { headers: jsonHeaders(workspaceKey) });
    expect([badDomain.status, badDomain.json<{ message: string }>().message]).toEqual([400, OwnMessages.statsDomainParameter]);
    // Another workspace sees none of it.
    const others = (await http('GET', '/v2/stats', { headers: jsonHeaders(apiKey) })).json<Workspace>();
    expect(others.topLinks.map((link) => link.shortCode)).not.toContain(spring);
  }, 90_000);

  it('default to 30 days, refuse a bad days with a 400 naming it, and answer 404 for another account\'s link', async () => {
    const code = await shorten();
    expect((await stats(code)).days).toHaveLength(30);
    const bad = await http('GET', `/v2/links/${code}/stats?days=91`, { headers: jsonHeaders(apiKey) });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ statusCode: 400, timestamp: expect.stringMatching(ISO_MS), path: `/v2/links/${code}/stats`, method: 'GET', message: OwnMessages.daysParameter });
    const { apiKey: other } = await createApiKey('PRO');
    const hidden = await http('GET', `/v2/links/${code}/stats`, { headers: jsonHeaders(other) });
    expect(hidden.status).toBe(404);
    expect(hidden.json()).toEqual({ statusCode: 404, message: 'Link not found', error: 'Not Found' });
  });
});
