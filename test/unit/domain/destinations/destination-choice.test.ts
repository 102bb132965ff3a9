import { chooseDestination, type VisitorSignals } from '../../../../functions/shared/domain/destinations/destination-choice';
import type { Rule, SmartFields } from '../../../../functions/shared/domain/destinations/smart-link';

const nowMs = Date.parse('2026-11-22T10:00:00.000Z');
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0';
const PIXEL = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36';

const link = (fields: SmartFields) => ({ url: 'https://example.com/default', ...fields });
const visitor = (signals: Partial<VisitorSignals> = {}): VisitorSignals => ({ query: [], ...signals });
const rule = (name: string, when: Rule['when']): Rule => ({ url: `https://example.com/${name}`, when });
const sentTo = (fields: SmartFields, signals: Partial<VisitorSignals> = {}, at = nowMs) => chooseDestination(link(fields), visitor(signals), at).url.replace('https://example.com/', '');

describe('each condition', () => {
  it('country: the viewer country CloudFront names, any case', () => {
    const rules = [rule('de', { country: ['DE', 'AT'] })];
    expect(sentTo({ rules }, { country: 'at' })).toBe('de');
    expect(sentTo({ rules }, { country: 'FR' })).toBe('default');
    expect(sentTo({ rules }, {})).toBe('default');
  });

  it('device: the stats\' device classes; bots and other devices match none', () => {
    const rules = [rule('phone', { device: ['mobile'] }), rule('tablet', { device: ['tablet'] }), rule('desk', { device: ['desktop'] })];
    expect(sentTo({ rules }, { userAgent: IPHONE })).toBe('phone');
    expect(sentTo({ rules }, { userAgent: IPAD })).toBe('tablet');
    expect(sentTo({ rules }, { userAgent: WINDOWS })).toBe('desk');
    expect(sentTo({ rules }, { userAgent: 'curl/8.4.0' })).toBe('default');
  });

  it('os: iOS and Android apart, whatever the device', () => {
    const rules = [rule('app-store', { os: ['ios'] }), rule('play', { os: ['android'] })];
    expect(sentTo({ rules }, { userAgent: IPAD })).toBe('app-store');
    expect(sentTo({ rules }, { userAgent: PIXEL })).toBe('play');
    expect(sentTo({ rules }, { userAgent: WINDOWS })).toBe('default');
    expect(sentTo({ rules }, {})).toBe('default');
  });

  it('language: in the visitor\'s order of preference, whatever the rules\' order; q=0 is a refusal', () => {
    const rules = [rule('fr', { language: ['fr'] }), rule('de', { language: ['de'] }), rule('br', { language: ['pt-BR'] }), rule('pt', { language: ['pt'] })];
    expect(sentTo({ rules }, { acceptLanguage: 'de-CH, fr;q=0.5' })).toBe('de');
    expect(sentTo({ rules }, { acceptLanguage: 'it, fr;q=0.5, de;q=0.4' })).toBe('fr');
    expect(sentTo({ rules }, { acceptLanguage: 'pt-BR' })).toBe('br');
    expect(sentTo({ rules }, { acceptLanguage: 'pt-PT' })).toBe('pt');
    expect(sentTo({ rules }, { acceptLanguage: 'fr;q=0, en' })).toBe('default');
    expect(sentTo({ rules }, {})).toBe('default');
  });

  it('query: an exact value, or present with any value, case-sensitive names', () => {
    const rules = [rule('exact', { query: { ref: 'mail' } }), rule('any', { query: { promo: true } })];
    expect(sentTo({ rules }, { query: [['ref', 'mail']] })).toBe('exact');
    expect(sentTo({ rules }, { query: [['ref', 'Mail']] })).toBe('default');
    expect(sentTo({ rules }, { query: [['ref', 'x'], ['ref', 'mail']] })).toBe('exact');
    expect(sentTo({ rules }, { query: [['promo', '']] })).toBe('any');
    expect(sentTo({ rules }, { query: [['Promo', '1']] })).toBe('default');
  });

  it('after and before: a window that includes its start and excludes its end', () => {
    const rules = [rule('launch', { after: '2026-12-01T00:00:00.000Z' }), rule('teaser', { before: '2026-12-01T00:00:00.000Z', after: '2026-11-01T00:00:00.000Z' })];
    expect(sentTo({ rules }, {}, Date.parse('2026-12-01T00:00:00.000Z'))).toBe('launch');
    expect(sentTo({ rules }, {}, Date.parse('2026-11-30T23:59:59.999Z'))).toBe('teaser');
    expect(sentTo({ rules }, {}, Date.parse('2026-10-31T23:59:59.999Z'))).toBe('default');
  });
});

