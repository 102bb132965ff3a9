import { ImportMessages } from '../messages';

/**
 * How the peers' exports write dates, counts, tags and short links, read into one form. Each reader answers a value
 * or a reason (the row's problem), never throws: a bad cell is one row's problem, not the file's.
 */
export type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const refused = <T>(reason: string): Read<T> => ({ ok: false, reason });

/** ISO 8601 with or without a zone (`2024-03-07 10:00:00` from a SQL dump is read as UTC: the peers store UTC). */
const ISO_LIKE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
/** Epoch seconds (10 digits: 2001 to 2286) or milliseconds (13 digits). */
const EPOCH = /^\d{10}(?:\d{3})?$/;
/** Years a link can have been made or expire in; anything else is a typo or a placeholder (`0000-00-00`). */
const MIN_YEAR = 1990;
const MAX_YEAR = 9999;

/** An empty cell is no date; anything else must be one. */
export function readDate(field: string, cell: string | null | undefined): Read<string | undefined> {
  const text = (cell ?? '').trim();
  if (text === '') return ok(undefined);
  let ms: number;
  if (EPOCH.test(text)) {
    ms = text.length === 10 ? Number(text) * 1000 : Number(text);
  } else {
    const parts = ISO_LIKE.exec(text);
    if (!parts) return refused(ImportMessages.notADate(field));
    const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = parts;
    const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
    ms = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}.${fraction.padEnd(3, '0').slice(0, 3)}${offset}`);
    // Date.parse rolls 2024-02-31 over into March: a date that does not exist is refused instead.
    if (Number.isNaN(ms) || new Date(Date.parse(`${year}-${month}-${day}T00:00:00Z`)).getUTCDate() !== Number(day)) return refused(ImportMessages.notADate(field));
  }
  const year = new Date(ms).getUTCFullYear();
  if (Number.isNaN(ms) || year < MIN_YEAR || year > MAX_YEAR) return refused(ImportMessages.notADate(field));
  return ok(new Date(ms).toISOString());
}

/** No peer counts past this; a bigger figure is not a click total. */
const MAX_CLICKS = 1e15;

/** A click total: a whole number, thousands separated by commas or not (`1,234`); empty is none yet. */
export function readCount(field: string, cell: string | number | null | undefined): Read<number> {
  if (typeof cell === 'number') return Number.isInteger(cell) && cell >= 0 && cell <= MAX_CLICKS ? ok(cell) : refused(ImportMessages.notACount(field));
  const text = (cell ?? '').trim();
  if (text === '') return ok(0);
  if (!/^(\d{1,3}(,\d{3})+|\d+)$/.test(text)) return refused(ImportMessages.notACount(field));
  const count = Number(text.replaceAll(',', ''));
  return count <= MAX_CLICKS ? ok(count) : refused(ImportMessages.notACount(field));
}

/** Tags in one cell, split on `separator` (each peer has its own), each trimmed, empties dropped. */
export function splitTags(cell: string | undefined, separator: RegExp): string[] {
  return (cell ?? '').split(separator).map((tag) => tag.trim()).filter((tag) => tag !== '');
}

/** A percent-encoded slug as written; text that is not valid percent-encoding is taken as written. */
function decodedSlug(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A short link as exports write it, `bit.ly/abc` or `https://dub.sh/abc`: its host (lower-cased) and its slug (the
 * whole path, percent-escapes decoded). Split by hand, not by the URL parser, which would resolve `..` segments and
 * turn `\` into `/` in a slug.
 */
export function shortLinkParts(field: string, cell: string | undefined): Read<{ domain: string; slug: string }> {
  const text = (cell ?? '').trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const slash = text.indexOf('/');
  const domain = slash < 0 ? '' : text.slice(0, slash).toLowerCase();
  const slug = slash < 0 ? '' : decodedSlug(text.slice(slash + 1));
  if (!/^[\p{L}\p{N}.-]+(?::\d+)?$/u.test(domain) || slug === '') return refused(ImportMessages.notAShortLink(field));
  return ok({ domain, slug });
}

/** A text cell: empty is absent. */
export const optionalText = (cell: string | null | undefined): string | undefined => (cell === undefined || cell === null || cell === '' ? undefined : cell);

/**
 * Where a link lives when an export has a slug column of its own: that slug as written, on the domain column's
 * domain or the short URL's host; without a slug, both from the short URL.
 */
export function placeOf(slug: string | undefined, domain: string | undefined, shortUrl: string | undefined): Read<{ domain?: string; slug: string }> {
  if (slug === undefined || slug === '') return shortUrl?.trim() ? shortLinkParts('short URL', shortUrl) : refused(ImportMessages.fieldEmpty('slug'));
  const named = domain?.trim().toLowerCase() || (shortUrl?.trim() ? /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#]+)/i.exec(shortUrl.trim())?.[1]?.toLowerCase() : undefined);
  return ok(named === undefined ? { slug } : { domain: named, slug });
}
