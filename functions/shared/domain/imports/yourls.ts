/*
 * YOURLS keeps no export of its own: its links are the rows of the `yourls_url` table, and what is exported is that
 * table as CSV (phpMyAdmin, `mysql … INTO OUTFILE`, the export plugins). Learned from YOURLS/YOURLS
 * `includes/functions-install.php` (keyword, url, title, timestamp, ip, clicks) and shlinkio/shlink-importer
 * `src/Sources/Yourls/YourlsImporter.php` (timestamp as `Y-m-d H:i:s`; the file names no domain, so none is kept).
 */
import { optionalText, readCount, readDate } from './field-readers';
import { readCsvTable, type ColumnNames } from './csv-table';
import { collectRows, firstRefusal, recordOf, requiredText, valueOf } from './import-rows';
import type { ImportParser } from './import-record';

const COLUMNS = {
  keyword: ['keyword'],
  url: ['url'],
  title: ['title'],
  timestamp: ['timestamp'],
  clicks: ['clicks'],
} satisfies ColumnNames<string>;

export const parseYourls: ImportParser = (text, { maxRows }) => {
  const table = readCsvTable(text, 'yourls', COLUMNS, ['keyword', 'url'], maxRows);
  return collectRows(table.rows, ({ cell }) => {
    const keyword = requiredText('keyword', cell('keyword'));
    const url = requiredText('url', cell('url'));
    const createdAt = readDate('timestamp', cell('timestamp'));
    const clicks = readCount('clicks', cell('clicks'));
    const refusal = firstRefusal(keyword, url, createdAt, clicks);
    if (refusal) return refusal;
    return recordOf({
      sourceId: valueOf(keyword),
      slug: valueOf(keyword),
      url: valueOf(url).trim(),
      title: optionalText(cell('title')),
      tags: [],
      createdAt: valueOf(createdAt),
      clicks: valueOf(clicks),
    });
  }, table.problems);
};
