import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IMPORT_PARSERS } from '../../../../functions/shared/domain/imports/import-parsers';
import { ImportFileUnreadable, type ImportSource } from '../../../../functions/shared/domain/imports/import-record';

const NOW_MS = Date.parse('2026-01-01T00:00:00.000Z');
const fixture = (file: string) => readFileSync(path.join(__dirname, '../../../fixtures/imports', file), 'utf8');
const parse = (source: ImportSource, text: string) => IMPORT_PARSERS[source](text, { nowMs: NOW_MS });

describe('each source\'s sample export becomes exact records, its bad rows exact problems', () => {
  test('bitly: BOM, CRLF, a custom back-half, a quoted line break, a percent-encoded slug, a formula kept as given', () => {
    expect(parse('bitly', fixture('bitly.csv'))).toEqual({
      records: [
        { row: 1, record: { sourceId: 'bit.ly/3xYz9Ab', domain: 'go.example-shop.com', slug: 'spring', url: 'https://example-shop.com/spring?utm_source=bitly', title: 'Spring sale, 2024', tags: ['promo', 'spring'], createdAt: '2024-03-07T10:15:00.000Z', clicks: 1234 } },
        { row: 2, record: { sourceId: 'bit.ly/café', domain: 'bit.ly', slug: 'café', url: 'https://example.com/café', title: 'Menu\r\ndu café', tags: ['Café'], createdAt: '2024-03-08T09:00:00.000Z', clicks: 17 } },
        { row: 3, record: { sourceId: 'bit.ly/formula1', domain: 'bit.ly', slug: 'formula1', url: 'https://example.com/f', title: '=HYPERLINK("http://evil.example")', tags: [], createdAt: '2024-03-09T00:00:00.000Z', clicks: 0 } },
      ],
      problems: [
        { row: 4, reason: 'long_url is empty' },
        { row: 5, reason: 'created_at is not a date (ISO 8601, or seconds or milliseconds since 1970)' },
      ],
    });
  });

  test('rebrandly: Cyrillic slug and emoji title; a word for clicks and a short row are their rows\' problems', () => {
    expect(parse('rebrandly', fixture('rebrandly.csv'))).toEqual({
      records: [
        { row: 1, record: { sourceId: '5a1b2c3d4e5f', domain: 'rebrand.ly', slug: 'spring-sale', url: 'https://example-shop.com/spring', title: 'Spring sale', tags: ['promo', 'spring'], createdAt: '2023-11-02T08:30:00.000Z', clicks: 42 } },
        { row: 2, record: { sourceId: '6b2c3d4e5f60', domain: 'links.example-shop.com', slug: 'приветы', url: 'https://example.ru/привет', title: 'Привет 👋', tags: [], createdAt: '2023-11-03T08:30:00.000Z', clicks: 0 } },
      ],
      problems: [
        { row: 3, reason: 'clicks is not a whole number of clicks' },
        { row: 4, reason: 'the row has 4 cells where the header names 8' },
      ],
    });
  });

  test('shortio: expiry, epoch-millisecond creation, quotes in a title; the domain root is no short link', () => {
    expect(parse('shortio', fixture('shortio.csv'))).toEqual({
      records: [
        { row: 1, record: { sourceId: 'lnk_1a2b_3c4d', domain: 'short.example-shop.com', slug: 'summer', url: 'https://example-shop.com/summer', title: 'Summer', tags: ['sale', 'summer'], createdAt: '2022-06-01T12:00:00.000Z', expiresAt: '2026-06-01T00:00:00.000Z', clicks: 310 } },
        { row: 2, record: { sourceId: 'lnk_1a2b_3c4e', domain: 'short.example-shop.com', slug: 'ün/ïcode', url: 'https://example.com/u', title: 'Quote " and, comma', tags: [], createdAt: '2022-06-01T12:00:00.000Z', clicks: 3 } },
      ],
      problems: [{ row: 3, reason: 'short URL is not a short link (domain/slug)' }],
    });
  });

  test('dub: the export\'s labels; its apostrophe before a would-be formula is kept as given', () => {
    expect(parse('dub', fixture('dub.csv'))).toEqual({
      records: [
        { row: 1, record: { sourceId: 'link_1HXYZ', domain: 'dub.sh', slug: 'try', url: 'https://dub.co/', tags: ['marketing', 'launch'], createdAt: '2024-01-15T10:00:00.000Z', clicks: 1024 } },
        { row: 2, record: { sourceId: 'link_2HXYZ', domain: 'go.example-shop.com', slug: '✓check', url: 'https://example-shop.com/check', tags: [], createdAt: '2024-01-16T10:00:00.000Z', clicks: 7 } },
        { row: 3, record: { sourceId: 'link_3HXYZ', domain: 'dub.sh', slug: 'minus', url: 'https://example.com/m', tags: ["'-1+2"], createdAt: '2024-01-17T10:00:00.000Z', clicks: 0 } },
      ],
      problems: [{ row: 4, reason: 'Short link is not a short link (domain/slug)' }],
    });
  });

  test('shlink CSV: tags joined by | (and by , in older files), offsets turned to UTC, Japanese slugs and tags', () => {
    expect(parse('shlink', fixture('shlink.csv'))).toEqual({
      records: [
        { row: 1, record: { sourceId: 's.example-shop.com/abc12', domain: 's.example-shop.com', slug: 'abc12', url: 'https://example-shop.com/a', title: 'Product A', tags: ['shop', 'product'], createdAt: '2021-05-04T08:00:00.000Z', clicks: 58 } },
        { row: 2, record: { sourceId: 's.example-shop.com/日本', domain: 's.example-shop.com', slug: '日本', url: 'https://example.jp/', title: '日本語のタイトル', tags: ['旅行', '日本'], createdAt: '2021-05-05T08:00:00.000Z', clicks: 2 } },
        { row: 3, record: { sourceId: 's.example-shop.com/legacy', domain: 's.example-shop.com', slug: 'legacy', url: 'https://example.com/l', tags: ['old', 'tags'], createdAt: '2021-05-06T08:00:00.000Z', clicks: 0 } },
      ],
      problems: [{ row: 4, reason: 'the row has 9 cells where the header names 8' }],
    });
  });

  test('shlink API JSON: the default domain (null) named by the short URL, visitsCount before v3, validUntil as expiry', () => {
    expect(parse('shlink', fixture('shlink.json'))).toEqual({
      records: [
        { row: 1, record: { sourceId: 's.test/12C18', domain: 's.test', slug: '12C18', url: 'https://store.example.com/product/1', title: 'Welcome to Steam', tags: ['games', 'tech'], createdAt: '2016-08-21T11:17:00.000Z', expiresAt: '2030-01-01T00:00:00.000Z', clicks: 328 } },
        { row: 2, record: { sourceId: 'doma.in/custom', domain: 'doma.in', slug: 'custom', url: 'https://example.com/été', tags: [], createdAt: '2019-08-21T11:17:00.000Z', clicks: 12 } },
      ],
      problems: [
        { row: 3, reason: 'longUrl is empty' },
        { row: 4, reason: 'the entry is not a JSON object' },
      ],
    });
  });

  test('kutt: pages in a list, numbered across pages; a SQL-style expiry read as UTC; a negative count refused', () => {
    expect(parse('kutt', fixture('kutt.json'))).toEqual({
      records: [
        { row: 1, record: { sourceId: '8c5b3c0e-2f9b-4c55-9a55-0c9b3d2d6f10', domain: 'kutt.it', slug: 'aB3dE', url: 'https://docs.kutt.it/', title: 'Kutt docs', tags: [], createdAt: '2020-02-13T18:05:04.000Z', clicks: 91 } },
        { row: 2, record: { sourceId: '9d6c4d1f-3a0c-4d66-8b66-1d0c4e3e7a21', domain: 'k.example-shop.com', slug: 'événement', url: 'https://example.fr/événement', tags: [], createdAt: '2020-02-14T18:05:04.000Z', expiresAt: '2027-01-01T00:00:00.000Z', clicks: 0 } },
      ],
      problems: [{ row: 3, reason: 'visit_count is not a whole number of clicks' }],
    });
  });

  test('yourls: the yourls_url table\'s columns; no domain; formula-like values kept as given', () => {
    expect(parse('yourls', fixture('yourls.csv'))).toEqual({
      records: [
        { row: 1, record: { sourceId: 'ozh', slug: 'ozh', url: 'http://ozh.org/', title: 'Ozh RICHARD', tags: [], createdAt: '2009-09-01T12:34:56.000Z', clicks: 30 } },
        { row: 2, record: { sourceId: 'docs', slug: 'docs', url: 'https://yourls.org/docs', title: 'YOURLS: "Your Own URL Shortener"', tags: [], createdAt: '2010-01-02T03:04:05.000Z', clicks: 7 } },
        { row: 3, record: { sourceId: '@sum', slug: '@sum', url: 'https://example.com/s', title: '+SUM(A1)', tags: [], createdAt: '2011-01-01T00:00:00.000Z', clicks: 0 } },
      ],
      problems: [{ row: 4, reason: 'keyword is empty' }],
    });
  });

  test('csv (our columns): rows without an alias get ids from their url and its occurrence, stable from run to run', () => {
    expect(parse('csv', fixture('csv.csv'))).toEqual({
      records: [
        { row: 1, record: { sourceId: 'links.example-shop.com/spring', domain: 'links.example-shop.com', slug: 'spring', url: 'https://example.com/a', title: 'Spring', tags: ['promo', 'spring'], createdAt: '2024-01-01T00:00:00.000Z', expiresAt: '2027-01-01T00:00:00.000Z', clicks: 12 } },
        { row: 2, record: { sourceId: 'https://example.com/b#1', slug: '', url: 'https://example.com/b', tags: [], clicks: 0 } },
        { row: 3, record: { sourceId: 'https://example.com/b#2', slug: '', url: 'https://example.com/b', tags: [], clicks: 0 } },
      ],
      problems: [{ row: 4, reason: 'clicks is not a whole number of clicks' }],
    });
  });

  test('csv: expiresIn counts from the import; a results file\'s shortUrl gives the slug', () => {
    const parsed = parse('csv', 'url,expiresIn,shortUrl\r\nhttps://example.com/,3600,https://s.example/abc\r\n');
    expect(parsed.records[0]?.record).toEqual({ sourceId: 's.example/abc', domain: 's.example', slug: 'abc', url: 'https://example.com/', tags: [], expiresAt: '2026-01-01T01:00:00.000Z', clicks: 0 });
  });
});

