import { linkRequestOf, parseLinkRows, UsageError } from '../../../bin/shortener/csv-links';
import { batchIdempotencyKey, resultRows } from '../../../clients/csv-import/import-links';
import { LINK_COLUMNS } from '../../../clients/csv-import/link-rows';
import { linkRequestSchema } from '../../../functions/shared/domain/links/link-request';
import { SMART_FIELD_NAMES } from '../../../functions/shared/domain/destinations/smart-link';

describe('parseLinkRows', () => {
  it('reads a header row, quoted fields with commas and quotes, Unicode and a BOM', () => {
    const { columns, rows } = parseLinkRows('\ufeffurl,alias,password\n"https://example.com/?a=1,2",,"say ""hi"""\nhttps://例え.jp/ü,mine,\n', 'links.csv');
    expect(columns).toEqual(['url', 'alias', 'password']);
    expect(rows).toEqual([
      { url: 'https://example.com/?a=1,2', alias: '', password: 'say "hi"' },
      { url: 'https://例え.jp/ü', alias: 'mine', password: '' },
    ]);
  });

  it('refuses a file without a url column, or one that is not CSV, with one line', () => {
    expect(() => parseLinkRows('link\nhttps://example.com\n', 'a.csv')).toThrow(new UsageError('a.csv has no url column: its header row must name the columns (url,alias,password,expiresIn,maxClicks,domain,tags,rules,variants,forwardQuery,utm,expiredUrl), url at least'));
    expect(() => parseLinkRows('url,alias\nx,y,z\n', 'b.csv')).toThrow(/^b\.csv is not a CSV file this command can read: /);
  });
});

describe('the import\'s columns', () => {
  it('are the fields of a link request, as the API parses them', () => {
    expect([...LINK_COLUMNS].sort()).toEqual([...Object.keys(linkRequestSchema().shape), ...SMART_FIELD_NAMES].sort());
  });
});

describe('linkRequestOf', () => {
  it('leaves empty cells out, sends whole numbers as numbers and anything else as written', () => {
    expect(linkRequestOf({ url: 'https://example.com', alias: '', password: 'pw12', expiresIn: ' 3600 ', maxClicks: '' })).toEqual({ url: 'https://example.com', password: 'pw12', expiresIn: 3600 });
    expect(linkRequestOf({ url: 'https://example.com', domain: 'go.acme.com' })).toEqual({ url: 'https://example.com', domain: 'go.acme.com' });
    expect(linkRequestOf({ url: 'https://example.com', expiresIn: 'soon', maxClicks: '1.5' })).toEqual({ url: 'https://example.com', expiresIn: 'soon', maxClicks: '1.5' });
  });

  it('reads tags from one cell, separated by commas or spaces (issue 20)', () => {
    expect(linkRequestOf({ url: 'https://example.com', tags: ' spring, Promo  2026 ' })).toEqual({ url: 'https://example.com', tags: ['spring', 'Promo', '2026'] });
    expect(linkRequestOf({ url: 'https://example.com', tags: ' ' })).toEqual({ url: 'https://example.com' });
  });

  it('reads smart-link cells: JSON for rules, variants and utm, true/false for forwardQuery, text otherwise', () => {
    const rules = [{ url: 'https://example.com/de', when: { country: ['DE'] } }];
    expect(
      linkRequestOf({ url: 'https://example.com', rules: JSON.stringify(rules), utm: '{"source":"news"}', forwardQuery: ' TRUE ', expiredUrl: 'https://example.com/over', variants: '' }),
    ).toEqual({ url: 'https://example.com', rules, utm: { source: 'news' }, forwardQuery: true, expiredUrl: 'https://example.com/over' });
    expect(linkRequestOf({ url: 'https://example.com', rules: '[not json', forwardQuery: 'yes' })).toEqual({ url: 'https://example.com', rules: '[not json', forwardQuery: 'yes' });
  });
});

describe('batchIdempotencyKey', () => {
  it('is the same for the same rows at the same place, and differs otherwise', async () => {
    const rows = [{ url: 'https://example.com/a' }];
    const key = await batchIdempotencyKey(0, rows);
    await expect(batchIdempotencyKey(0, [{ url: 'https://example.com/a' }])).resolves.toBe(key);
    await expect(batchIdempotencyKey(50, rows)).resolves.not.toBe(key);
    await expect(batchIdempotencyKey(0, [{ url: 'https://example.com/b' }])).resolves.not.toBe(key);
    expect(key).toMatch(/^import-[0-9a-f]{64}$/);
  });
});

describe('resultRows', () => {
  it('keeps the file\'s columns but the password, adds shortUrl and error, and makes formula cells safe', () => {
    const output = resultRows(['url', 'password', 'alias'], [{ url: 'https://example.com', password: 'secret', alias: '=cmd()' }], [{ error: '@bad' }]);
    expect(output.columns).toEqual(['url', 'alias', 'shortUrl', 'error']);
    expect(output.rows).toEqual([{ url: 'https://example.com', alias: "'=cmd()", shortUrl: '', error: "'@bad" }]);
  });
});
