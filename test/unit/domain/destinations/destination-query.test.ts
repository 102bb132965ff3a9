import fc from 'fast-check';
import { prepareDestination, withVisitorQuery, type QueryPairs } from '../../../../functions/shared/domain/destinations/destination-query';
import type { Utm } from '../../../../functions/shared/domain/destinations/smart-link';

/** What a visit does with a cached link's destination: prepared once, then the visitor's query appended. */
const decoratedDestination = (url: string, forwarded: QueryPairs, utm: Utm | undefined) => withVisitorQuery(prepareDestination(url, utm), forwarded);

describe('forwarding the visitor\'s query and setting UTM tags', () => {
  it('leaves the destination as it is when there is nothing to add', () => {
    expect(decoratedDestination('https://example.com/a?x=1#top', [], undefined)).toBe('https://example.com/a?x=1#top');
  });

  it('appends the visitor\'s parameters, the destination\'s own winning on a clash, before the fragment', () => {
    expect(decoratedDestination('https://example.com/a?ref=site#top', [['ref', 'mail'], ['page', '2'], ['page', '3']], undefined)).toBe('https://example.com/a?ref=site&page=2&page=3#top');
    expect(decoratedDestination('https://example.com/', [['q', 'a b&c'], ['ü', '✓']], undefined)).toBe('https://example.com/?q=a%20b%26c&%C3%BC=%E2%9C%93');
  });

  it('keeps the destination\'s own encoding byte for byte, and reads its names decoded when comparing', () => {
    expect(decoratedDestination('https://example.com/?a%20b=1&c=%2F', [['a b', 'visitor'], ['c', 'x'], ['d', '1']], undefined)).toBe('https://example.com/?a%20b=1&c=%2F&d=1');
  });

  it('sets utm_* on the destination, replacing its own and the visitor\'s of the same name', () => {
    expect(
      decoratedDestination('https://example.com/p?utm_source=old&utm_term=kept&x=1', [['utm_source', 'visitor'], ['utm_medium', 'visitor'], ['y', '2']], { source: 'news letter', medium: 'email' }),
    ).toBe('https://example.com/p?utm_term=kept&x=1&y=2&utm_source=news%20letter&utm_medium=email');
  });

  it('turns a lone surrogate, which no URL can carry, into U+FFFD instead of throwing', () => {
    expect(decoratedDestination('https://example.com/', [['a', 'x\uD800y'], ['\uDC00', 'z']], undefined)).toBe('https://example.com/?a=x%EF%BF%BDy&%EF%BF%BD=z');
  });

  it('drops the visitor\'s query rather than making a URL longer than browsers take', () => {
    const url = decoratedDestination('https://example.com/p', [['long', 'x'.repeat(9000)]], { campaign: 'c' });
    expect(url).toBe('https://example.com/p?utm_campaign=c');
  });

  it('always makes an ASCII URL that parses and carries every value it added, for any Unicode names and values', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 20 })), { maxLength: 5 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), (pairs, source) => {
        const url = decoratedDestination('https://example.com/path?own=1#frag', pairs, { source });
        expect(url).toMatch(/^[\x21-\x7e]+$/);
        const parsed = new URL(url);
        expect(parsed.hash).toBe('#frag');
        expect(parsed.searchParams.get('own')).toBe('1');
        expect(parsed.searchParams.get('utm_source')).toBe(source);
      }),
      { numRuns: 500 },
    );
  });
});
