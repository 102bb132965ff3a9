import type { ChangeAuthor } from '../audit/audit-stamp';
import { InvalidRequest } from '../errors';
import { ImportMessages } from '../messages';
import { IMPORT_CHUNK_ROWS, type ImportChunk, type ImportJob } from './import-job';
import { IMPORT_PARSERS } from './import-parsers';
import type { ImportSource } from './import-record';
import { planImport, type OnConflict } from './link-mapping';

/**
 * Reading an import's file, apart from the jobs' other rules: only the API that accepts a file needs the parsers
 * (csv-parse among them); the worker, which writes chunks already mapped, loads none of them (issue 28's cold start).
 */

/** The file read and mapped into a job and its chunks; a file no parser can read throws (ImportFileUnreadable, 400). */
export function prepareImport(
  request: { id: string; owner: string; source: ImportSource; onConflict: OnConflict; content: string; author?: ChangeAuthor },
  context: { nowMs: number; workspaceDomains: ReadonlySet<string>; maxRows?: number },
): { job: ImportJob; chunks: ImportChunk[] } {
  const parsed = IMPORT_PARSERS[request.source](request.content, { nowMs: context.nowMs, maxRows: context.maxRows });
  // Counted before the rows are mapped: a file over the limit costs the reading of its first rows only.
  if (context.maxRows !== undefined && parsed.records.length + parsed.problems.length > context.maxRows) throw new InvalidRequest(ImportMessages.tooManyRows(context.maxRows));
  const plan = planImport(parsed, { source: request.source, workspaceDomains: context.workspaceDomains, nowMs: context.nowMs });
  const chunks: ImportChunk[] = [];
  for (let start = 0; start < plan.drafts.length; start += IMPORT_CHUNK_ROWS) {
    chunks.push({ jobId: request.id, index: chunks.length, drafts: plan.drafts.slice(start, start + IMPORT_CHUNK_ROWS) });
  }
  return {
    job: {
      id: request.id,
      owner: request.owner,
      source: request.source,
      onConflict: request.onConflict,
      createdAt: new Date(context.nowMs).toISOString(),
      read: parsed.records.length + parsed.problems.length,
      chunkCount: chunks.length,
      problems: plan.problems,
      ...(request.author === undefined ? {} : { author: request.author }),
    },
    chunks,
  };
}
