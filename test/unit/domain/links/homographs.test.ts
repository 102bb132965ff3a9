import { isHomographHost } from '../../../../functions/shared/domain/links/homographs';

/** Host names as the URL parser hands them over: punycode for anything beyond ASCII. */
const host = (name: string) => new URL(`https://${name}/`).hostname;

describe('homograph host names', () => {
  it.each([
    ['a Cyrillic а among Latin letters', 'аpple.com'],
    ['Greek omicrons among Latin letters', 'gοοgle.com'],
    ['an Armenian օ among Latin letters', 'gօogle.com'],
    ['a Latin dotless ı in a Latin label', 'paypaı.com'],
    ['a Latin script ɡ in a Latin label', 'ɡoogle.com'],
    ['a whole-Cyrillic look-alike under .com', 'аррӏе.com'],
    ['a mixed label below the registered name', 'lоgin.example.com'],
  ])('refuses %s (%s)', (_why, name) => {
    expect(isHomographHost(host(name))).toBe(true);
  });

  it.each([
    ['plain ASCII', 'example.com'],
    ['German with umlauts', 'münchen.de'],
    ['Russian under .рф', 'пример.рф'],
    ['Japanese', '例え.jp'],
    ['Greek under .ελ', 'παράδειγμα.ελ'],
    ['Cyrillic that looks like nothing Latin, under .com', 'пример.com'],
    ['Latin next to CJK in one label', 'shop東京.jp'],
    ['a French name', 'café.fr'],
    ['full-width letters, which the parser maps to ASCII', 'ｅｘａｍｐｌｅ.com'],
  ])('accepts %s (%s)', (_why, name) => {
    expect(isHomographHost(host(name))).toBe(false);
  });
});
