import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ShortenerClient } from '../../clients/typescript/src';
import type { paths } from '../../clients/typescript/src/schema';
import { IMPORT_SOURCES, type ImportSource } from '../../functions/shared/domain/imports/import-record';
import { ON_CONFLICT } from '../../functions/shared/domain/imports/link-mapping';
import { csvText } from '../../functions/shared/http/csv';
import { ApiRefusal, messageOf, type Io } from './commands';
import { UsageError } from './csv-links';
import { progressFor } from './progress';

type ImportView = paths['/v2/imports/{id}']['get']['responses'][200]['content']['application/json'];

export interface ImportFromOptions {
  from: string;
  onConflict?: string;
  /** Where the results file goes (`<file>.<import id>.results.csv` beside the input by default). */
  out?: string;
  /** How many minutes the job is followed (`--wait`) before the command leaves it running and exits 1. */
  wait?: string;
  /** How often the job is asked how far it is. */
  pollMs?: number;
  /** The clock the wait is measured by. */
  nowMs?: () => number;
}

const POLL_MS = 1000;
/**
 * Past the longest a chunk the worker keeps failing on takes to end (four visibility timeouts of 6 minutes before its
 * last offer, lib/imports.ts), with room: a 100,000-row import takes minutes. Each poll counts against the month.
 */
const WAIT_MINUTES = 30;

const settledRows = (job: ImportView) => job.created + job.renamed + job.skipped + job.failed + job.existing;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sourceOf(text: string): ImportSource {
  if (!(IMPORT_SOURCES as readonly string[]).includes(text)) throw new UsageError(`--from must be one of ${IMPORT_SOURCES.join(', ')}`);
  return text as ImportSource;
}

function waitMsOf(text: string | undefined): number {
  const minutes = text === undefined ? WAIT_MINUTES : Number(text);
  if (!(minutes > 0)) throw new UsageError('--wait must be a number of minutes above 0');
  return minutes * 60_000;
}

function conflictOf(text: string | undefined): (typeof ON_CONFLICT)[number] | undefined {
  if (text === undefined) return undefined;
  if (!(ON_CONFLICT as readonly string[]).includes(text)) throw new UsageError(`--on-conflict must be ${ON_CONFLICT.join(' or ')}`);
  return text as (typeof ON_CONFLICT)[number];
}

/**
 * `shortener import --from <source> <file>`: the file goes to the API whole (POST /v2/imports), which imports it in
 * the background with the peer's history; the job is followed (GET /v2/imports/{id}) with the same bar as the CSV
 * import, and its results (every failed, renamed or skipped row and why) are written to a spreadsheet-safe CSV.
 */
export async function importFrom(client: ShortenerClient, file: string, options: ImportFromOptions, io: Io): Promise<void> {
  const source = sourceOf(options.from);
  const onConflict = conflictOf(options.onConflict);
  const waitMs = waitMsOf(options.wait);
  const nowMs = options.nowMs ?? Date.now;
  let content: string;
  try {
    content = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const started = await client.POST('/v2/imports', { body: { source, content, ...(onConflict ? { onConflict } : {}) } });
  if (!started.data) throw new ApiRefusal(messageOf(started.error, started.response.status));
  const { id } = started.data;

  const deadline = nowMs() + waitMs;
  let job: ImportView | undefined;
  let progress: ReturnType<typeof progressFor> | undefined;
  let shown = { rows: 0, failed: 0 };
  do {
    if (job) await sleep(options.pollMs ?? POLL_MS);
    const { data, error, response } = await client.GET('/v2/imports/{id}', { params: { path: { id } } });
    if (!data) throw new ApiRefusal(messageOf(error, response.status));
    job = data;
    progress ??= progressFor(job.read);
    const now = { rows: settledRows(job), failed: job.failed };
    if (now.rows > shown.rows) progress.advance(now.rows - shown.rows, now.failed - shown.failed);
    shown = now;
  } while (job.status === 'running' && nowMs() < deadline);
  progress.stop();
  if (job.status === 'running') throw new ApiRefusal(`import ${id} is still running after ${waitMs / 60_000} minutes and goes on without this command: see how far it is with GET /v2/imports/${id}`);

  const out = options.out ?? path.join(path.dirname(file), `${path.basename(file, path.extname(file))}.${id}.results.csv`);
  await writeFile(out, csvText(['row', 'outcome', 'code', 'domain', 'reason'], job.results.map((result) => [result.row, result.outcome, result.code ?? '', result.domain ?? '', result.reason ?? ''])));
  io.out(`${id}\t${job.status}\tread ${job.read}\tcreated ${job.created}\trenamed ${job.renamed}\tskipped ${job.skipped}\texisting ${job.existing}\tfailed ${job.failed}\n`);
  io.err(`results (every failed, renamed or skipped row and why) in ${out}\n`);
  if (job.status === 'failed') throw new ApiRefusal(`import ${id} failed: see ${out}`);
}