describe('rules together', () => {
  it('need every condition of a rule, and the first rule that holds wins', () => {
    const rules = [rule('de-iphone', { country: ['DE'], os: ['ios'] }), rule('de', { country: ['DE'] }), rule('iphone', { os: ['ios'] })];
    expect(sentTo({ rules }, { country: 'DE', userAgent: IPHONE })).toBe('de-iphone');
    expect(sentTo({ rules }, { country: 'DE', userAgent: WINDOWS })).toBe('de');
    expect(sentTo({ rules }, { country: 'FR', userAgent: IPHONE })).toBe('iphone');
    expect(sentTo({ rules }, { country: 'FR', userAgent: WINDOWS })).toBe('default');
  });

  it('label the destination for the stats', () => {
    const rules = [rule('a', { country: ['DE'] }), rule('b', { country: ['FR'] })];
    expect(chooseDestination(link({ rules }), visitor({ country: 'FR' }), nowMs).label).toBe('rules[1]');
    expect(chooseDestination(link({ rules }), visitor({ country: 'IT' }), nowMs).label).toBe('default');
  });

  it('come before variants, which apply only when no rule holds', () => {
    const fields = { rules: [rule('de', { country: ['DE'] })], variants: [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 50 }] };
    expect(chooseDestination(link(fields), visitor({ country: "DE" }), nowMs, { draw: () => 0 })).toEqual({ url: 'https://example.com/de', label: 'rules[0]' });
    expect(chooseDestination(link(fields), visitor({ country: "FR" }), nowMs, { draw: () => 0.7 })).toEqual({ url: 'https://example.com/b', label: 'variants[1]', drawnVariant: 1 });
  });

  it('decorate every destination with the UTM tags and the forwarded query', () => {
    const fields = { rules: [rule('de', { country: ['DE'] })], forwardQuery: true, utm: { campaign: 'launch' } };
    expect(sentTo(fields, { country: 'DE', query: [['x', '1']] })).toBe('de?x=1&utm_campaign=launch');
    expect(sentTo(fields, { query: [['x', '1']] })).toBe('default?x=1&utm_campaign=launch');
    expect(sentTo({ utm: { campaign: 'launch' } }, { query: [['x', '1']] })).toBe('default?utm_campaign=launch');
  });
});

describe('variants', () => {
  const variants = [
    { url: 'https://example.com/a', weight: 70 },
    { url: 'https://example.com/b', weight: 20 },
    { url: 'https://example.com/c', weight: 10 },
  ];

  it('are drawn by weight for a browser without a cookie, which is then told its variant', () => {
    expect(chooseDestination(link({ variants }), visitor(), nowMs, { draw: () => 0.699 })).toMatchObject({ label: 'variants[0]', drawnVariant: 0 });
    expect(chooseDestination(link({ variants }), visitor(), nowMs, { draw: () => 0.7 })).toMatchObject({ label: 'variants[1]', drawnVariant: 1 });
    expect(chooseDestination(link({ variants }), visitor(), nowMs, { draw: () => 0.9999 })).toMatchObject({ label: 'variants[2]', drawnVariant: 2 });
  });

  it('keep a browser on the variant its cookie holds, and draw again when the cookie names none', () => {
    expect(chooseDestination(link({ variants }), visitor({ variant: 2 }), nowMs, { draw: () => 0 })).toEqual({ url: 'https://example.com/c', label: 'variants[2]' });
    expect(chooseDestination(link({ variants }), visitor({ variant: 3 }), nowMs, { draw: () => 0 })).toMatchObject({ label: 'variants[0]', drawnVariant: 0 });
  });

  it('split 10,000 visits within 2 points of each weight', () => {
    const counts = [0, 0, 0];
    for (let visit = 0; visit < 10_000; visit += 1) {
      const { drawnVariant } = chooseDestination(link({ variants }), visitor(), nowMs);
      counts[drawnVariant ?? -1] = (counts[drawnVariant ?? -1] ?? 0) + 1;
    }
    variants.forEach(({ weight }, index) => expect(Math.abs((counts[index] ?? 0) / 100 - weight)).toBeLessThanOrEqual(2));
  });
});

describe('a plain link', () => {
  it('goes to its url untouched, whatever the visitor sends', () => {
    expect(chooseDestination(link({}), visitor({ query: [['x', '1']], variant: 1, country: 'DE' }), nowMs)).toEqual({ url: 'https://example.com/default', label: 'default' });
  });
});
