import fc from 'fast-check';
import { IMPORT_PARSERS } from '../../../../functions/shared/domain/imports/import-parsers';
import { ImportFileUnreadable, type ImportedRecord, type ImportSource } from '../../../../functions/shared/domain/imports/import-record';
import { anyText } from '../../../support/unicode-arbitraries';

/**
 * Records with text from the whole of Unicode, written as each source's export writes them, read back exactly. What
 * a format cannot carry is said per format: a UTF-8 file has no lone surrogates (they come back as U+FFFD, as any
 * decoder makes them), and a tag cannot hold the character its export joins tags with.
 */
const NOW_MS = Date.parse('2026-01-01T00:00:00.000Z');

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const inUtf8File = (text: string) => text.replace(LONE_SURROGATE, '\ufffd');
const wellFormed = (text: string) => inUtf8File(text) === text;

/** RFC 4180, every cell quoted: what careful exporters write. */
const csvCell = (text: string) => `"${text.replaceAll('"', '""')}"`;
const csvFile = (header: readonly string[], rows: ReadonlyArray<readonly string[]>) => ['\ufeff' + header.join(','), ...rows.map((row) => row.map(csvCell).join(','))].join('\r\n') + '\r\n';

const nonBlank = (text: string) => text.trim() !== '';
const slug = anyText(30).filter(nonBlank);
const title = anyText(60).filter((text) => text !== '');
/** A tag as exports keep it: no blanks at its ends (they are trimmed) and none of `forbidden`, its export's joiners. */
const tagsWithout = (forbidden: RegExp) => fc.array(anyText(20).filter((tag) => nonBlank(tag) && tag === tag.trim() && !forbidden.test(tag)), { maxLength: 4 });
const isoDate = fc.date({ min: new Date('1990-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }).map((date) => date.toISOString());
const clicks = fc.nat({ max: 1e12 });
const url = fc.webUrl();
const host = fc.domain().map((name) => name.toLowerCase());

type Generated = { text: string; expected: ImportedRecord[] };

const parse = (source: ImportSource, text: string) => IMPORT_PARSERS[source](text, { nowMs: NOW_MS });

function expectRoundTrips(source: ImportSource, files: fc.Arbitrary<Generated>) {
  fc.assert(
    fc.property(files, ({ text, expected }) => {
      const parsed = parse(source, text);
      expect(parsed.problems).toEqual([]);
      expect(parsed.records.map(({ record }) => record)).toEqual(expected);
    }),
  );
}

const link = fc.record({ slug, domain: host, url, title: fc.option(title, { nil: undefined }), createdAt: isoDate, expiresAt: isoDate, clicks, id: fc.uuid() });

describe('every source reads back what its export wrote, whatever the Unicode in slugs, titles and tags', () => {
  test('bitly: the slug percent-encoded in the bitlink', () => {
    expectRoundTrips('bitly', fc.array(fc.record({ link: link.filter(({ slug: s }) => wellFormed(s)), tags: tagsWithout(/,/) }), { maxLength: 5 }).map((rows) => ({
      text: csvFile(['id', 'long_url', 'title', 'tags', 'created_at', 'clicks'], rows.map(({ link: l, tags }) => [`${l.domain}/${encodeURIComponent(l.slug)}`, l.url, l.title ?? '', tags.join(','), l.createdAt, String(l.clicks)])),
      expected: rows.map(({ link: l, tags }) => ({ sourceId: `${l.domain}/${l.slug}`, domain: l.domain, slug: l.slug, url: l.url, ...(l.title === undefined ? {} : { title: inUtf8File(l.title) }), tags: tags.map(inUtf8File), createdAt: l.createdAt, clicks: l.clicks })),
    })));
  });

  test('rebrandly: the slashtag as written', () => {
    expectRoundTrips('rebrandly', fc.array(fc.record({ link, tags: tagsWithout(/,/) }), { maxLength: 5 }).map((rows) => ({
      text: csvFile(['id', 'slashtag', 'domain', 'destination', 'title', 'tags', 'createdAt', 'clicks'], rows.map(({ link: l, tags }) => [l.id, l.slug, l.domain, l.url, l.title ?? '', tags.join(','), l.createdAt, String(l.clicks)])),
      expected: rows.map(({ link: l, tags }) => ({ sourceId: l.id, domain: l.domain, slug: inUtf8File(l.slug), url: l.url, ...(l.title === undefined ? {} : { title: inUtf8File(l.title) }), tags: tags.map(inUtf8File), createdAt: l.createdAt, clicks: l.clicks })),
    })));
  });

  test('shortio: the path as written, with an expiry', () => {
    expectRoundTrips('shortio', fc.array(fc.record({ link, tags: tagsWithout(/,/) }), { maxLength: 5 }).map((rows) => ({
      text: csvFile(['idString', 'path', 'domain', 'originalURL', 'title', 'tags', 'createdAt', 'expiresAt', 'clicks'], rows.map(({ link: l, tags }) => [l.id, l.slug, l.domain, l.url, l.title ?? '', tags.join(','), l.createdAt, l.expiresAt, String(l.clicks)])),
      expected: rows.map(({ link: l, tags }) => ({ sourceId: l.id, domain: l.domain, slug: inUtf8File(l.slug), url: l.url, ...(l.title === undefined ? {} : { title: inUtf8File(l.title) }), tags: tags.map(inUtf8File), createdAt: l.createdAt, expiresAt: l.expiresAt, clicks: l.clicks })),
    })));
  });

  test('dub: the key in the short link, tags joined with ", "', () => {
    expectRoundTrips('dub', fc.array(fc.record({ link: link.filter(({ slug: s }) => wellFormed(s)), tags: tagsWithout(/,/) }), { maxLength: 5 }).map((rows) => ({
      text: csvFile(['Short link', 'Destination URL', 'Clicks', 'Created at', 'Link ID', 'Tags'], rows.map(({ link: l, tags }) => [`https://${l.domain}/${encodeURIComponent(l.slug)}`, l.url, String(l.clicks), l.createdAt, l.id, tags.join(', ')])),
      expected: rows.map(({ link: l, tags }) => ({ sourceId: l.id, domain: l.domain, slug: l.slug, url: l.url, tags: tags.map(inUtf8File), createdAt: l.createdAt, clicks: l.clicks })),
    })));
  });

  test('shlink CSV: tags joined with |', () => {
    expectRoundTrips('shlink', fc.array(fc.record({ link, tags: tagsWithout(/[|,]/) }), { maxLength: 5 }).map((rows) => ({
      text: csvFile(['createdAt', 'domain', 'shortCode', 'shortUrl', 'longUrl', 'title', 'tags', 'visits'], rows.map(({ link: l, tags }) => [l.createdAt, l.domain, l.slug, `https://${l.domain}/x`, l.url, l.title ?? '', tags.join('|'), String(l.clicks)])),
      expected: rows.map(({ link: l, tags }) => ({ sourceId: `${l.domain}/${inUtf8File(l.slug)}`, domain: l.domain, slug: inUtf8File(l.slug), url: l.url, ...(l.title === undefined ? {} : { title: inUtf8File(l.title) }), tags: tags.map(inUtf8File), createdAt: l.createdAt, clicks: l.clicks })),
    })));
  });

  test('shlink API JSON: everything JSON carries, lone surrogates included', () => {
    expectRoundTrips('shlink', fc.array(fc.record({ link, tags: fc.array(anyText(20), { maxLength: 4 }) }), { maxLength: 5 }).map((rows) => ({
      text: JSON.stringify({ shortUrls: { data: rows.map(({ link: l, tags }) => ({ shortCode: l.slug, shortUrl: `https://${l.domain}/x`, longUrl: l.url, dateCreated: l.createdAt, visitsSummary: { total: l.clicks }, tags, meta: { validUntil: l.expiresAt }, domain: l.domain, title: l.title ?? null })) } }),
      expected: rows.map(({ link: l, tags }) => ({ sourceId: `${l.domain}/${l.slug}`, domain: l.domain, slug: l.slug, url: l.url, ...(l.title === undefined ? {} : { title: l.title }), tags, createdAt: l.createdAt, expiresAt: l.expiresAt, clicks: l.clicks })),
    })));
  });

  test('kutt: pages of the listing', () => {
    expectRoundTrips('kutt', fc.array(link, { maxLength: 5 }).map((links) => ({
      text: JSON.stringify([{ total: links.length, limit: 50, skip: 0, data: links.map((l) => ({ id: l.id, address: l.slug, domain: l.domain, target: l.url, description: l.title ?? null, created_at: l.createdAt, expire_in: l.expiresAt, visit_count: l.clicks })) }]),
      expected: links.map((l) => ({ sourceId: l.id, domain: l.domain, slug: l.slug, url: l.url, ...(l.title === undefined ? {} : { title: l.title }), tags: [], createdAt: l.createdAt, expiresAt: l.expiresAt, clicks: l.clicks })),
    })));
  });

  test('yourls: keyword and title as written, the timestamp as MySQL writes it', () => {
    expectRoundTrips('yourls', fc.array(link, { maxLength: 5 }).map((links) => ({
      text: csvFile(['keyword', 'url', 'title', 'timestamp', 'ip', 'clicks'], links.map((l) => [l.slug, l.url, l.title ?? '', l.createdAt.slice(0, 19).replace('T', ' '), '127.0.0.1', String(l.clicks)])),
      expected: links.map((l) => ({ sourceId: inUtf8File(l.slug), slug: inUtf8File(l.slug), url: l.url, ...(l.title === undefined ? {} : { title: inUtf8File(l.title) }), tags: [], createdAt: `${l.createdAt.slice(0, 19)}.000Z`, clicks: l.clicks })),
    })));
  });

  test('csv: our columns, tags separated by commas or blanks', () => {
    expectRoundTrips('csv', fc.array(fc.record({ link, tags: tagsWithout(/[\s,]/) }), { maxLength: 5 }).map((rows) => ({
      text: csvFile(['url', 'alias', 'domain', 'tags', 'title', 'createdAt', 'expiresAt', 'clicks'], rows.map(({ link: l, tags }) => [l.url, l.slug, l.domain, tags.join(', '), l.title ?? '', l.createdAt, l.expiresAt, String(l.clicks)])),
      expected: rows.map(({ link: l, tags }) => ({ sourceId: `${l.domain}/${inUtf8File(l.slug)}`, domain: l.domain, slug: inUtf8File(l.slug), url: l.url, ...(l.title === undefined ? {} : { title: inUtf8File(l.title) }), tags: tags.map(inUtf8File), createdAt: l.createdAt, expiresAt: l.expiresAt, clicks: l.clicks })),
    })));
  });
});

test('no file of any Unicode text makes a parser throw anything but its file-level refusal', () => {
  fc.assert(
    fc.property(fc.constantFrom(...(Object.keys(IMPORT_PARSERS) as ImportSource[])), fc.oneof(anyText(200), fc.json()), (source, text) => {
      let outcome: unknown;
      try {
        const parsed = parse(source, text);
        outcome = Array.isArray(parsed.records) && Array.isArray(parsed.problems) ? 'parsed' : parsed;
      } catch (error) {
        outcome = error instanceof ImportFileUnreadable ? 'refused' : error;
      }
      expect(['parsed', 'refused']).toContain(outcome);
    }),
  );
});
