import { readFileSync } from 'node:fs';
import path from 'node:path';
import { importCallCount, importChunk, summaryOf, IMPORT_CHUNK_ROWS, type ImportedLinkRecord, type ImportedLinkWriter, type ImportMarker, type ImportWrite } from '../../../../functions/shared/domain/imports/import-job';
import { prepareImport } from '../../../../functions/shared/domain/imports/import-planning';
import { ImportFileUnreadable } from '../../../../functions/shared/domain/imports/import-record';
import { keyOf } from '../../../../functions/shared/domain/links/link';
import type { AuditStamp } from '../../../../functions/shared/domain/audit/audit-stamp';

const NOW_MS = Date.parse('2026-01-01T00:00:00.000Z');
const fixture = (file: string) => readFileSync(path.join(__dirname, '../../../fixtures/imports', file), 'utf8');

/** The one-transaction write of the DynamoDB adapter: marker first (already imported), then the code (taken). */
class MemoryImportStore implements ImportedLinkWriter {
  readonly links = new Map<string, ImportedLinkRecord>();
  readonly markers = new Map<string, ImportMarker>();
  readonly stamps = new Map<string, AuditStamp | undefined>();
  /** Throws on the write after this many more, as a worker that crashes midway. */
  crashAfter = Number.POSITIVE_INFINITY;

  async createImported(link: ImportedLinkRecord, marker: ImportMarker, stamp?: AuditStamp): Promise<ImportWrite> {
    if (this.crashAfter-- <= 0) throw new Error('the worker stopped');
    const existing = this.markers.get(`${marker.owner}#${marker.idempotencyKey}`);
    if (existing) return { outcome: 'imported', marker: existing };
    if (this.links.has(keyOf(link))) return { outcome: 'codeTaken' };
    this.links.set(keyOf(link), link);
    this.stamps.set(keyOf(link), stamp);
    this.markers.set(`${marker.owner}#${marker.idempotencyKey}`, marker);
    return { outcome: 'created' };
  }
}

/** The longest name DNS allows: four labels, 253 characters. */
const LONGEST_DOMAIN = ['a', 'b', 'c'].map((letter) => letter.repeat(63)).concat('d'.repeat(61)).join('.');
/**
 * A rebrandly file of one chunk's rows, each at every bound: a 300-emoji id (cut to 255), a 255-emoji slug, the longest
 * domain, a 2,048-character URL, a 501-emoji title (cut to 500), ten 32-character tags and one that does not fit, and
 * a creation time and an expiry that each add a note.
 */
function longestRows(): string {
  const tags = [...Array.from({ length: 10 }, (_, index) => String(index).padEnd(32, 't')), '日本'].join(',');
  const rows = Array.from({ length: IMPORT_CHUNK_ROWS }, (_, index) =>
    [`${index}${'😀'.repeat(300)}`, '😀'.repeat(255), LONGEST_DOMAIN, `https://example.com/${index}`.padEnd(2048, 'x'), '😀'.repeat(501), tags, '2030-01-01T00:00:00Z', '2040-01-01T00:00:00Z', '1000000000000000'].map((cell) => `"${cell}"`).join(','),
  );
  return `id,slashtag,domain,destination,title,tags,createdAt,expiresAt,clicks\n${rows.join('\n')}\n`;
}

const codes = () => {
  let next = 0;
  return () => `Gen${String((next += 1)).padStart(4, '0')}`;
};
const prepare = (content: string, id = 'imp_1', source: 'kutt' | 'csv' | 'yourls' = 'kutt', onConflict: 'skip' | 'rename' = 'rename') =>
  prepareImport({ id, owner: 'acct_1', source, onConflict, content }, { nowMs: NOW_MS, workspaceDomains: new Set(['k.example-shop.com']) });

async function runAll(prepared: ReturnType<typeof prepare>, store: MemoryImportStore, generateCode = codes()) {
  const results = [];
  for (const chunk of prepared.chunks) results.push(await importChunk(prepared.job, chunk, { writer: store, generateCode, claimOf: () => 'claim_1', nowMs: () => NOW_MS }));
  return summaryOf(prepared.job, results);
}

