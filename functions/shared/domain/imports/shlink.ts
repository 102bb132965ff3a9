/*
 * Shlink, two ways. The web client's CSV export: learned from shlinkio/shlink-web-component
 * `src/short-urls/helpers/ExportShortUrlsBtn.tsx` (createdAt, domain, shortCode, shortUrl, longUrl, title, tags
 * joined with `|`; older shlink-web-client versions join them with `,`; visits). The REST API's listing JSON (`GET /rest/v3/short-urls`, which
 * `short-url:list` shows as a table): learned from shlinkio/shlink `docs/swagger/definitions/ShortUrl.json` and
 * `module/Core/src/ShortUrl/Entity/ShortUrl.php` `toArray()` (shortCode, shortUrl, longUrl, dateCreated, tags,
 * meta.validUntil, domain (null on the default domain), title, visitsSummary.total; visitsCount before v3), and
 * shlinkio/shlink-importer `src/Sources/Shlink/ShlinkMapper.php`.
 */
import { optionalText, placeOf, readCount, readDate, splitTags } from './field-readers';
import { readCsvTable, type ColumnNames } from './csv-table';
import { collectRows, firstRefusal, hostOf, isObject, jsonText, jsonTextList, parseJsonFile, recordOf, requiredText, valueOf, type RowOutcome } from './import-rows';
import { linksOfPages } from './json-pages';
import type { ImportParser, ParsedImport } from './import-record';
import { ImportMessages } from '../messages';

const COLUMNS = {
  shortCode: ['shortCode', 'short code'],
  domain: ['domain'],
  shortUrl: ['shortUrl', 'short url'],
  url: ['longUrl', 'long url'],
  title: ['title'],
  tags: ['tags'],
  createdAt: ['createdAt', 'dateCreated', 'date created'],
  clicks: ['visits', 'visits count', 'visitsCount'],
} satisfies ColumnNames<string>;

/** Tags joined with `|` since the export changed; files from before join them with `,`. */
const tagSeparatorOf = (cell: string): RegExp => (cell.includes('|') ? /\|/ : /,/);

function parseShlinkCsv(text: string, maxRows: number | undefined): ParsedImport {
  const table = readCsvTable(text, 'shlink', COLUMNS, ['url', ['shortCode', 'shortUrl']], maxRows);
  return collectRows(table.rows, ({ cell }) => {
    const place = placeOf(cell('shortCode'), cell('domain'), cell('shortUrl'));
    const url = requiredText('longUrl', cell('url'));
    const createdAt = readDate('createdAt', cell('createdAt'));
    const clicks = readCount('visits', cell('clicks'));
    const refusal = firstRefusal(place, url, createdAt, clicks);
    if (refusal) return refusal;
    const { domain, slug } = valueOf(place);
    const tags = cell('tags') ?? '';
    return recordOf({
      sourceId: `${domain ?? ''}/${slug}`,
      domain,
      slug,
      url: valueOf(url).trim(),
      title: optionalText(cell('title')),
      tags: splitTags(tags, tagSeparatorOf(tags)),
      createdAt: valueOf(createdAt),
      clicks: valueOf(clicks),
    });
  }, table.problems);
}

/** `visitsSummary.total` since v3, `visitsCount` before. */
function visitsOf(item: Record<string, unknown>): unknown {
  return isObject(item.visitsSummary) ? item.visitsSummary.total : item.visitsCount;
}

function shlinkApiLink(item: unknown): RowOutcome {
  if (!isObject(item)) return { reason: ImportMessages.notALink };
  const shortCode = jsonText(item, 'shortCode');
  const shortUrl = jsonText(item, 'shortUrl');
  const domain = jsonText(item, 'domain');
  const longUrl = jsonText(item, 'longUrl');
  const title = jsonText(item, 'title');
  const tags = jsonTextList(item, 'tags');
  const created = jsonText(item, 'dateCreated');
  const until = isObject(item.meta) ? jsonText(item.meta, 'validUntil') : { ok: true as const, value: undefined };
  const shape = firstRefusal(shortCode, shortUrl, domain, longUrl, title, tags, created, until);
  if (shape) return shape;
  const code = requiredText('shortCode', valueOf(shortCode));
  const url = requiredText('longUrl', valueOf(longUrl));
  const createdAt = readDate('dateCreated', valueOf(created));
  const expiresAt = readDate('meta.validUntil', valueOf(until));
  const visits = visitsOf(item);
  const clicks = readCount('visitsSummary.total', typeof visits === 'number' ? visits : visits === undefined || visits === null ? '' : Number.NaN);
  const refusal = firstRefusal(code, url, createdAt, expiresAt, clicks);
  if (refusal) return refusal;
  // The default domain is null in the API: its name is the short URL's host.
  const host = valueOf(domain) ?? hostOf(valueOf(shortUrl));
  return recordOf({
    sourceId: `${host ?? ''}/${valueOf(code)}`,
    domain: host,
    slug: valueOf(code),
    url: valueOf(url).trim(),
    title: optionalText(valueOf(title)),
    tags: valueOf(tags),
    createdAt: valueOf(createdAt),
    expiresAt: valueOf(expiresAt),
    clicks: valueOf(clicks),
  });
}

function parseShlinkJson(text: string, maxRows: number | undefined): ParsedImport {
  const items = linksOfPages(parseJsonFile(text, 'shlink'), 'shlink', 'short URL listing ({"shortUrls": {"data": [...]}})', (page) => {
    const listing = isObject(page.shortUrls) ? page.shortUrls.data : undefined;
    return Array.isArray(listing) ? listing : undefined;
  }, maxRows);
  return collectRows(items, ({ item }) => shlinkApiLink(item));
}

/** JSON when the file starts as JSON does (after a BOM and blanks), CSV otherwise. */
export const parseShlink: ImportParser = (text, { maxRows }) => (/^\ufeff?\s*[[{]/.test(text) ? parseShlinkJson(text, maxRows) : parseShlinkCsv(text, maxRows));
