/*
 * Short.io's CSV export of links. Learned from the Short.io API's link fields as dubinc/dub's importer reads them
 * (`apps/web/app/(ee)/api/cron/import/short/utils.ts`: originalURL, path, title, tags, createdAt; a link with an
 * empty path is the domain's root, not a short link), the export's headers being those fields or their labels.
 */
import { optionalText, placeOf, readCount, readDate, splitTags } from './field-readers';
import { readCsvTable, type ColumnNames } from './csv-table';
import { collectRows, firstRefusal, recordOf, requiredText, valueOf } from './import-rows';
import type { ImportParser } from './import-record';

const COLUMNS = {
  id: ['idString', 'id', 'link id'],
  slug: ['path', 'slug'],
  domain: ['domain'],
  shortUrl: ['shortURL', 'short url', 'secureShortURL', 'short link'],
  url: ['originalURL', 'original url', 'long url', 'destination'],
  title: ['title'],
  tags: ['tags'],
  createdAt: ['createdAt', 'created at', 'created'],
  expiresAt: ['expiresAt', 'expires at', 'expiration date'],
  clicks: ['clicks', 'total clicks'],
} satisfies ColumnNames<string>;

export const parseShortio: ImportParser = (text) => {
  const table = readCsvTable(text, 'shortio', COLUMNS, ['url', ['slug', 'shortUrl']]);
  return collectRows(table.rows, ({ cell }) => {
    const place = placeOf(cell('slug'), cell('domain'), cell('shortUrl'));
    const url = requiredText('originalURL', cell('url'));
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
