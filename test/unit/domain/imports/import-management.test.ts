/** csv-parse as the parsers call it, telling how many records it handed over: the reading of a file stops at the row limit. */
const mockCsvRecords = jest.fn<void, [number]>();
jest.mock('csv-parse/sync', () => {
  const actual = jest.requireActual('csv-parse/sync');
  return { ...actual, parse: (...args: unknown[]) => { const records = actual.parse(...args) as unknown[]; mockCsvRecords(records.length); return records; } };
});

import type { ImportChunk, ImportJob, RowResult } from '../../../../functions/shared/domain/imports/import-job';
import { IMPORT_PARSERS } from '../../../../functions/shared/domain/imports/import-parsers';
import { listImports, MAX_IMPORT_ROWS, startImport, viewImport, type ImportDeps, type ImportJobs } from '../../../../functions/shared/domain/imports/import-management';
import { ImportNotFound, InvalidRequest, QuotaExceeded } from '../../../../functions/shared/domain/errors';
import { monthlyQuotaCounter, type RateLimitStatus } from '../../../../functions/shared/domain/limits/rate-limits';
import type { DomainRecord } from '../../../../functions/shared/domain/domains/custom-domain';
import { keyCaller } from '../../../support/callers';
import { MemoryUsageCounter } from '../../../support/in-memory-ports';

const NOW_MS = Date.parse('2026-01-15T00:00:00.000Z');
const rateLimit: RateLimitStatus = { limit: 60, remaining: 59, resetAt: 0 } as unknown as RateLimitStatus;
const caller = (owner = 'acct_1') => keyCaller({ keyId: 'key_1', accountId: owner, owner, plan: 'FREE' });

class MemoryJobs implements ImportJobs {
  readonly jobs = new Map<string, { job: ImportJob; chunks: readonly ImportChunk[] }>();
  /** Each job's results by chunk index. */
  readonly results = new Map<string, Map<number, readonly RowResult[]>>();
  async saveJob(job: ImportJob, chunks: readonly ImportChunk[]) {
    this.jobs.set(job.id, { job, chunks });
  }
  async job(id: string) {
    return this.jobs.get(id)?.job;
  }
  async chunkResults(id: string) {
    return [...(this.results.get(id) ?? new Map<number, readonly RowResult[]>()).values()].map((results) => [...results]);
  }
  async saveMissingResults(id: string, chunks: ReadonlyArray<{ index: number; results: readonly RowResult[] }>) {
    const stored = this.results.get(id) ?? new Map<number, readonly RowResult[]>();
    for (const { index, results } of chunks) if (!stored.has(index)) stored.set(index, results);
    this.results.set(id, stored);
  }
  async jobIds(owner: string) {
    return [...this.jobs.values()].filter(({ job }) => job.owner === owner).map(({ job }) => job.id).reverse();
  }
}

/** The queue leaves out the chunks of `unqueued`, as SQS refusing entries or not answering would. */
function deps(domains: DomainRecord[] = [], unqueued: number[] = []) {
  const sent: Array<[string, number]> = [];
  const jobs = new MemoryJobs();
  const usage = new MemoryUsageCounter();
  const queue = {
    sendChunks: async (id: string, count: number) => {
      sent.push([id, count]);
      return unqueued;
    },
  };
  const all: ImportDeps = { jobs, usage, queue, domains: { listByOwner: async () => domains } };
  return { all, jobs, usage, sent };
}

const csv = (rows: number) => `url,alias\n${Array.from({ length: rows }, (_, index) => `https://example.com/${index},c${index}x`).join('\n')}\n`;

