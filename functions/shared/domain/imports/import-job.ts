import { MAX_BATCH_ITEMS } from '../links/batch-limits';
import type { LinkRecord } from '../links/link';
import { auditStamp, type AuditStamp, type ChangeAuthor } from '../audit/audit-stamp';
import { ImportMessages } from '../messages';
import type { ImportSource, RowProblem } from './import-record';
import { firstPlacement, settleConflict, type ImportDraft, type OnConflict, type Placement } from './link-mapping';

/**
 * An import as a job (issue 31): the file is read and mapped when it is accepted (a file it cannot read is refused
 * then, 400; import-planning.ts), its drafts cut into chunks the worker takes one queue message at a time. Each chunk's outcome is a
 * function of what is stored (each link is written with its import marker in one transaction), so a chunk retried
 * after a crash settles the same rows the same way and never makes a link twice.
 */

/**
 * Rows per chunk: one queue message of work. A chunk item stays under DynamoDB's 400 KB with 2 KB URLs, 500-character
 * titles and 255-character slugs and ids (link-mapping.ts), each in the widest characters.
 */
export const IMPORT_CHUNK_ROWS = 50;

/**
 * A chunk is offered this many times when the worker fails on it (DynamoDB down, a crash), then kept aside: the chunk
 * queue's maxReceiveCount (lib/imports.ts), and the offer on which the worker fails rows rather than the chunk.
 */
export const IMPORT_CHUNK_RECEIVES = 5;

export interface ImportJob {
  id: string;
  owner: string;
  source: ImportSource;
  onConflict: OnConflict;
  createdAt: string;
  /** Rows read from the file (its records and its problems). */
  read: number;
  chunkCount: number;
  /** Rows refused before any write: the parser's and the mapping's problems. */
  problems: RowProblem[];
  /** Who started it, in which request: each link it makes is recorded as theirs (`link.created`, audit log). Absent on jobs from before. */
  author?: ChangeAuthor;
}

export interface ImportChunk {
  jobId: string;
  index: number;
  drafts: Array<{ row: number; draft: ImportDraft }>;
}

/** Where an imported link came from: the peer and its id for the link, and the import that brought it. */
export type ImportedFrom = ImportDraft['importedFrom'] & { importId: string };

/** A link made by an import: a link, with its history and where it came from. */
export type ImportedLinkRecord = LinkRecord & { title?: string; importedClicks: number; importedFrom: ImportedFrom };

/** Remembered with each imported link under (owner, idempotency key): which job made it, under what code, and why renamed. */
export interface ImportMarker {
  owner: string;
  idempotencyKey: string;
  jobId: string;
  row: number;
  code: string;
  domain?: string;
  renamed?: string;
}

export type ImportWrite = { outcome: 'created' } | { outcome: 'codeTaken' } | { outcome: 'imported'; marker: ImportMarker };

/** The store an import worker writes links through (adapters/dynamo-import-store.ts). */
export interface ImportedLinkWriter {
  /**
   * The link (with its audit stamp, when the job has an author) and its marker in one transaction: refused when the
   * code is taken, or when the marker exists (its value).
   */
  createImported(link: ImportedLinkRecord, marker: ImportMarker, stamp?: AuditStamp): Promise<ImportWrite>;
}

export type RowOutcome = 'created' | 'renamed' | 'skipped' | 'failed' | 'existing';
export interface RowResult {
  row: number;
  outcome: RowOutcome;
  code?: string;
  domain?: string;
  reason?: string;
}

/** What the API answers and the results file holds. */
export interface ImportSummary {
  id: string;
  source: ImportSource;
  status: 'running' | 'done' | 'failed';
  createdAt: string;
  read: number;
  created: number;
  renamed: number;
  skipped: number;
  failed: number;
  /** Rows a run before this one had imported already: nothing made again. */
  existing: number;
  /** The failed, renamed and skipped rows with their reasons, in file order. */
  results: RowResult[];
}

/** Every import is one call per 50 links against the monthly quota, as its rows sent through the batch route would be. */
export const importCallCount = (rows: number): number => Math.max(1, Math.ceil(rows / MAX_BATCH_ITEMS));

/** Tries for one row: its slug, then generated codes (each collides about once in 3.5e12). */
const ATTEMPTS = 5;

export interface ChunkDeps {
  writer: ImportedLinkWriter;
  generateCode: () => string;
  /** The claim of each of the workspace's domains, carried by the links made on it (links/link.ts `madeUnderClaim`). */
  claimOf: (domain: string) => string | undefined;
  /** The clock of the links' audit records. */
  nowMs: () => number;
  /**
   * Present on the chunk's last offer (its dead-letter queue is next): told why the chunk stopped, while the row that
   * failed and those after it are reported failed, so the job ends rather than wait on a chunk no worker takes again.
   */
  onLastOfferFailure?: (error: unknown) => void;
}

