import fc from 'fast-check';
import { acceptedLanguages, languageMatches, negotiatedLanguage } from '../../../../functions/shared/domain/destinations/accept-language';

describe('reading Accept-Language', () => {
  it.each([
    ['de-DE,de;q=0.9,en;q=0.8', ['de-de', 'de', 'en']],
    ['en;q=0.5, fr', ['fr', 'en']],
    ['fr;q=0.5, de;q=0.5, it', ['it', 'fr', 'de']],
    ['en, de;q=0, *;q=0.1', ['en']],
    ['pt-BR ; q = 0.7 , es', ['es', 'pt-br']],
    ['en;q=1.5, de;q=abc, fr;q=0.001', ['fr']],
    ['EN-us, en-US', ['en-us']],
    ['', []],
    ['12345, ---, <script>', []],
  ])('%j is %j in order of preference, q=0 and junk left out', (header, languages) => {
    expect(acceptedLanguages(header)).toEqual(languages);
  });

  it('never throws and only returns well-formed lower-case tags, for any text of the whole of Unicode', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (header) => {
        const languages = acceptedLanguages(header);
        for (const tag of languages) expect(tag).toMatch(/^[a-z]{1,8}(-[a-z0-9]{1,8})*$/);
        expect(new Set(languages).size).toBe(languages.length);
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps the order of preference of any list of weighted tags', () => {
    const entry = fc.record({ tag: fc.constantFrom('de', 'en', 'fr', 'pt-br', 'ja'), quality: fc.integer({ min: 0, max: 1000 }) });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 10 }), (entries) => {
        const header = entries.map(({ tag, quality }) => `${tag};q=${(quality / 1000).toFixed(3)}`).join(', ');
        const best = new Map<string, { quality: number; position: number }>();
        entries.forEach(({ tag, quality }, position) => {
          const seen = best.get(tag);
          if (quality > 0 && (!seen || quality > seen.quality)) best.set(tag, { quality, position });
        });
        const expected = [...best.entries()].sort(([, a], [, b]) => b.quality - a.quality || a.position - b.position).map(([tag]) => tag);
        expect(acceptedLanguages(header)).toEqual(expected);
      }),
    );
  });

  it('answers a header seen before as the first time, however many others came between', () => {
    const first = acceptedLanguages('de-AT, de;q=0.8, en;q=0.1');
    for (let i = 0; i < 1_000; i += 1) acceptedLanguages(`x-${i}, en`);
    expect(acceptedLanguages('de-AT, de;q=0.8, en;q=0.1')).toEqual(first);
    expect(first).toEqual(['de-at', 'de', 'en']);
    expect(acceptedLanguages('x-999, en')).toEqual(['x-999', 'en']);
  });

  it('reads at most a bounded part of a huge header', () => {
    expect(acceptedLanguages(`${'x-'.repeat(100_000)}en`)).toEqual([]);
    expect(acceptedLanguages(Array.from({ length: 1000 }, () => 'en').join(','))).toEqual(['en']);
  });
});

describe('matching language ranges', () => {
  it.each([
    ['pt', 'pt', true],
    ['pt', 'pt-br', true],
    ['pt', 'pt-pt', true],
    ['pt-BR', 'pt-br', true],
    ['pt-BR', 'pt', false],
    ['pt-BR', 'pt-pt', false],
    ['pt', 'ptx', false],
    ['zh-Hant', 'zh-hant-tw', true],
  ])('%s matches %s: %s', (range, tag, matches) => {
    expect(languageMatches(range, tag)).toBe(matches);
  });

  it('serves the visitor\'s most preferred language that any of the link\'s ranges names', () => {
    expect(negotiatedLanguage(['de', 'fr'], ['fr', 'de'])).toBe('de');
    expect(negotiatedLanguage(['it', 'fr'], ['fr', 'de'])).toBe('fr');
    expect(negotiatedLanguage(['pt-br'], ['pt'])).toBe('pt-br');
    expect(negotiatedLanguage(['it'], ['fr', 'de'])).toBeUndefined();
    expect(negotiatedLanguage([], ['fr'])).toBeUndefined();
  });
});
