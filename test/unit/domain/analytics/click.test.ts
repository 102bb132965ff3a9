import { deviceClass, referrerHost, viewerCountry, type Click } from '../../../../functions/shared/domain/analytics/click';
import { countClicks } from '../../../../functions/shared/domain/analytics/click-counts';
import { clickInLogLine } from '../../../../functions/shared/domain/analytics/click-lines';
import { statsWindow } from '../../../../functions/shared/domain/analytics/link-stats';
import { windowStats } from '../../../../functions/shared/domain/analytics/window-stats';
import { dayOf } from '../../../support/day-counts';

describe('device classes', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36', 'desktop'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/19.0 Safari/605.1.15', 'desktop'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0', 'desktop'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 19_0 like Mac OS X) Mobile/15E148 Safari/604.1', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 Chrome/156.0 Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (iPad; CPU OS 19_0 like Mac OS X) Safari/604.1', 'tablet'],
    ['Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 Chrome/156.0 Safari/537.36', 'tablet'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'bot'],
    ['curl/8.5.0', 'bot'],
    ['python-requests/2.32', 'bot'],
    ['Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/156.0', 'bot'],
    [undefined, 'bot'],
    ['', 'bot'],
    ['Roku/DVP-14.0', 'other'],
  ])('%s is %s', (userAgent, device) => {
    expect(deviceClass(userAgent)).toBe(device);
  });
});

describe('referring hosts', () => {
  it.each([
    [undefined, 'direct'],
    ['', 'direct'],
    ['https://news.example/a/b?c=d#e', 'news.example'],
    ['https://WWW.News.Example:8443/', 'news.example'],
    ['android-app://com.example.app', 'direct'],
    ['not a url', 'direct'],
    ['https://münchen.de/', 'xn--mnchen-3ya.de'],
  ])('%s is %s: the host only, never the page', (referer, host) => {
    expect(referrerHost(referer)).toBe(host);
  });
});

describe('viewer countries', () => {
  it.each([
    ['DE', 'DE'],
    ['fr', 'FR'],
    [undefined, 'unknown'],
    ['XYZ', 'unknown'],
    ['1A', 'unknown'],
  ])('%s is %s', (header, country) => {
    expect(viewerCountry(header)).toBe(country);
  });
});

const click = (fields: Partial<Click>): Click => ({ code: 'abc', at: '2026-11-22T10:00:00.000Z', country: 'DE', referrer: 'direct', device: 'desktop', counted: false, ...fields });

/** What a click line written before issue 30 gives the new dimensions. */
const unknown = (clicks: number) => ({ browser: { unknown: clicks }, os: { unknown: clicks }, region: { unknown: clicks }, city: { unknown: clicks } });

describe('summing a delivery', () => {
  it('sums per link, day and dimension, sorted, and counts what the link itself still lacks', () => {
    const counts = countClicks([
      click({ code: 'b' }),
      click({ code: 'a', country: 'FR' }),
      click({ code: 'a', at: '2026-11-21T23:59:59.999Z', device: 'mobile' }),
      click({ code: 'a', counted: true, destination: 'variants[1]' }),
    ]);
    expect(counts).toEqual([
      {
        code: 'a',
        uncounted: 2,
        bots: 0,
        days: [
          dayOf('2026-11-21', 1, { country: { DE: 1 }, referrer: { direct: 1 }, device: { mobile: 1 }, ...unknown(1) }),
          dayOf('2026-11-22', 2, { country: { FR: 1, DE: 1 }, referrer: { direct: 2 }, device: { desktop: 2 }, destination: { 'variants[1]': 1 }, ...unknown(2) }),
        ],
      },
      { code: 'b', uncounted: 1, bots: 0, days: [dayOf('2026-11-22', 1, { country: { DE: 1 }, referrer: { direct: 1 }, device: { desktop: 1 }, ...unknown(1) })] },
    ]);
  });

  it('counts bots apart: never among the clicks, the link\'s own count or the people\'s dimensions', () => {
    const [link] = countClicks([click({}), click({ bot: true, country: 'US', device: 'bot', browser: 'curl' }), click({ bot: true, counted: true })]);
    expect(link).toMatchObject({ code: 'abc', uncounted: 1, bots: 2 });
    expect(link?.days[0]).toMatchObject({ clicks: 1, bots: 2 });
    expect(link?.days[0]?.dimensions.country).toEqual({ DE: 1 });
    expect(link?.days[0]?.botDimensions.country).toEqual({ US: 1, DE: 1 });
    expect(link?.days[0]?.botDimensions.browser).toEqual({ curl: 1, unknown: 1 });
  });

  it('breaks people\'s clicks down by browser, OS, region, city and campaign, leaving out parameters a visit did not carry', () => {
    const [link] = countClicks([
      click({ browser: 'Firefox', os: 'Linux', region: 'DE-BE', city: 'Berlin', utmSource: 'newsletter', utmCampaign: 'launch' }),
      click({ browser: 'Firefox', os: 'Windows', city: '<script>alert(1)</script>' }),
    ]);
    const { dimensions } = link?.days[0] ?? dayOf('', 0);
    expect(dimensions.browser).toEqual({ Firefox: 2 });
    expect(dimensions.os).toEqual({ Linux: 1, Windows: 1 });
    expect(dimensions.region).toEqual({ 'DE-BE': 1, unknown: 1 });
    expect(dimensions.city).toEqual({ Berlin: 1, '<script>alert(1)</script>': 1 });
    expect([dimensions.utmSource, dimensions.utmMedium, dimensions.utmCampaign]).toEqual([{ newsletter: 1 }, {}, { launch: 1 }]);
  });
});