function linkOf(draft: ImportDraft, placement: Extract<Placement, { kind: 'create' }>, job: ImportJob, claimId: string | undefined, nowMs: number): ImportedLinkRecord {
  const { request } = draft;
  return {
    code: placement.code,
    ...(request.domain === undefined ? {} : { domain: request.domain, ...(claimId === undefined ? {} : { claimId }) }),
    url: request.url,
    isAlias: placement.isAlias,
    createdAt: draft.createdAt,
    // The peer's createdAt is the file's word: this instant is the one the link's stats count from (links/link.ts firstDayOf).
    madeAt: new Date(nowMs).toISOString(),
    ...(draft.expiresAt === undefined ? {} : { expiresAt: draft.expiresAt }),
    clicks: 0,
    owner: job.owner,
    ...(request.tags?.length ? { tags: request.tags } : {}),
    ...(draft.title === undefined ? {} : { title: draft.title }),
    importedClicks: draft.importedClicks,
    importedFrom: { ...draft.importedFrom, importId: job.id },
  };
}

/** A stored marker as this row's result: this job's own (a retried chunk) counts as made by it, another's as existing. */
function resultOfMarker(row: number, marker: ImportMarker, jobId: string): RowResult {
  const place = { code: marker.code, ...(marker.domain === undefined ? {} : { domain: marker.domain }) };
  if (marker.jobId !== jobId) return { row, outcome: 'existing', ...place };
  return marker.renamed === undefined ? { row, outcome: 'created', ...place } : { row, outcome: 'renamed', ...place, reason: marker.renamed };
}

async function importRow(job: ImportJob, row: number, draft: ImportDraft, deps: ChunkDeps): Promise<RowResult> {
  // Why the row's slug was given up, once it was: a generated code that collides is replaced under the same reason.
  let givenUp = draft.slugRefusal;
  let placement = firstPlacement(draft, job.onConflict, deps.generateCode);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (placement.kind === 'skip') return { row, outcome: 'skipped', reason: placement.reason };
    const domain = draft.request.domain;
    const marker: ImportMarker = {
      owner: job.owner,
      idempotencyKey: draft.idempotencyKey,
      jobId: job.id,
      row,
      code: placement.code,
      ...(domain === undefined ? {} : { domain }),
      ...(placement.renamed === undefined ? {} : { renamed: placement.renamed }),
    };
    // Recorded as a creation by whoever started the import, in the request that did (audit-events reads the stamp).
    const nowMs = deps.nowMs();
    const stamp = job.author === undefined ? undefined : auditStamp('link.created', job.author, nowMs);
    const write = await deps.writer.createImported(linkOf(draft, placement, job, domain === undefined ? undefined : deps.claimOf(domain), nowMs), marker, stamp);
    if (write.outcome === 'imported') return resultOfMarker(row, write.marker, job.id);
    if (write.outcome === 'created') return resultOfMarker(row, marker, job.id);
    if (placement.isAlias) givenUp = ImportMessages.slugTaken;
    placement = givenUp === undefined ? { kind: 'create', code: deps.generateCode(), isAlias: false } : settleConflict(givenUp, job.onConflict, deps.generateCode);
  }
  return { row, outcome: 'failed', reason: ImportMessages.noFreeCode };
}

/** Rows no worker will settle (their chunk given up, or never queued): failed, for the file to be imported again. */
export const unfinishedRows = (drafts: ImportChunk['drafts']): RowResult[] => drafts.map(({ row }) => ({ row, outcome: 'failed', reason: ImportMessages.rowUnfinished }));

/**
 * One chunk's rows, in order; a store that fails throws, and the queue hands the chunk back to be settled again. On the
 * last offer the rows after a failure are not tried: a store failing each of them (two attempts of up to 1.2 s per
 * call) would hold the worker past its timeout, and the chunk would reach the dead-letter queue with no results.
 */
export async function importChunk(job: ImportJob, chunk: ImportChunk, deps: ChunkDeps): Promise<RowResult[]> {
  const results: RowResult[] = [];
  for (const [at, { row, draft }] of chunk.drafts.entries()) {
    try {
      results.push(await importRow(job, row, draft, deps));
    } catch (error) {
      if (deps.onLastOfferFailure === undefined) throw error;
      deps.onLastOfferFailure(error);
      return [...results, ...unfinishedRows(chunk.drafts.slice(at))];
    }
  }
  return results;
}

/**
 * The job as the API shows it: running until every chunk has its results, which each gets: from the worker, failed rows
 * on its last offer (importChunk), or failed rows when the queue never took it (import-management.ts startImport).
 */
export function summaryOf(job: ImportJob, chunkResults: ReadonlyArray<readonly RowResult[]>): ImportSummary {
  const rows = [...job.problems.map((problem): RowResult => ({ row: problem.row, outcome: 'failed', reason: problem.reason })), ...chunkResults.flat()];
  const count = (outcome: RowOutcome) => rows.filter((result) => result.outcome === outcome).length;
  return {
    id: job.id,
    source: job.source,
    status: chunkResults.length >= job.chunkCount ? 'done' : 'running',
    createdAt: job.createdAt,
    read: job.read,
    created: count('created'),
    renamed: count('renamed'),
    skipped: count('skipped'),
    failed: count('failed'),
    existing: count('existing'),
    results: rows.filter((result) => result.outcome === 'failed' || result.outcome === 'renamed' || result.outcome === 'skipped').sort((a, b) => a.row - b.row),
  };
}