describe('an accepted file becomes a job and its chunks', () => {
  test('the kutt sample: three rows read, one refused before any write, one chunk', () => {
    const { job, chunks } = prepare(fixture('kutt.json'));
    expect(job).toEqual({ id: 'imp_1', owner: 'acct_1', source: 'kutt', onConflict: 'rename', createdAt: '2026-01-01T00:00:00.000Z', read: 3, chunkCount: 1, problems: [{ row: 3, reason: 'visit_count is not a whole number of clicks' }] });
    expect(chunks.map((chunk) => chunk.drafts.map(({ row }) => row))).toEqual([[1, 2]]);
  });

  test(`rows go in chunks of ${IMPORT_CHUNK_ROWS}, in file order`, () => {
    const rows = Array.from({ length: 250 }, (_, index) => `https://example.com/${index},code${index}`).join('\n');
    expect(prepare(`url,alias\n${rows}\n`, 'imp_1', 'csv').chunks.map((chunk) => [chunk.index, chunk.drafts.length, chunk.drafts[0]?.row])).toEqual([[0, 50, 1], [1, 50, 51], [2, 50, 101], [3, 50, 151], [4, 50, 201]]);
  });

  test(`a chunk of ${IMPORT_CHUNK_ROWS} rows, every field at its longest in the widest characters, stays under DynamoDB's 400 KB`, () => {
    const { chunks } = prepareImport({ id: 'imp_1', owner: 'acct_1', source: 'rebrandly', onConflict: 'rename', content: longestRows() }, { nowMs: NOW_MS, workspaceDomains: new Set([LONGEST_DOMAIN]) });
    const draft = chunks[0]?.drafts[0]?.draft;
    expect(chunks.map((chunk) => chunk.drafts.length)).toEqual([IMPORT_CHUNK_ROWS]);
    expect([[...(draft?.request.alias ?? '')].length, [...(draft?.importedFrom.sourceId ?? '')].length, draft?.request.url.length, draft?.request.domain, draft?.notes.length]).toEqual([255, 255, 2048, LONGEST_DOMAIN, 4]);
    // JSON counts more than DynamoDB does (quotes, braces, commas), so under 400 KB as JSON is under it as an item.
    expect(Buffer.byteLength(JSON.stringify(chunks[0]))).toBeLessThan(400 * 1024);
  });

  test('a file no parser can read is refused when it is sent, before any job exists', () => {
    expect(() => prepare('{"data": 3}')).toThrow(ImportFileUnreadable);
  });

  test('the monthly quota counts one call per 50 rows, as the batch route would', () => {
    expect([0, 1, 50, 51, 100_000].map(importCallCount)).toEqual([1, 1, 1, 2, 2000]);
  });
});

