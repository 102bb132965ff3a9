/*
 * This service's own columns (source `csv`): those of `shortener import` (clients/csv-import/link-rows.ts: url,
 * alias, domain, tags split on commas or blanks, expiresIn in seconds), the results file's shortUrl, and the history
 * an export of another service adds: title, createdAt, expiresAt, clicks.
 */
import { optionalText, placeOf, readCount, readDate, splitTags, type Read } from './field-readers';
import { readCsvTable, type ColumnNames } from './csv-table';
import { collectRows, firstRefusal, recordOf, requiredText, valueOf } from './import-rows';
import type { ImportParser } from './import-record';
import { ImportMessages } from '../messages';

const COLUMNS = {
  url: ['url'],
  alias: ['alias', 'shortCode', 'slug'],
  shortUrl: ['shortUrl'],
  domain: ['domain'],
  tags: ['tags'],
  title: ['title'],
  createdAt: ['createdAt'],
  expiresAt: ['expiresAt'],
  expiresIn: ['expiresIn'],
  clicks: ['clicks', 'importedClicks'],
} satisfies ColumnNames<string>;

/** `expiresIn` counts from the import, as it counts from the request in `shortener import`. */
function expiryOf(expiresAt: string | undefined, expiresIn: string | undefined, nowMs: number): Read<string | undefined> {
  if (expiresAt?.trim()) return readDate('expiresAt', expiresAt);
  if (!expiresIn?.trim()) return { ok: true, value: undefined };
  return /^\d{1,10}$/.test(expiresIn.trim()) ? { ok: true, value: new Date(nowMs + Number(expiresIn.trim()) * 1000).toISOString() } : { ok: false, reason: ImportMessages.fieldType('expiresIn', 'a whole number of seconds') };
}

export const parseOwnCsv: ImportParser = (text, { nowMs, maxRows }) => {
  const table = readCsvTable(text, 'csv', COLUMNS, ['url'], maxRows);
  // A row without a slug has no id of its own: its url and how many such rows with that url came before stand in,
  // the same on every run of the same file.
  const seenUrls = new Map<string, number>();
  return collectRows(table.rows, ({ cell }) => {
    const hasSlug = Boolean(cell('alias') || cell('shortUrl')?.trim());
    const place: Read<{ domain?: string; slug: string }> = hasSlug ? placeOf(cell('alias'), cell('domain'), cell('shortUrl')) : { ok: true, value: { ...(cell('domain')?.trim() ? { domain: cell('domain')?.trim().toLowerCase() } : {}), slug: '' } };
    const url = requiredText('url', cell('url'));
    const createdAt = readDate('createdAt', cell('createdAt'));
    const expiresAt = expiryOf(cell('expiresAt'), cell('expiresIn'), nowMs);
    const clicks = readCount('clicks', cell('clicks'));
    const refusal = firstRefusal(place, url, createdAt, expiresAt, clicks);
    if (refusal) return refusal;
    const { domain, slug } = valueOf(place);
    const destination = valueOf(url).trim();
    const occurrence = slug === '' ? (seenUrls.get(destination) ?? 0) + 1 : 0;
    if (slug === '') seenUrls.set(destination, occurrence);
    return recordOf({
      sourceId: slug === '' ? `${destination}#${occurrence}` : `${domain ?? ''}/${slug}`,
      domain,
      slug,
      url: destination,
      title: optionalText(cell('title')),
      tags: splitTags(cell('tags'), /[\s,]+/),
      createdAt: valueOf(createdAt),
      expiresAt: valueOf(expiresAt),
      clicks: valueOf(clicks),
    });
  }, table.problems);
};
