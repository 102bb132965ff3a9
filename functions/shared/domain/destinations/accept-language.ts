/**
 * The visitor's languages from an Accept-Language header (RFC 9110 §12.5.4), most preferred first: quality values
 * decide, the header's order breaks ties, `q=0` ("not this one"), the `*` wildcard and malformed entries are left
 * out. Any string is read without throwing, and a long header costs no more than its first entries.
 */
const MAX_HEADER_LENGTH = 1024;
const MAX_ENTRIES = 32;
/** One entry: a language tag and at most a quality value (RFC 9110 gives Accept-Language no other parameter). */
const ENTRY = /^\s*([a-z]{1,8}(?:-[a-z0-9]{1,8})*)\s*(?:;\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*)?$/i;

/**
 * Browsers send few distinct headers (a language list per locale setting), so the redirect reads each once: the
 * last MEMORY_SIZE headers seen, dropped oldest first.
 */
const MEMORY_SIZE = 512;
const remembered = new Map<string, readonly string[]>();

export function acceptedLanguages(header: string | undefined): readonly string[] {
  if (!header) return [];
  // Only the first MAX_HEADER_LENGTH characters are read: the memory holds at most MEMORY_SIZE of those.
  const read = header.slice(0, MAX_HEADER_LENGTH);
  const known = remembered.get(read);
  if (known) return known;
  const languages = parsedLanguages(read);
  if (remembered.size >= MEMORY_SIZE) remembered.delete(remembered.keys().next().value as string);
  remembered.set(read, languages);
  return languages;
}

function parsedLanguages(header: string): readonly string[] {
  const entries: Array<{ tag: string; quality: number; position: number }> = [];
  const parts = header.split(',', MAX_ENTRIES);
  for (const [position, part] of parts.entries()) {
    const match = ENTRY.exec(part);
    if (!match?.[1]) continue;
    const quality = match[2] === undefined ? 1 : Number(match[2]);
    if (quality > 0) entries.push({ tag: match[1].toLowerCase(), quality, position });
  }
  entries.sort((a, b) => b.quality - a.quality || a.position - b.position);
  return Object.freeze([...new Set(entries.map((entry) => entry.tag))]);
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