describe('POST /v2/imports', () => {
  test('stores the job, queues one message per chunk and answers its id; the workspace\'s active domains only are kept', async () => {
    const { all, jobs, sent } = deps([{ domain: 'go.example-shop.com', status: 'active' } as DomainRecord, { domain: 'old.example-shop.com', status: 'pending' } as DomainRecord]);
    const content = 'url,alias,domain\nhttps://example.com/a,aaa,go.example-shop.com\nhttps://example.com/b,bbb,old.example-shop.com\n';
    const { id } = await startImport({ source: 'csv', content }, { caller: caller(), rateLimit, nowMs: NOW_MS }, all);
    expect(id).toMatch(/^imp_[A-Za-z0-9_-]{16}$/);
    expect(sent).toEqual([[id, 1]]);
    const drafts = jobs.jobs.get(id)?.chunks[0]?.drafts.map(({ draft }) => draft.request.domain);
    expect(drafts).toEqual(['go.example-shop.com', undefined]);
    expect(jobs.jobs.get(id)?.job).toMatchObject({ onConflict: 'skip', source: 'csv', read: 2 });
  });

  test('charges one call per 50 rows beyond the request\'s own, and refuses the whole file when the month has not that many left', async () => {
    const { all, usage, sent } = deps();
    const counter = monthlyQuotaCounter('acct_1', NOW_MS);
    await startImport({ source: 'csv', content: csv(120) }, { caller: caller(), rateLimit, nowMs: NOW_MS }, all);
    expect(usage.counts.get(counter)).toBe(2);
    usage.counts.set(counter, 1000);
    await expect(startImport({ source: 'csv', content: csv(51) }, { caller: caller(), rateLimit, nowMs: NOW_MS }, all)).rejects.toThrow(QuotaExceeded);
    expect(usage.counts.get(counter)).toBe(1000);
    expect(sent).toHaveLength(1);
  });

  test('a job that cannot be stored spends none of the month: the calls counted for its rows are given back', async () => {
    const { all, jobs, usage, sent } = deps();
    const counter = monthlyQuotaCounter('acct_1', NOW_MS);
    usage.counts.set(counter, 7);
    jest.spyOn(jobs, 'saveJob').mockRejectedValue(new Error('Item size has exceeded the maximum allowed size'));
    await expect(startImport({ source: 'csv', content: csv(120) }, { caller: caller(), rateLimit, nowMs: NOW_MS }, all)).rejects.toThrow('Item size has exceeded the maximum allowed size');
    expect(usage.counts.get(counter)).toBe(7);
    expect(sent).toEqual([]);
  });

  test('the rows of a chunk the queue did not take are failed at once, so the job ends when the others do and says what to send again', async () => {
    const { all, jobs, usage } = deps([], [1]);
    const counter = monthlyQuotaCounter('acct_1', NOW_MS);
    const { id } = await startImport({ source: 'csv', content: csv(120) }, { caller: caller(), rateLimit, nowMs: NOW_MS }, all);
    expect(await viewImport(id, { caller: caller() }, all)).toMatchObject({ status: 'running', failed: 50 });
    // The worker settles the two chunks it was given.
    const settled = (from: number, to: number): RowResult[] => Array.from({ length: to - from + 1 }, (_, offset) => ({ row: from + offset, outcome: 'created', code: `c${from + offset - 1}x` }));
    jobs.results.get(id)?.set(0, settled(1, 50)).set(2, settled(101, 120));
    const summary = await viewImport(id, { caller: caller() }, all);
    expect(summary).toMatchObject({ status: 'done', read: 120, created: 70, failed: 50 });
    expect(summary.results).toEqual(Array.from({ length: 50 }, (_, offset) => ({ row: 51 + offset, outcome: 'failed', reason: 'the import could not finish this row: import the file again (rows already imported are not made twice)' })));
    // Those rows are charged as any failed row is: the file was read and its job kept.
    expect(usage.counts.get(counter)).toBe(2);
  });

  test.each([
    [{ source: 'tinyurl', content: 'x' }, 'source must be one of bitly, rebrandly, shortio, dub, shlink, kutt, yourls, csv'],
    [{ source: 'csv', content: 42 }, 'content must be the text of the file'],
    [{ source: 'csv', content: 'url\n', onConflict: 'overwrite' }, 'onConflict must be skip or rename'],
  ])('refuses %j: %s', async (body, message) => {
    await expect(startImport(body, { caller: caller(), rateLimit, nowMs: NOW_MS }, deps().all)).rejects.toThrow(new InvalidRequest(message));
  });

  test('refuses more than 100,000 rows before anything is stored or charged', async () => {
    const { all, jobs } = deps();
    await expect(startImport({ source: 'csv', content: `url\n${'https://example.com/\n'.repeat(100_001)}` }, { caller: caller(), rateLimit, nowMs: NOW_MS }, all)).rejects.toThrow('The file has more than 100000 rows: split it');
    expect(jobs.jobs.size).toBe(0);
  });

  test('a hostile file of 1.75 million one-cell rows is refused as too many, its reading stopped one row past the limit', async () => {
    const { all, jobs, usage } = deps();
    mockCsvRecords.mockClear();
    await expect(startImport({ source: 'bitly', content: `id,long_url\n${'a\n'.repeat(1_750_000)}` }, { caller: caller(), rateLimit, nowMs: NOW_MS }, all)).rejects.toThrow(new InvalidRequest('The file has more than 100000 rows: split it'));
    // The header, the limit's rows, and the one row that shows the file is over it.
    expect(mockCsvRecords.mock.calls).toEqual([[MAX_IMPORT_ROWS + 2]]);
    expect([jobs.jobs.size, usage.counts.size]).toEqual([0, 0]);
  });

  test('so is a JSON listing of 1.75 million entries, its entries past the limit never looked at', async () => {
    const { all, jobs } = deps();
    const content = `[${'{},'.repeat(1_750_000)}{}]`;
    await expect(startImport({ source: 'kutt', content }, { caller: caller(), rateLimit, nowMs: NOW_MS }, all)).rejects.toThrow(new InvalidRequest('The file has more than 100000 rows: split it'));
    expect(jobs.jobs.size).toBe(0);
    expect(IMPORT_PARSERS.kutt(content, { nowMs: NOW_MS, maxRows: MAX_IMPORT_ROWS }).problems).toHaveLength(MAX_IMPORT_ROWS + 1);
  });
});

describe('GET /v2/imports and /v2/imports/{id}', () => {
  test('the workspace sees its jobs; another workspace\'s, or an id of any shape, is not found', async () => {
    const { all } = deps();
    const { id } = await startImport({ source: 'csv', content: csv(3) }, { caller: caller(), rateLimit, nowMs: NOW_MS }, all);
    expect(await viewImport(id, { caller: caller() }, all)).toMatchObject({ id, status: 'running', read: 3 });
    expect((await listImports({ caller: caller() }, all)).imports.map((entry) => entry.id)).toEqual([id]);
    await expect(viewImport(id, { caller: caller('acct_2') }, all)).rejects.toThrow(ImportNotFound);
    for (const odd of ['', '../x', 'imp_', `${id}x`, 'imp_😀😀😀😀😀😀😀😀']) await expect(viewImport(odd, { caller: caller() }, all)).rejects.toThrow(new ImportNotFound('Import not found'));
  });
});
