import { randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import type { ApiKeyCaller } from '../accounts/caller';
import type { ChangeAuthor } from '../audit/audit-stamp';
import { ImportNotFound } from '../errors';
import { countMonthlyCalls, type RateLimitStatus } from '../limits/rate-limits';
import { ImportMessages } from '../messages';
import type { DomainStore, UsageCounter } from '../ports';
import { builtOnFirstUse, parseOrRefuse } from '../request-parsing';
import { importCallCount, summaryOf, unfinishedRows, type ImportChunk, type ImportJob, type ImportSummary, type RowResult } from './import-job';
import { prepareImport } from './import-planning';
import { IMPORT_SOURCES } from './import-record';
import { ON_CONFLICT } from './link-mapping';
import { previewImport, type ImportPreview } from './import-preview';

/** The ceiling: a file of more rows is split by its owner rather than held by one job for hours. */
export const MAX_IMPORT_ROWS = 100_000;
/** Jobs `GET /v2/imports` lists, newest first. */
export const LISTED_IMPORTS = 20;

export const importRequestSchema = builtOnFirstUse(() =>
  z.object({
    source: z.enum(IMPORT_SOURCES, { error: ImportMessages.sourceInvalid }),
    content: z.string({ error: ImportMessages.contentInvalid }),
    onConflict: z.optional(z.enum(ON_CONFLICT, { error: ImportMessages.onConflictInvalid })),
  }),
);

export interface ImportJobs {
  saveJob(job: ImportJob, chunks: readonly ImportChunk[], nowMs: number): Promise<void>;
  job(jobId: string): Promise<ImportJob | undefined>;
  chunkResults(jobId: string): Promise<RowResult[][]>;
  /** Chunks' results, each stored only where its chunk has none yet: a worker's, written first, are the truth and stay. */
  saveMissingResults(jobId: string, chunks: ReadonlyArray<{ index: number; results: readonly RowResult[] }>, nowMs: number): Promise<void>;
  jobIds(owner: string, limit: number): Promise<string[]>;
}

/** Where the worker's chunks wait: one message per chunk. */
export interface ImportQueue {
  /** The indexes of the chunks it could not queue (none when all went). */
  sendChunks(jobId: string, chunkCount: number): Promise<number[]>;
}

export interface ImportDeps {
  jobs: ImportJobs;
  queue: ImportQueue;
  domains: Pick<DomainStore, 'listByOwner'>;
  usage: UsageCounter;
}

export interface ImportContext {
  caller: ApiKeyCaller;
  /** Who starts the import, in which request: its links' audit records name them. */
  author?: ChangeAuthor;
  rateLimit: RateLimitStatus;
  nowMs: number;
}

const newImportId = () => `imp_${randomBytes(12).toString('base64url')}`;

/**
 * POST /v2/imports: the file read and mapped now (a file no parser can read is a 400 and no job), the quota charged,
 * the job stored (or the charge given back), its chunks queued; the worker makes the links.
 *
 * The job is listed once stored, so a chunk the queue did not take would hold it `running` for ever. Its rows are failed
 * instead, there and then, and the answer is the job's id as usual: its results name those rows, and sending the file
 * again imports them (the others are found already imported: imports are idempotent per source id). Undoing the job
 * would not do: chunks the queue did take may have made links already. Should a send whose answer was lost have queued
 * the chunk after all, the worker's results replace these, or stand if written first.
 */
export async function startImport(body: unknown, context: ImportContext, deps: ImportDeps): Promise<{ id: string }> {
  const request = parseOrRefuse(importRequestSchema(), body);
  const owner = context.caller.owner;
  const active = (await deps.domains.listByOwner(owner)).filter((domain) => domain.status === 'active').map((domain) => domain.domain);
  const id = newImportId();
  const { job, chunks } = prepareImport({ id, owner, source: request.source, onConflict: request.onConflict ?? 'skip', content: request.content, ...(context.author === undefined ? {} : { author: context.author }) }, { nowMs: context.nowMs, workspaceDomains: new Set(active), maxRows: MAX_IMPORT_ROWS });
  // The request itself was counted by the guard: the rest of the rows' calls now.
  const giveBack = await countMonthlyCalls(context.caller, deps.usage, context.nowMs, context.rateLimit, importCallCount(job.read) - 1);
  try {
    await deps.jobs.saveJob(job, chunks, context.nowMs);
  } catch (error) {
    // No job stored, no link made: its rows' calls go back (the request's own stays counted, as a failed request's does).
    await giveBack();
    throw error;
  }
  const unqueued = new Set(await deps.queue.sendChunks(id, chunks.length));
  const failed = chunks.filter((chunk) => unqueued.has(chunk.index)).map((chunk) => ({ index: chunk.index, results: unfinishedRows(chunk.drafts) }));
  if (failed.length > 0) await deps.jobs.saveMissingResults(id, failed, context.nowMs);
  return { id };
}

/** POST /v2/imports/preview: the first rows mapped as the import would make them, on the caller's active domains. */
export async function previewImportOf(body: unknown, context: Pick<ImportContext, 'caller' | 'nowMs'>, deps: Pick<ImportDeps, 'domains'>): Promise<ImportPreview> {
  const request = parseOrRefuse(importRequestSchema(), body);
  const active = (await deps.domains.listByOwner(context.caller.owner)).filter((domain) => domain.status === 'active').map((domain) => domain.domain);
  return previewImport(request, { nowMs: context.nowMs, workspaceDomains: new Set(active), maxRows: MAX_IMPORT_ROWS });
}

/** GET /v2/imports/{id}: the caller's own job only; another workspace's is not found, as one that never was. */
export async function viewImport(id: string, context: Pick<ImportContext, 'caller'>, deps: Pick<ImportDeps, 'jobs'>): Promise<ImportSummary> {
  const job = /^imp_[A-Za-z0-9_-]{16}$/.test(id) ? await deps.jobs.job(id) : undefined;
  if (!job || job.owner !== context.caller.owner) throw new ImportNotFound(ImportMessages.notFound);
  return summaryOf(job, await deps.jobs.chunkResults(id));
}

/** GET /v2/imports: the workspace's latest jobs, newest first, without their per-row results. */
export async function listImports(context: Pick<ImportContext, 'caller'>, deps: Pick<ImportDeps, 'jobs'>): Promise<{ imports: Array<Omit<ImportSummary, 'results'>> }> {
  const ids = await deps.jobs.jobIds(context.caller.owner, LISTED_IMPORTS);
  const summaries = await Promise.all(ids.map((id) => viewImport(id, context, deps).then(({ results: _results, ...summary }) => summary)));
  return { imports: summaries };
}
