import { InvalidRequest } from '../../../../functions/shared/domain/errors';
import { parseLinkPatch, parseLinkRequest } from '../../../../functions/shared/domain/links/link-request';
import { Messages, OwnMessages } from '../../../../functions/shared/domain/messages';
import { smartFieldParsers } from '../../../../functions/shared/domain/destinations/smart-link-request';
import { MAX_RULES_BYTES } from '../../../../functions/shared/domain/destinations/smart-link';

const url = 'https://example.com/';
const rule = (when: unknown, ruleUrl = 'https://example.com/de') => ({ url: ruleUrl, when });

function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    if (error instanceof InvalidRequest) return error.message;
    throw error;
  }
  throw new Error('expected the request to be refused');
}
const messageFor = (input: object) => refusal(() => parseLinkRequest({ url, ...input }, smartFieldParsers));

describe('smart-link fields of a link request', () => {
  it('keep every condition, normalised: country codes upper case, languages canonical, instants in UTC, no repeats', () => {
    const input = {
      url,
      rules: [
        rule({ country: ['de', 'DE', ' at '], device: ['mobile', 'tablet'], os: ['ios'], language: ['pt-br', 'ZH-hant', 'de'], query: { ref: 'mail', promo: true } }),
        rule({ after: '2027-01-01T01:00:00+01:00', before: '2027-02-01T00:00:00Z' }, 'https://例え.jp/パス'),
      ],
      variants: [{ url: 'https://example.com/a', weight: 30 }, { url: 'https://example.com/b', weight: 70 }],
      forwardQuery: true,
      utm: { source: ' news ', campaign: 'Frühling' },
      expiredUrl: 'https://example.com/over',
    };
    const request = parseLinkRequest(input, smartFieldParsers);
    expect(request).toMatchObject({
      rules: [
        { url: 'https://example.com/de', when: { country: ['DE', 'AT'], device: ['mobile', 'tablet'], os: ['ios'], language: ['pt-BR', 'zh-Hant', 'de'], query: { ref: 'mail', promo: true } } },
        { url: 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9', when: { after: '2027-01-01T00:00:00.000Z', before: '2027-02-01T00:00:00.000Z' } },
      ],
      variants: [{ url: 'https://example.com/a', weight: 30 }, { url: 'https://example.com/b', weight: 70 }],
      forwardQuery: true,
      utm: { source: 'news', campaign: 'Frühling' },
      expiredUrl: 'https://example.com/over',
    });
  });

  it('need their parsers only when a request carries one of them (null on creation is absent)', () => {
    expect(() => parseLinkRequest({ url, rules: [rule({ os: ['ios'] })] })).toThrow(/without their parsers/);
    expect(() => parseLinkPatch({ utm: null })).toThrow(/without their parsers/);
    expect(parseLinkRequest({ url, alias: 'plain-one' })).toEqual({ url, alias: 'plain-one' });
  });

  it('treat null as absent on creation', () => {
    expect(parseLinkRequest({ url, rules: null, variants: null, forwardQuery: null, utm: null, expiredUrl: null })).toEqual({ url });
  });

  it.each([
    [{ rules: 'all' }, `rules: ${OwnMessages.rulesList}`],
    [{ rules: [] }, `rules: ${OwnMessages.rulesList}`],
    [{ rules: Array.from({ length: 21 }, () => rule({ country: ['DE'] })) }, `rules: ${OwnMessages.rulesList}`],
    [{ rules: [rule({ country: ['DE'] }), { url, when: { country: ['DE'] }, extra: 1 }] }, `rules[1]: ${OwnMessages.ruleFields}`],
    [{ rules: [rule({ country: ['DE'] }, 'ftp://example.com/')] }, `rules[0].url: ${Messages.invalidUrl}`],
    [{ rules: [rule({ country: ['DE'] }, 'http://localhost/')] }, `rules[0].url: ${Messages.invalidUrl}`],
    [{ rules: [{ url }] }, `rules[0].when: ${OwnMessages.conditionsObject}`],
    [{ rules: [rule({})] }, `rules[0].when: ${OwnMessages.conditionsEmpty}`],
    [{ rules: [rule({ city: ['Berlin'] })] }, `rules[0].when: ${OwnMessages.conditionUnknown('city')}`],
    [{ rules: [rule({ country: [] })] }, `rules[0].when.country: ${OwnMessages.conditionList('ISO 3166-1 alpha-2 country codes')}`],
    [{ rules: [rule({ country: 'DE' })] }, `rules[0].when.country: ${OwnMessages.conditionList('ISO 3166-1 alpha-2 country codes')}`],
    [{ rules: [rule({ country: ['DE', 'XX'] })] }, `rules[0].when.country[1]: ${OwnMessages.countryUnknown}`],
    [{ rules: [rule({ country: ['EU'] })] }, `rules[0].when.country[0]: ${OwnMessages.countryUnknown}`],
    [{ rules: [rule({ device: ['phone'] })] }, `rules[0].when.device[0]: ${OwnMessages.deviceUnknown}`],
    [{ rules: [rule({ os: ['symbian'] })] }, `rules[0].when.os[0]: ${OwnMessages.osUnknown}`],
    [{ rules: [rule({ language: ['german'] })] }, `rules[0].when.language[0]: ${OwnMessages.languageInvalid}`],
    [{ rules: [rule({ query: {} })] }, `rules[0].when.query: ${OwnMessages.queryCondition}`],
    [{ rules: [rule({ query: { ref: false } })] }, `rules[0].when.query.ref: ${OwnMessages.queryCondition}`],
    [{ rules: [rule({ after: 'tomorrow' })] }, `rules[0].when.after: ${OwnMessages.instantInvalid}`],
    [{ rules: [rule({ before: '2027-01-01T00:00:00' })] }, `rules[0].when.before: ${OwnMessages.instantInvalid}`],
    [{ rules: [rule({ after: '2027-01-01T00:00:00Z', before: '2027-01-01T00:00:00Z' })] }, `rules[0].when: ${OwnMessages.windowEmpty}`],
    [{ variants: [{ url, weight: 50 }] }, `variants: ${OwnMessages.variantsList}`],
    [{ variants: Array.from({ length: 5 }, () => ({ url, weight: 20 })) }, `variants: ${OwnMessages.variantsList}`],
    [{ variants: [{ url, weight: 50 }, { url, weight: 49 }] }, `variants: ${OwnMessages.variantWeightsTotal}`],
    [{ variants: [{ url, weight: 99.5 }, { url, weight: 0.5 }] }, `variants[0].weight: ${OwnMessages.variantWeight}`],
    [{ variants: [{ url, weight: 100 }, { url, weight: 0 }] }, `variants[0].weight: ${OwnMessages.variantWeight}`],
    [{ variants: [{ url, weight: 50 }, { url: 'javascript:alert(1)', weight: 50 }] }, `variants[1].url: ${Messages.invalidUrl}`],
    [{ forwardQuery: 'yes' }, `forwardQuery: ${OwnMessages.forwardQueryType}`],
    [{ utm: {} }, `utm: ${OwnMessages.utmObject}`],
    [{ utm: { source: 'a', channel: 'b' } }, `utm: ${OwnMessages.utmObject}`],
    [{ utm: { source: ' ' } }, `utm.source: ${OwnMessages.utmValue}`],
    [{ expiredUrl: 'not a url' }, `expiredUrl: ${Messages.invalidUrl}`],
  ])('%j is refused naming the field', (fields, message) => {
    expect(messageFor(fields)).toBe(message);
  });

  it('hold rules of up to 64 KiB, counted in UTF-8 bytes, on creation and in an edit', () => {
    // One rule of twenty conditions, 1,000 emoji a value (4 bytes each): about 80 KB, over the limit; ten values fit.
    const heavy = (count: number) => rule({ query: Object.fromEntries(Array.from({ length: count }, (_, q) => [`p${q}`, '😀'.repeat(1000)])) });
    expect(messageFor({ rules: [heavy(20)] })).toBe(`rules: ${OwnMessages.rulesSize(MAX_RULES_BYTES)}`);
    expect(refusal(() => parseLinkPatch({ rules: [heavy(20)] }, smartFieldParsers))).toBe(`rules: ${OwnMessages.rulesSize(MAX_RULES_BYTES)}`);
    expect(parseLinkRequest({ url, rules: [heavy(10)] }, smartFieldParsers).rules).toHaveLength(1);
  });

  it('an edit replaces rules or variants as a whole, removes them with null, and counts as a change', () => {
    expect(parseLinkPatch({ rules: null, variants: null, utm: null, expiredUrl: null, forwardQuery: false }, smartFieldParsers)).toEqual({ rules: null, variants: null, utm: null, expiredUrl: null, forwardQuery: false });
    expect(parseLinkPatch({ rules: [rule({ os: ['android'] })] }, smartFieldParsers)).toEqual({ rules: [rule({ os: ['android'] })] });
    expect(refusal(() => parseLinkPatch({ rules: [rule({ os: ['beos'] })] }, smartFieldParsers))).toBe(`rules[0].when.os[0]: ${OwnMessages.osUnknown}`);
  });
});
