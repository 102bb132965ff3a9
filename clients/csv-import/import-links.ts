import type { Client } from 'openapi-fetch';
import type { paths } from '../typescript/src/schema';
import { MAX_BATCH_ITEMS } from '../../functions/shared/domain/links/batch-limits';
import { MAX_BODY_BYTES } from '../../functions/shared/http/body-limits';
import { spreadsheetSafeCell } from '../../functions/shared/http/csv';

/**
 * The CSV import's rules, shared by `npm run shortener -- import` and the dashboard: the same batches, keys,
 * retries and results file wherever a file is imported. Platform-neutral (Web Crypto, TextEncoder).
 */

export type RowResult = { shortUrl?: string; error?: string };

const bytesOf = (text: string) => new TextEncoder().encode(text).length;
const ENVELOPE_BYTES = bytesOf('{"urls":[]}');

/**
 * Rows in batches of at most 50 and at most the API's batch body size, in file order. A row too big for any batch
 * travels alone, so the API's refusal of it is that row's error and no other row's.
 */
export function batchesOf(requests: readonly object[]): Array<{ start: number; requests: object[] }> {
  const batches: Array<{ start: number; requests: object[] }> = [];
  // The body's envelope, `{"urls":[]}`, and a comma per item.
  let bytes = 0;
  for (const [index, request] of requests.entries()) {
    const size = bytesOf(JSON.stringify(request)) + 1;
    const current = batches.at(-1);
    if (current && current.requests.length < MAX_BATCH_ITEMS && bytes + size + ENVELOPE_BYTES <= MAX_BODY_BYTES.batch) {
      current.requests.push(request);
      bytes += size;
    } else {
      batches.push({ start: index, requests: [request] });
      bytes = size;
    }
  }
  return batches;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The Idempotency-Key of one batch, from its content and place in the file: running the same file again
 * (within the API's 24 hours) replays batches already made instead of making them twice.
 */
export async function batchIdempotencyKey(firstRow: number, requests: readonly object[]): Promise<string> {
  return `import-${await sha256Hex(JSON.stringify([firstRow, requests]))}`;
}

/** The key under which a replayed batch's failed rows (their places in it) are sent again. */
export async function retryIdempotencyKey(batchKey: string, failedRows: readonly number[]): Promise<string> {
  return `import-${await sha256Hex(JSON.stringify([batchKey, failedRows]))}`;
}

/** The API's own words for a refused call. */
export function messageOf(body: unknown, status: number): string {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? `${message} (${status})` : `the API answered ${status}`;
}

/**
 * One batch. A refusal of its body (400, 413) is every row's error and the import goes on; any other refusal
 * (a key, the quota, an outage) stops it. A replay from an earlier run that carries failures sends those rows again
 * under a key of their own: once their cause is fixed they are made, and made once however often the file is run.
 */
async function sendBatch(client: Client<paths>, requests: readonly object[], key: string): Promise<{ results: RowResult[] } | { stoppedBy: string }> {
  let answer;
  try {
    answer = await client.POST('/v2/shorten/batch', {
      // Cells the API will refuse (a word where a number belongs) are sent as written, for its message.
      body: { urls: requests as never },
      headers: { 'idempotency-key': key },
    });
  } catch (error) {
    return { stoppedBy: `the API could not be reached (${(error as Error).message})` };
  }
  const { data, error, response } = answer;
  if (!data) {
    const message = messageOf(error, response.status);
    return response.status === 400 || response.status === 413 ? { results: requests.map(() => ({ error: message })) } : { stoppedBy: message };
  }
  const results: RowResult[] = data.results.map((result) => (result.success ? { shortUrl: result.shortUrl } : { error: result.error }));
  const failed = results.flatMap((result, index) => (result.error !== undefined ? [index] : []));
  if (response.headers.get('idempotent-replayed') !== 'true' || failed.length === 0) return { results };
  const retried = await sendBatch(client, failed.map((index) => requests[index] as object), await retryIdempotencyKey(key, failed));
  if ('stoppedBy' in retried) return { results };
  failed.forEach((rowIndex, position) => (results[rowIndex] = retried.results[position] ?? {}));
  return { results };
}

/** Imports the rows batch by batch, telling `onBatch` how many rows each batch settled and how many failed. */
export async function importRows(
  client: Client<paths>,
  rows: ReadonlyArray<Record<string, string>>,
  linkRequestOf: (row: Record<string, string>) => object,
  onBatch: (rows: number, failed: number) => void,
): Promise<{ results: RowResult[]; stoppedBy?: string }> {
  const results: RowResult[] = [];
  let stoppedBy: string | undefined;
  for (const { start, requests } of batchesOf(rows.map(linkRequestOf))) {
    const sent = await sendBatch(client, requests, await batchIdempotencyKey(start, requests));
    if ('stoppedBy' in sent) {
      stoppedBy = sent.stoppedBy;
      break;
    }
    results.push(...sent.results);
    onBatch(requests.length, sent.results.filter((result) => result.error !== undefined).length);
  }
  while (results.length < rows.length) results.push({ error: `not imported: ${stoppedBy ?? 'no answer'}` });
  return { results, ...(stoppedBy ? { stoppedBy } : {}) };
}

/**
 * The results file's columns and rows: the file's own columns (passwords stay in the file they came from), then
 * shortUrl and error; every cell made safe to open in a spreadsheet.
 */
export function resultRows(columns: readonly string[], rows: ReadonlyArray<Record<string, string>>, results: readonly RowResult[]): { columns: string[]; rows: Array<Record<string, string>> } {
  const outputColumns = [...columns.filter((column) => !['shortUrl', 'error', 'password'].includes(column)), 'shortUrl', 'error'];
  return {
    columns: outputColumns,
    rows: rows.map((row, index) => {
      const full: Record<string, string> = { ...row, shortUrl: results[index]?.shortUrl ?? '', error: results[index]?.error ?? '' };
      return Object.fromEntries(outputColumns.map((column) => [column, spreadsheetSafeCell(full[column] ?? '')]));
    }),
  };
}
