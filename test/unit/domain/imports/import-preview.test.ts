import { readFileSync } from 'node:fs';
import path from 'node:path';
import { prepareImport } from '../../../../functions/shared/domain/imports/import-planning';
import { previewImport, PREVIEW_ROWS } from '../../../../functions/shared/domain/imports/import-preview';
import { ImportFileUnreadable } from '../../../../functions/shared/domain/imports/import-record';
import { InvalidRequest } from '../../../../functions/shared/domain/errors';

const NOW_MS = Date.parse('2026-01-01T00:00:00.000Z');
const fixture = (file: string) => readFileSync(path.join(__dirname, '../../../fixtures/imports', file), 'utf8');
const context = { nowMs: NOW_MS, workspaceDomains: new Set(['go.example-shop.com']), maxRows: 100_000 };

describe('an import preview (the dashboard wizard\'s second step)', () => {
  test('shows the bitly sample\'s rows as the import makes them: slug and domain kept, tags fitted, the clicks before import', () => {
    const preview = previewImport({ source: 'bitly', content: fixture('bitly.csv') }, context);
    expect(preview.read).toBe(5);
    expect(preview.rows[0]).toEqual({
      row: 1,
      outcome: 'ready',
      url: 'https://example-shop.com/spring?utm_source=bitly',
      slug: 'spring',
      domain: 'go.example-shop.com',
      title: 'Spring sale, 2024',
      tags: ['promo', 'spring'],
      createdAt: '2024-03-07T10:15:00.000Z',
      importedClicks: 1234,
      notes: [],
    });
    // A slug or a tag this service cannot keep is said so before anything is made; a title stays as given.
    expect(preview.rows[1]).toMatchObject({ row: 2, outcome: 'ready', slug: 'café', notes: [expect.stringContaining('the slug cannot be kept here'), '1 of the tags not kept (up to 10, each 1 to 32 letters, digits, - or _)'] });
    expect(preview.rows[2]).toMatchObject({ row: 3, title: '=HYPERLINK("http://evil.example")' });
    expect(preview.rows.slice(3)).toEqual([
      { row: 4, outcome: 'failed', reason: 'long_url is empty' },
      { row: 5, outcome: 'failed', reason: expect.stringContaining('created_at is not a date') },
    ]);
  });

  test(`shows the first ${PREVIEW_ROWS} rows of a longer file in file order, refused rows with their reason, and counts every row`, () => {
    const rows = Array.from({ length: 60 }, (_, index) => (index % 7 === 2 ? 'ftp://example.com/x,bad' : `https://example.com/${index},s${index}xyz`));
    const content = `url,alias\n${rows.join('\n')}\n`;
    const preview = previewImport({ source: 'csv', content }, context);
    expect(preview.read).toBe(60);
    expect(preview.rows.map(({ row }) => row)).toEqual(Array.from({ length: PREVIEW_ROWS }, (_, index) => index + 1));
    expect(preview.rows[2]).toEqual({ row: 3, outcome: 'failed', reason: 'Please provide a valid URL' });
    // What the import would report for the same rows.
    const { job, chunks } = prepareImport({ id: 'imp_1', owner: 'acct_1', source: 'csv', onConflict: 'skip', content }, { nowMs: NOW_MS, workspaceDomains: new Set() });
    expect(preview.rows.filter((row) => row.outcome === 'failed')).toEqual(job.problems.filter(({ row }) => row <= PREVIEW_ROWS).map((problem) => ({ ...problem, outcome: 'failed' })));
    expect(preview.rows.filter((row) => row.outcome === 'ready').map(({ row }) => row)).toEqual(chunks[0]?.drafts.filter(({ row }) => row <= PREVIEW_ROWS).map(({ row }) => row));
  });

  test('refuses what the import refuses: a file it cannot read, one over the row limit', () => {
    expect(() => previewImport({ source: 'kutt', content: '{"data": 3}' }, context)).toThrow(ImportFileUnreadable);
    expect(() => previewImport({ source: 'csv', content: 'url\nhttps://a.example\nhttps://b.example\n' }, { ...context, maxRows: 1 })).toThrow(InvalidRequest);
  });
});