describe('the worker', () => {
  test('makes each link with its history, on the workspace\'s domain of the same name, with that domain\'s claim', async () => {
    const store = new MemoryImportStore();
    const summary = await runAll(prepare(fixture('kutt.json')), store);
    expect(summary).toEqual({
      id: 'imp_1', source: 'kutt', status: 'done', createdAt: '2026-01-01T00:00:00.000Z', read: 3, created: 1, renamed: 1, skipped: 0, failed: 1, existing: 0,
      results: [
        { row: 2, outcome: 'renamed', code: 'Gen0001', domain: 'k.example-shop.com', reason: 'the slug cannot be kept here: Alias may contain only letters, digits and hyphens; created as Gen0001' },
        { row: 3, outcome: 'failed', reason: 'visit_count is not a whole number of clicks' },
      ],
    });
    expect(store.links.get('aB3dE')).toEqual({ code: 'aB3dE', url: 'https://docs.kutt.it/', isAlias: true, createdAt: '2020-02-13T18:05:04.000Z', madeAt: new Date(NOW_MS).toISOString(), clicks: 0, owner: 'acct_1', title: 'Kutt docs', importedClicks: 91, importedFrom: { source: 'kutt', sourceId: '8c5b3c0e-2f9b-4c55-9a55-0c9b3d2d6f10', importId: 'imp_1' } });
    expect(store.links.get('k.example-shop.com/Gen0001')).toMatchObject({ domain: 'k.example-shop.com', claimId: 'claim_1', isAlias: false, expiresAt: '2027-01-01T00:00:00.000Z', importedClicks: 0 });
  });

  test('stamps each link it makes as created by whoever started the import, in their request; a job from before has no author', async () => {
    const author = { actor: { kind: 'user', userId: 'u-1', email: 'ana@example.com', role: 'admin' }, requestId: 'req-import' } as const;
    const content = fixture('kutt.json');
    const prepared = prepareImport({ id: 'imp_1', owner: 'acct_1', source: 'kutt', onConflict: 'rename', content, author }, { nowMs: NOW_MS, workspaceDomains: new Set() });
    expect(prepared.job.author).toEqual(author);
    const store = new MemoryImportStore();
    await runAll(prepared, store);
    expect([...store.stamps.values()]).toEqual([
      { id: expect.any(String), action: 'link.created', actor: author.actor, at: '2026-01-01T00:00:00.000Z', requestId: 'req-import' },
      { id: expect.any(String), action: 'link.created', actor: author.actor, at: '2026-01-01T00:00:00.000Z', requestId: 'req-import' },
    ]);
    const anonymous = new MemoryImportStore();
    await runAll(prepare(content), anonymous);
    expect([...anonymous.stamps.values()]).toEqual([undefined, undefined]);
  });

  test('a taken slug is skipped or renamed as asked; a generated code that collides is replaced under the same reason', async () => {
    const file = 'url,alias\nhttps://example.com/a,taken\n';
    for (const [onConflict, expected] of [
      ['skip', { row: 1, outcome: 'skipped', reason: 'the slug is taken on this domain' }],
      ['rename', { row: 1, outcome: 'renamed', code: 'Gen0002', reason: 'the slug is taken on this domain; created as Gen0002' }],
    ] as const) {
      const store = new MemoryImportStore();
      store.links.set('taken', { code: 'taken' } as ImportedLinkRecord);
      store.links.set('Gen0001', { code: 'Gen0001' } as ImportedLinkRecord);
      expect((await runAll(prepare(file, 'imp_1', 'csv', onConflict), store)).results).toEqual([expected]);
    }
  });

  test('running the same file again creates nothing new: every row is one the earlier run imported', async () => {
    const store = new MemoryImportStore();
    await runAll(prepare(fixture('yourls.csv'), 'imp_1', 'yourls'), store);
    const linksBefore = new Map(store.links);
    const again = await runAll(prepare(fixture('yourls.csv'), 'imp_2', 'yourls'), store);
    expect(store.links).toEqual(linksBefore);
    expect(again).toMatchObject({ created: 0, renamed: 0, existing: 3, failed: 1 });
  });

  test('a worker that crashes midway and runs the chunk again settles every row the same way, each link made once', async () => {
    const rows = Array.from({ length: 30 }, (_, index) => `https://example.com/${index},${index % 3 === 0 ? `é${index}` : `code${index}`}`).join('\n');
    const prepared = prepare(`url,alias\n${rows}\n`, 'imp_1', 'csv');
    const [chunk] = prepared.chunks;
    const whole = new MemoryImportStore();
    const expected = await importChunk(prepared.job, chunk!, { writer: whole, generateCode: codes(), claimOf: () => undefined, nowMs: () => NOW_MS });

    const crashing = new MemoryImportStore();
    crashing.crashAfter = 17;
    const generateCode = codes();
    await expect(importChunk(prepared.job, chunk!, { writer: crashing, generateCode, claimOf: () => undefined, nowMs: () => NOW_MS })).rejects.toThrow('the worker stopped');
    crashing.crashAfter = Number.POSITIVE_INFINITY;
    const retried = await importChunk(prepared.job, chunk!, { writer: crashing, generateCode, claimOf: () => undefined, nowMs: () => NOW_MS });

    expect(crashing.links.size).toBe(30);
    expect(retried.map(({ row, outcome }) => [row, outcome])).toEqual(expected.map(({ row, outcome }) => [row, outcome]));
    // Rows settled before the crash keep the codes they were made under.
    expect(retried.slice(0, 17)).toEqual(expected.slice(0, 17));
  });

  test('on its last offer, a chunk that fails again reports the failing row and those after it failed, and its job ends', async () => {
    const rows = Array.from({ length: 30 }, (_, index) => `https://example.com/${index},${index % 3 === 0 ? `é${index}` : `code${index}`}`).join('\n');
    const prepared = prepare(`url,alias\n${rows}\n`, 'imp_1', 'csv');
    const [chunk] = prepared.chunks;
    const expected = await importChunk(prepared.job, chunk!, { writer: new MemoryImportStore(), generateCode: codes(), claimOf: () => undefined, nowMs: () => NOW_MS });

    const failing = new MemoryImportStore();
    failing.crashAfter = 17;
    const told: unknown[] = [];
    const results = await importChunk(prepared.job, chunk!, { writer: failing, generateCode: codes(), claimOf: () => undefined, nowMs: () => NOW_MS, onLastOfferFailure: (error) => told.push(error) });

    expect(told).toEqual([new Error('the worker stopped')]);
    // Rows made before the failure keep their outcomes and codes; the rest are not tried.
    expect(results.slice(0, 17)).toEqual(expected.slice(0, 17));
    expect(results.slice(17)).toEqual(Array.from({ length: 13 }, (_, index) => ({ row: 18 + index, outcome: 'failed', reason: 'the import could not finish this row: import the file again (rows already imported are not made twice)' })));
    expect(failing.links.size).toBe(17);
    expect(summaryOf(prepared.job, [results])).toMatchObject({ status: 'done', read: 30, failed: 13, created: 11, renamed: 6 });
  });

  test('the file sent again after a chunk was given up imports its unfinished rows, and only those', async () => {
    const content = `url,alias\n${Array.from({ length: 10 }, (_, index) => `https://example.com/${index},code${index}`).join('\n')}\n`;
    const store = new MemoryImportStore();
    store.crashAfter = 4;
    const first = prepare(content, 'imp_1', 'csv');
    const givenUp = await importChunk(first.job, first.chunks[0]!, { writer: store, generateCode: codes(), claimOf: () => undefined, nowMs: () => NOW_MS, onLastOfferFailure: () => undefined });
    expect(summaryOf(first.job, [givenUp])).toMatchObject({ status: 'done', created: 4, failed: 6 });
    store.crashAfter = Number.POSITIVE_INFINITY;
    expect(await runAll(prepare(content, 'imp_2', 'csv'), store)).toMatchObject({ status: 'done', created: 6, existing: 4, failed: 0 });
    expect(store.links.size).toBe(10);
  });

  test('a job is running until every chunk has its results', () => {
    const { job } = prepare(`url,alias\n${Array.from({ length: 75 }, (_, index) => `https://example.com/${index},c${index}x`).join('\n')}\n`, 'imp_1', 'csv');
    expect(summaryOf(job, [[]]).status).toBe('running');
    expect(summaryOf(job, [[], []]).status).toBe('done');
  });
});
