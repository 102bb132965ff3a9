import { optionalText, placeOf, readCount, readDate, splitTags } from './field-readers';
import { readCsvTable, type ColumnNames } from './csv-table';
import { collectRows, firstRefusal, recordOf, requiredText, valueOf } from './import-rows';
import type { ImportParser, ImportSource } from './import-record';

/** The columns of an export that names each link by slug and domain (or its whole short URL). */
export type SlugAndDomainColumns = ColumnNames<'id' | 'slug' | 'domain' | 'shortUrl' | 'url' | 'title' | 'tags' | 'createdAt' | 'expiresAt' | 'clicks'>;

/**
 * Rebrandly's and Short.io's CSV exports read alike: a link's slug and domain (or its short URL), its destination,
 * title, comma-separated tags, dates and click total. Only the header labels differ, and the destination's name in a
 * row's problem (`urlLabel`, as that export calls the column).
 */
export function slugAndDomainExport(source: ImportSource, columns: SlugAndDomainColumns, urlLabel: string): ImportParser {
  return (text, { maxRows }) => {
    const table = readCsvTable(text, source, columns, ['url', ['slug', 'shortUrl']], maxRows);
    return collectRows(table.rows, ({ cell }) => {
      const place = placeOf(cell('slug'), cell('domain'), cell('shortUrl'));
      const url = requiredText(urlLabel, cell('url'));
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
}
