import { campaignOf, viewerCity, viewerRegion } from '../../../../functions/shared/domain/analytics/click';
import { clickInLogLine } from '../../../../functions/shared/domain/analytics/click-lines';
import { agentTraits } from '../../../../functions/shared/domain/analytics/visitor-traits';
import { dimensionValue, MAX_DIMENSION_VALUE_LENGTH } from '../../../../functions/shared/domain/analytics/dimension-value';

describe('what the stats keep of a User-Agent', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36', { bot: false, browser: 'Chrome', os: 'Windows' }],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 19_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.0 Mobile/15E148 Safari/604.1', { bot: false, browser: 'Mobile Safari', os: 'iOS' }],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0', { bot: false, browser: 'Firefox', os: 'Linux' }],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', { bot: true }],
    ['curl/8.5.0', { bot: true }],
    ['python-requests/2.32', { bot: true }],
    ['Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/156.0', { bot: true }],
  ])('%s', (userAgent, traits) => {
    expect(agentTraits(userAgent)).toMatchObject(traits);
  });

  it('keeps family names only: no version, no device model, and no agent isbot does not know is a bot', () => {
    const traits = agentTraits('Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.1.2 Mobile Safari/537.36');
    expect(traits).toEqual({ bot: false, browser: 'Chrome', os: 'Android' });
    expect(agentTraits(undefined)).toEqual({ bot: false, browser: 'unknown', os: 'unknown' });
    expect(agentTraits('')).toEqual({ bot: false, browser: 'unknown', os: 'unknown' });
  });

  it('never throws on hostile input and bounds what it returns', () => {
    for (const userAgent of ['\u0000\u0001', 'a'.repeat(100_000), '𝕏'.repeat(300), '(((((((((((', 'Mozilla/5.0 (<script>)']) {
      const traits = agentTraits(userAgent);
      expect(traits.browser.length + traits.os.length).toBeLessThanOrEqual(4 * MAX_DIMENSION_VALUE_LENGTH);
    }
  });
});

describe('dimension values', () => {
  it('are kept as given, without control characters, cut on whole characters', () => {
    expect(dimensionValue('  <script>alert(1)</script> ', 'unknown')).toBe('<script>alert(1)</script>');
    expect(dimensionValue('São\u0000 Paulo\n', 'unknown')).toBe('São Paulo');
    expect(dimensionValue('', 'unknown')).toBe('unknown');
    expect(Array.from(dimensionValue('😀'.repeat(150), 'x'))).toHaveLength(MAX_DIMENSION_VALUE_LENGTH);
    expect(dimensionValue('😀'.repeat(150), 'x')).toBe('😀'.repeat(100));
  });

  it('name a region under its country, and only a well-formed one', () => {
    expect(viewerRegion('US', 'ca')).toBe('US-CA');
    expect(viewerRegion('GB', 'ENG')).toBe('GB-ENG');
    expect(viewerRegion('unknown', 'CA')).toBe('unknown');
    expect(viewerRegion('US', 'California!')).toBe('unknown');
    expect(viewerRegion('US', undefined)).toBe('unknown');
    expect(viewerCity(undefined)).toBe('unknown');
    expect(viewerCity('Zürich')).toBe('Zürich');
  });

  it('take the campaign from the visit\'s own query: the first of each parameter, bounded', () => {
    expect(campaignOf([['utm_source', 'newsletter'], ['utm_source', 'second'], ['utm_campaign', 'launch'], ['x', 'y']])).toEqual({ utmSource: 'newsletter', utmCampaign: 'launch' });
    expect(campaignOf([['utm_medium', '  '], ['utm_campaign', 'x'.repeat(500)]])).toEqual({ utmCampaign: 'x'.repeat(MAX_DIMENSION_VALUE_LENGTH) });
    expect(campaignOf([])).toEqual({});
  });
});

describe('issue 30\'s click line fields', () => {
  const base = { code: 'abc', at: '2026-11-22T10:00:00.000Z', country: 'DE', referrer: 'direct', device: 'desktop', counted: false };

  it('are read back when they are bounded text, and dropped otherwise (the line is not trusted further)', () => {
    const line = { ...base, bot: true, browser: 'Firefox', os: 'Linux', region: 'DE-BE', city: 'Berlin', utmSource: 'news', utmMedium: 'mail', utmCampaign: 'launch' };
    expect(clickInLogLine(JSON.stringify({ click: line }))).toEqual(line);
    expect(clickInLogLine(JSON.stringify({ click: { ...base, bot: 'yes', browser: 7, city: 'x'.repeat(1000), os: '' } }))).toEqual(base);
  });
});
