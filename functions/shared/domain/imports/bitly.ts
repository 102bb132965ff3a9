/*
 * Bitly's CSV export of links. Learned from the Bitly API's bitlink fields as its importers read them: dubinc/dub
 * `apps/web/app/(ee)/api/cron/import/bitly/utils.ts` (id `bit.ly/abc`, long_url, created_at, custom_bitlinks, tags)
 * and shlinkio/shlink-importer `src/Sources/Bitly/BitlyApiImporter.php` (a custom back-half wins over the bit.ly
 * link; title). The export's headers are those fields, spelled with spaces or underscores (headerKey).
 */
import { optionalText, readCount, readDate, shortLinkParts, splitTags } from './field-readers';
import { readCsvTable, type ColumnNames } from './csv-table';
import { collectRows, firstRefusal, recordOf, requiredText, valueOf } from './import-rows';
import type { ImportParser } from './import-record';

const COLUMNS = {
  link: ['id', 'bitlink', 'link', 'short link', 'short url'],
  customLinks: ['custom bitlinks', 'custom back-halves'],
  url: ['long url', 'destination url', 'destination', 'original url'],
  title: ['title'],
  tags: ['tags'],
  createdAt: ['created at', 'created', 'date created', 'created date', 'creation date'],
  expiresAt: ['expiration at', 'expires at', 'expiration date'],
  clicks: ['clicks', 'total clicks', 'engagements', 'total engagements'],
} satisfies ColumnNames<string>;

export const parseBitly: ImportParser = (text, { maxRows }) => {
  const table = readCsvTable(text, 'bitly', COLUMNS, ['link', 'url'], maxRows);
  return collectRows(table.rows, ({ cell }) => {
    const link = shortLinkParts('link', cell('link'));
    // The first custom back-half (`brand.co/spring`) is the link people know; the bit.ly one stays its id.
    const custom = splitTags(cell('customLinks'), /[,|\s]+/)[0];
    const shown = custom === undefined ? link : shortLinkParts('custom bitlinks', custom);
    const url = requiredText('long_url', cell('url'));
    const createdAt = readDate('created_at', cell('createdAt'));
    const expiresAt = readDate('expiration_at', cell('expiresAt'));
    const clicks = readCount('clicks', cell('clicks'));
    const refusal = firstRefusal(link, shown, url, createdAt, expiresAt, clicks);
    if (refusal) return refusal;
    const id = valueOf(link);
    const { domain, slug } = valueOf(shown);
    return recordOf({
      sourceId: `${id.domain}/${id.slug}`,
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
