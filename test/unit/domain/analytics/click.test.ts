import { deviceClass, referrerHost, viewerCountry, type Click } from '../../../../functions/shared/domain/analytics/click';
import { countClicks } from '../../../../functions/shared/domain/analytics/click-counts';
import { clickInLogLine } from '../../../../functions/shared/domain/analytics/click-lines';
import { linkStats, statsWindow } from '../../../../functions/shared/domain/analytics/link-stats';

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
        days: [
          { day: '2026-11-21', clicks: 1, countries: { DE: 1 }, referrers: { direct: 1 }, devices: { mobile: 1 }, destinations: {} },
          { day: '2026-11-22', clicks: 2, countries: { FR: 1, DE: 1 }, referrers: { direct: 2 }, devices: { desktop: 2 }, destinations: { 'variants[1]': 1 } },
        ],
      },
      { code: 'b', uncounted: 1, days: [{ day: '2026-11-22', clicks: 1, countries: { DE: 1 }, referrers: { direct: 1 }, devices: { desktop: 1 }, destinations: {} }] },
    ]);
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

  it('has every day of the window, oldest first, ending today', () => {
    expect(statsWindow(3, nowMs)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
  });

  it('sums the window, keeps the top 10 by clicks (ties by name), and takes the all-time total from the link', () => {
    const countries = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`C${String.fromCharCode(65 + i)}`, i + 1]));
    const stats = linkStats('abc', 99, statsWindow(3, nowMs), [
      { day: '2026-11-22', clicks: 78, countries, referrers: { 'b.example': 2, 'a.example': 2 }, devices: { desktop: 78 }, destinations: {} },
      { day: '2026-11-01', clicks: 5, countries: { OLD: 5 }, referrers: {}, devices: { bot: 5 }, destinations: {} },
    ]);
    expect(stats.total).toBe(99);
    expect(stats.days).toEqual([
      { date: '2026-11-20', clicks: 0 },
      { date: '2026-11-21', clicks: 0 },
      { date: '2026-11-22', clicks: 78 },
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
    const day = (date: string, clicks: number, destinations: Record<string, number>) => ({ day: date, clicks, countries: {}, referrers: {}, devices: {}, destinations });
    const stats = linkStats('abc', 30, statsWindow(3, nowMs), [
      day('2026-11-20', 4, {}),
      day('2026-11-21', 10, { 'variants[0]': 3, 'variants[1]': 5 }),
      day('2026-11-22', 6, { 'variants[1]': 2, 'rules[0]': 1, expiredUrl: 3 }),
    ]);
    expect(stats.destinations).toEqual({ default: 6, 'variants[0]': 3, 'variants[1]': 7, 'rules[0]': 1, expiredUrl: 3 });
    expect(linkStats('abc', 0, statsWindow(3, nowMs), []).destinations).toEqual({});
  });
});