describe('click lines', () => {
  it('are read back from the redirect\'s JSON log lines, and nothing else is a click', () => {
    const line = JSON.stringify({ level: 'INFO', message: 'click', click: click({}) });
    expect(clickInLogLine(line)).toEqual(click({}));
    expect(clickInLogLine('{"level":"INFO","message":"request failed"}')).toBeUndefined();
    expect(clickInLogLine('not json')).toBeUndefined();
    expect(clickInLogLine(JSON.stringify({ click: { ...click({}), device: 'toaster' } }))).toBeUndefined();
    expect(clickInLogLine(JSON.stringify({ click: click({ destination: 'rules[19]' }) }))).toEqual(click({ destination: 'rules[19]' }));
    for (const destination of ['rules[20]', 'variants[4]', 'elsewhere', 7]) {
      expect(clickInLogLine(JSON.stringify({ click: { ...click({}), destination } }))).toBeUndefined();
    }
  });
});

describe('the stats body', () => {
  const nowMs = Date.parse('2026-11-22T10:00:00.000Z');
  const window = statsWindow(3, nowMs);

  it('has every day of the window, oldest first, ending today', () => {
    expect(window).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
  });

  it('sums the window, keeps the top 10 countries and hosts by clicks (ties by name), and leaves out days outside it', () => {
    const countries = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`C${String.fromCharCode(65 + i)}`, i + 1]));
    const stats = windowStats(window, [
      dayOf('2026-11-22', 78, { country: countries, referrer: { 'b.example': 2, 'a.example': 2 }, device: { desktop: 78 } }),
      dayOf('2026-11-01', 5, { country: { OLD: 5 }, device: { mobile: 5 } }),
    ], false);
    expect(stats.days).toEqual([
      { date: '2026-11-20', clicks: 0, bots: 0, unique: 0 },
      { date: '2026-11-21', clicks: 0, bots: 0, unique: 0 },
      { date: '2026-11-22', clicks: 78, bots: 0, unique: 0 },
    ]);
    expect(stats.countries).toHaveLength(10);
    expect(stats.countries[0]).toEqual({ country: 'CL', clicks: 12 });
    expect(stats.countries.map((entry) => entry.country)).not.toContain('OLD');
    expect(stats.referrers).toEqual([
      { host: 'a.example', clicks: 2 },
      { host: 'b.example', clicks: 2 },
    ]);
    expect(stats.devices).toEqual({ desktop: 78, mobile: 0, tablet: 0, bot: 0, other: 0 });
    expect(stats.destinations).toEqual({ default: 78 });
  });

  it('counts clicks per destination, the link\'s url taking the clicks no other destination took (older days included)', () => {
    const stats = windowStats(window, [
      dayOf('2026-11-20', 4),
      dayOf('2026-11-21', 10, { destination: { 'variants[0]': 3, 'variants[1]': 5 } }),
      dayOf('2026-11-22', 6, { destination: { 'variants[1]': 2, 'rules[0]': 1, expiredUrl: 3 } }),
    ], false);
    expect(stats.destinations).toEqual({ default: 6, 'variants[0]': 3, 'variants[1]': 7, 'rules[0]': 1, expiredUrl: 3 });
    expect(windowStats(window, [], false).destinations).toEqual({});
  });

  it('keeps the top 50 values of the new dimensions and sums the rest as other, summing items of the same day (a workspace\'s links)', () => {
    const cities = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`city ${String(i).padStart(2, '0')}`, 100 - i]));
    const stats = windowStats(window, [dayOf('2026-11-22', 10, { city: cities }), dayOf('2026-11-22', 5, { city: { 'city 59': 100 } })], false);
    expect(stats.cities.top).toHaveLength(50);
    expect(stats.cities.top[0]).toEqual({ value: 'city 59', clicks: 141 });
    expect(stats.cities.other).toBe(Array.from({ length: 10 }, (_, i) => 100 - 49 - i).reduce((a, b) => a + b, 0));
    expect(stats.days[2]).toEqual({ date: '2026-11-22', clicks: 15, bots: 0, unique: 0 });
  });

  it('adds bots to every figure only when asked', () => {
    const day = { ...dayOf('2026-11-22', 2, { country: { DE: 2 }, device: { desktop: 2 } }), bots: 3 };
    day.botDimensions.country = { US: 3 };
    day.botDimensions.device = { bot: 3 };
    const apart = windowStats(window, [day], false);
    expect([apart.days[2], apart.countries, apart.devices.bot, apart.destinations]).toEqual([{ date: '2026-11-22', clicks: 2, bots: 3, unique: 0 }, [{ country: 'DE', clicks: 2 }], 0, { default: 2 }]);
    const together = windowStats(window, [day], true);
    expect([together.days[2], together.countries, together.devices.bot, together.destinations]).toEqual([
      { date: '2026-11-22', clicks: 5, bots: 3, unique: 0 },
      [{ country: 'US', clicks: 3 }, { country: 'DE', clicks: 2 }],
      3,
      { default: 5 },
    ]);
  });
});
