/*
 * Dub's CSV export of links (GET /api/links/export). Learned from dubinc/dub `apps/web/lib/zod/schemas/links.ts`
 * (`exportLinksColumns`: the labels Short link, Destination URL, Clicks, Created at, Link ID, Tags joined with ", ")
 * and `apps/web/lib/analytics/utils/convert-to-csv.ts` (json-2-csv; a cell that could run as a formula gets a
 * leading `'`, which is kept as given: the import stores what the file says).
 */
import { optionalText, readCount, readDate, shortLinkParts, splitTags } from './field-readers';
import { readCsvTable, type ColumnNames } from './csv-table';
import { collectRows, firstRefusal, recordOf, requiredText, valueOf } from './import-rows';
import type { ImportParser } from './import-record';

const COLUMNS = {
  link: ['Short link', 'shortLink'],
  id: ['Link ID'],
  url: ['Destination URL', 'url'],
  title: ['Title'],
  tags: ['Tags'],
  createdAt: ['Created at'],
  expiresAt: ['Expires at'],
  clicks: ['Clicks'],
} satisfies ColumnNames<string>;

export const parseDub: ImportParser = (text, { maxRows }) => {
  const table = readCsvTable(text, 'dub', COLUMNS, ['link', 'url'], maxRows);
  return collectRows(table.rows, ({ cell }) => {
    const link = shortLinkParts('Short link', cell('link'));
    const url = requiredText('Destination URL', cell('url'));
    const createdAt = readDate('Created at', cell('createdAt'));
    const expiresAt = readDate('Expires at', cell('expiresAt'));
    const clicks = readCount('Clicks', cell('clicks'));
    const refusal = firstRefusal(link, url, createdAt, expiresAt, clicks);
    if (refusal) return refusal;
    const { domain, slug } = valueOf(link);
    return recordOf({
      sourceId: optionalText(cell('id')?.trim()) ?? `${domain}/${slug}`,
      domain,
      slug,
      url: valueOf(url).trim(),
      title: optionalText(cell('title')),
      tags: splitTags(cell('tags'), /,/),
      createdAt: valueOf(createdAt),
      expiresAt: valueOf(expiresAt),
      clicks: valueOf(clicks),
    });
  }, table.problems);
};
