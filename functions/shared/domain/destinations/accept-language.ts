/**
 * The visitor's languages from an Accept-Language header (RFC 9110 §12.5.4), most preferred first: quality values
 * decide, the header's order breaks ties, `q=0` ("not this one"), the `*` wildcard and malformed entries are left
 * out. Any string is read without throwing, and a long header costs no more than its first entries.
 */
const MAX_HEADER_LENGTH = 1024;
const MAX_ENTRIES = 32;
const LANGUAGE_TAG = /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/i;
const QUALITY = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i;

export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const entries: Array<{ tag: string; quality: number; position: number }> = [];
  header
    .slice(0, MAX_HEADER_LENGTH)
    .split(',', MAX_ENTRIES)
    .forEach((entry, position) => {
      const [tag = '', ...parameters] = entry.split(';').map((part) => part.trim());
      if (!LANGUAGE_TAG.test(tag)) return;
      const weight = parameters.find((parameter) => /^q\s*=/i.test(parameter))?.replace(/\s+/g, '');
      const quality = weight === undefined ? 1 : QUALITY.test(weight) ? Number(weight.slice(2)) : 0;
      if (quality > 0) entries.push({ tag: tag.toLowerCase(), quality, position });
    });
  entries.sort((a, b) => b.quality - a.quality || a.position - b.position);
  return [...new Set(entries.map((entry) => entry.tag))];
}

/** RFC 4647 basic filtering: `pt` matches `pt`, `pt-BR` and `pt-PT`; `pt-BR` matches `pt-BR` only (any case). */
export function languageMatches(range: string, tag: string): boolean {
  const lowered = range.toLowerCase();
  return tag === lowered || tag.startsWith(`${lowered}-`);
}

/**
 * The one language a link serves this visitor in: the visitor's most preferred language that any of the link's
 * language ranges matches. Rules naming other languages then do not apply, so with rules for `fr` and `de` a
 * visitor asking `de, fr;q=0.5` gets the `de` rule whatever the rules' order.
 */
export function negotiatedLanguage(visitorLanguages: readonly string[], linkRanges: readonly string[]): string | undefined {
  return visitorLanguages.find((tag) => linkRanges.some((range) => languageMatches(range, tag)));
}
