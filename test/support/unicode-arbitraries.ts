import fc from 'fast-check';

/**
 * Text from the whole of Unicode, weighted towards what breaks software: astral characters, control characters,
 * bidi overrides, zero-width characters, lone surrogates (which JSON can carry as \ud800 escapes).
 */
const TROUBLEMAKERS = [
  '\u0000', '\u0007', '\t', '\n', '\r', '\u007f', '\u0085', // controls
  '\u202e', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u200f', // bidi overrides and isolates
  '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', // zero-width
  '😀', '𝕒', '𠀀', '\u{10ffff}', // astral
  'ü', 'а', 'ı', 'ß', '例', // letters that look or fold like others
  '%', '%ff', '%ED%A0%80', '"', '<', '\\', '/', '?', '#', '&', '=', ';', ':', '@',
];
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

export const anyCharacter = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 4 },
  { arbitrary: fc.constantFrom(...TROUBLEMAKERS), weight: 3 },
  { arbitrary: loneSurrogate, weight: 1 },
);

export const anyText = (maxLength = 40) => fc.string({ unit: anyCharacter, maxLength });

/** Percent-encodes anything, lone surrogates too (as the three bytes WTF-8 gives them, which no decoder accepts). */
export function percentEncodeAnything(text: string): string {
  let encoded = '';
  for (const char of text) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      encoded += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    } else {
      encoded += encodeURIComponent(char);
    }
  }
  return encoded;
}

/** Escapes no decoder accepts: truncated, non-hex, overlong and surrogate encodings. */
export const malformedEscape = fc.constantFrom('%', '%f', '%zz', '%%', '%ff%fe', '%C0%AF', '%E0%A4%A', '%ED%A0%80', '%F4%90%80%80', '%80');

/** A path segment as a client might send it: encoded text, malformed escapes, or both. */
export const anyPathSegment = fc.oneof(
  anyText(30).map(percentEncodeAnything),
  malformedEscape,
  fc.tuple(anyText(10).map(percentEncodeAnything), malformedEscape, anyText(10).map(percentEncodeAnything)).map((parts) => parts.join('')),
);