describe('a parser given the row limit reads one row past it, no further: enough to show the file is over it', () => {
  const rows = (count: number, row: string) => Array.from({ length: count }, () => row).join('\n');
  test.each([
    ['bitly', (count: number) => `id,long_url\n${rows(count, 'a')}\n`],
    ['csv', (count: number) => `url\n${rows(count, 'https://example.com/')}\n`],
    ['shlink', (count: number) => `[{"shortUrls": {"data": [${rows(count, '{}').replaceAll('\n', ',')}]}}, {"shortUrls": {"data": []}}]`],
    ['kutt', (count: number) => `{"data": [${rows(count, '3').replaceAll('\n', ',')}]}`],
  ] as const)('%s', (source, file) => {
    const read = (count: number) => {
      const parsed = IMPORT_PARSERS[source](file(count), { nowMs: NOW_MS, maxRows: 3 });
      return parsed.records.length + parsed.problems.length;
    };
    expect([read(3), read(4), read(50)]).toEqual([3, 4, 4]);
  });
});

describe('a file no parser can read is refused as a whole, with a message that says why', () => {
  test.each([
    ['bitly', 'long_url,title\nhttps://example.com/,x\n', 'The file has no link column (id, bitlink, link, short link, short url): is it a bitly export?'],
    ['rebrandly', 'destination\nhttps://example.com/\n', 'The file has no slug column (slashtag, slash tag, slug, short url, shortUrl, branded link, short link): is it a rebrandly export?'],
    ['yourls', 'keyword,url\nabc,"https://example.com/\n', 'The file is not a yourls CSV export this import can read: Quote Not Closed: the parsing is finished with an opening quote at line 2'],
    ['kutt', '{"data": 3}', "The file is JSON but not kutt's links listing ({\"data\": [...], \"total\": …})"],
    ['kutt', '{"data": [', 'The file is not kutt JSON this import can read:'],
    ['shlink', '{"shortUrls": {}}', "The file is JSON but not shlink's short URL listing ({\"shortUrls\": {\"data\": [...]}})"],
  ] as const)('%s: %j', (source, text, message) => {
    expect(() => parse(source, text)).toThrow(ImportFileUnreadable);
    expect(() => parse(source, text)).toThrow(message);
  });

  test('an empty file has no header and so no url column', () => {
    expect(() => parse('csv', '')).toThrow('The file has no url column (url): is it a csv export?');
  });

  test('a header in a semicolon locale is read with its own separator; a comma file\'s semicolons stay text', () => {
    expect(parse('yourls', 'keyword;url;title\r\nabc;https://example.com/;a,b\r\n').records[0]?.record).toMatchObject({ slug: 'abc', title: 'a,b' });
    expect(parse('yourls', 'keyword,url,title\r\nabc,https://example.com/,a;b\r\n').records[0]?.record).toMatchObject({ slug: 'abc', title: 'a;b' });
  });
});
