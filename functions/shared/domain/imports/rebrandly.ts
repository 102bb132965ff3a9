/*
 * Rebrandly's CSV export of links. Learned from the Rebrandly API's link fields as dubinc/dub's importer reads them
 * (`apps/web/app/(ee)/api/cron/import/rebrandly/utils.ts`: id, slashtag, destination, title, tags, createdAt, clicks,
 * domain), the export's headers being those fields or their dashboard labels.
 */
import { optionalText, placeOf, readCount, readDate, splitTags } from './field-readers';
import { readCsvTable, type ColumnNames } from './csv-table';
import { collectRows, firstRefusal, recordOf, requiredText, valueOf } from './import-rows';
import type { ImportParser } from './import-record';

const COLUMNS = {
  id: ['id', 'link id'],
  slug: ['slashtag', 'slash tag', 'slug'],
  domain: ['domain', 'domain name', 'domain.fullName'],
  shortUrl: ['short url', 'shortUrl', 'branded link', 'short link'],
  url: ['destination', 'destination url', 'long url'],
  title: ['title'],
  tags: ['tags'],
  createdAt: ['createdAt', 'created', 'creation date'],
  expiresAt: ['expiresAt', 'expiration date'],
  clicks: ['clicks', 'total clicks'],
} satisfies ColumnNames<string>;

export const parseRebrandly: ImportParser = (text) => {
  const table = readCsvTable(text, 'rebrandly', COLUMNS, ['url', ['slug', 'shortUrl']]);
  return collectRows(table.rows, ({ cell }) => {
    const place = placeOf(cell('slug'), cell('domain'), cell('shortUrl'));
    const url = requiredText('destination', cell('url'));
    const createdAt = readDate('createdAt', cell('createdAt'));
    const expiresAt = readDate('expiresAt', cell('expiresAt'));
    const clicks = readCount('clicks', cell('clicks'));
    const refusal = firstRefusal(place, url, createdAt, expiresAt, clicks);
    if (refusal) return refusal;
    const { domain, slug } = valueOf(place);
    return recordOf({
      sourceId: optionalText(cell('id')?.trim()) ?? `${domain ?? ''}/${slug}`,
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
