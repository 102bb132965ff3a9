import { readFile, writeFile } from 'node:fs/promises';
import { stringify } from 'csv-stringify/sync';
import { MAX_BATCH_ITEMS } from '../../functions/shared/domain/links/batch-request';
import { createShortenerClient, type ShortenerClient } from '../../clients/typescript/src';
import { MAX_BODY_BYTES } from '../../functions/shared/http/body-limits';
import { batchIdempotencyKey, linkRequestOf, parseLinkRows, retryIdempotencyKey, UsageError } from './csv-links';
import { progressFor } from './progress';
import { spreadsheetSafeCell } from '../../functions/shared/http/csv';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** SHORTENER_API_URL and SHORTENER_API_KEY: where the API is and who is calling. */
export function clientFromEnvironment(env: NodeJS.ProcessEnv = process.env): ShortenerClient {
  const baseUrl = env.SHORTENER_API_URL;
  const apiKey = env.SHORTENER_API_KEY;
  if (!baseUrl) throw new UsageError('SHORTENER_API_URL is not set: export it as the API address (npm start prints it; a deployment has the ApiUrl output)');
  if (!apiKey) throw new UsageError('SHORTENER_API_KEY is not set: export your API key (npm run ops -- keys create issues one)');
  return createShortenerClient({ baseUrl, apiKey });
}

/** The API's own words for a refused call. */
export function messageOf(body: unknown, status: number): string {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? `${message} (${status})` : `the API answered ${status}`;
}

/** A call the API refused as a whole: exit code 1, after whatever output there is. */
export class ApiRefusal extends Error {}

type RowResult = { shortUrl?: string; error?: string };

/**
 * Rows in batches of at most 50 and at most the API's batch body size, in file order. A row too big for any batch
 * travels alone, so the API's refusal of it is that row's error and no other row's.
 */
export function batchesOf(requests: readonly object[]): Array<{ start: number; requests: object[] }> {
  const batches: Array<{ start: number; requests: object[] }> = [];
  // The body's envelope, `{"urls":[]}`, and a comma per item.
  let bytes = 0;
  for (const [index, request] of requests.entries()) {
    const size = Buffer.byteLength(JSON.stringify(request)) + 1;
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

const ENVELOPE_BYTES = Buffer.byteLength('{"urls":[]}');

/**
 * One batch. A refusal of its body (400, 413) is every row's error and the import goes on; any other refusal
 * (a key, the quota, an outage) stops it. A replay from an earlier run that carries failures sends those rows again
 * under a key of their own: once their cause is fixed they are made, and made once however often the file is run.
 */
async function sendBatch(client: ShortenerClient, requests: readonly object[], key: string): Promise<{ results: RowResult[] } | { stoppedBy: string }> {
  const { data, error, response } = await client.POST('/v2/shorten/batch', {
    // Cells the API will refuse (a word where a number belongs) are sent as written, for its message.
    body: { urls: requests as never },
    headers: { 'idempotency-key': key },
  });
  if (!data) {
    const message = messageOf(error, response.status);
    return response.status === 400 || response.status === 413 ? { results: requests.map(() => ({ error: message })) } : { stoppedBy: message };
  }
  const results: RowResult[] = data.results.map((result) => (result.success ? { shortUrl: result.shortUrl } : { error: result.error }));
  const failed = results.flatMap((result, index) => (result.error !== undefined ? [index] : []));
  if (response.headers.get('idempotent-replayed') !== 'true' || failed.length === 0) return { results };
  const retried = await sendBatch(client, failed.map((index) => requests[index] as object), retryIdempotencyKey(key, failed));
  if ('stoppedBy' in retried) return { results };
  failed.forEach((rowIndex, position) => (results[rowIndex] = retried.results[position] ?? {}));
  return { results };
}

/**
 * OWASP's CSV-injection rule: a cell a spreadsheet would read as a formula (=, +, -, @, tab, carriage return first)
 * starts with a quote instead, shown as text.
 */
export function spreadsheetSafe(row: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(row).map(([column, cell]) => [column, spreadsheetSafeCell(cell)]));
}

export async function importLinks(client: ShortenerClient, file: string, options: { out?: string }, io: Io): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const { columns, rows } = parseLinkRows(text, file);
  const results: RowResult[] = [];
  const progress = progressFor(rows.length);
  let stoppedBy: string | undefined;
  for (const { start, requests } of batchesOf(rows.map(linkRequestOf))) {
    const sent = await sendBatch(client, requests, batchIdempotencyKey(start, requests));
    if ('stoppedBy' in sent) {
      stoppedBy = sent.stoppedBy;
      break;
    }
    results.push(...sent.results);
    progress.advance(requests.length, sent.results.filter((result) => result.error !== undefined).length);
  }
  progress.stop();
  while (results.length < rows.length) results.push({ error: `not imported: ${stoppedBy ?? 'no answer'}` });

  // Passwords stay in the file they came from; every cell is made safe to open in a spreadsheet.
  const outputColumns = [...columns.filter((column) => !['shortUrl', 'error', 'password'].includes(column)), 'shortUrl', 'error'];
  const csv = stringify(
    rows.map((row, index) => spreadsheetSafe({ ...row, shortUrl: results[index]?.shortUrl ?? '', error: results[index]?.error ?? '' })),
    { header: true, columns: outputColumns },
  );
  if (options.out) await writeFile(options.out, csv);
  else io.out(csv);
  const failed = results.filter((result) => result.error !== undefined).length;
  io.err(`${rows.length} rows: ${rows.length - failed} links, ${failed} failed${options.out ? ` (results in ${options.out})` : ''}\n`);
  if (stoppedBy) throw new ApiRefusal(`import stopped: ${stoppedBy}`);
}

export async function listLinks(client: ShortenerClient, options: { status?: string; domain?: string; json?: boolean }, io: Io): Promise<void> {
  const links: unknown[] = [];
  let cursor: string | undefined;
  if (!options.json) io.out('shortCode\tstatus\tclicks\tshortUrl\turl\n');
  do {
    const { data, error, response } = await client.GET('/v2/links', {
      params: { query: { limit: 100, ...(cursor ? { cursor } : {}), ...(options.status ? { status: options.status as never } : {}), ...(options.domain ? { domain: options.domain } : {}) } },
    });
    if (!data) throw new ApiRefusal(messageOf(error, response.status));
    if (options.json) links.push(...data.links);
    else for (const link of data.links) io.out(`${link.shortCode}\t${link.status}\t${link.clicks}\t${link.shortUrl}\t${link.url ?? ''}\n`);
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  if (options.json) io.out(`${JSON.stringify(links, null, 2)}\n`);
}

const counts = (entries: Array<[string, number]>) => (entries.length === 0 ? 'none' : entries.map(([name, clicks]) => `${name} ${clicks}`).join(', '));

export async function linkStats(client: ShortenerClient, code: string, options: { days?: string; domain?: string; json?: boolean }, io: Io): Promise<void> {
  const { data, error, response } = await client.GET('/v2/links/{code}/stats', {
    params: { path: { code }, query: { ...(options.days ? { days: Number(options.days) } : {}), ...(options.domain ? { domain: options.domain } : {}) } },
  });
  // Without format=csv the answer is the JSON body (the document lists both).
  if (!data || typeof data === 'string') throw new ApiRefusal(messageOf(error, response.status));
  if (options.json) {
    io.out(`${JSON.stringify(data, null, 2)}\n`);
    return;
  }
  const inWindow = data.days.reduce((sum, day) => sum + day.clicks, 0);
  io.out(
    [
      `${data.shortCode}: ${data.total} clicks in all, ${inWindow} in the last ${data.days.length} days`,
      `countries: ${counts(data.countries.map((entry) => [entry.country, entry.clicks]))}`,
      `referrers: ${counts(data.referrers.map((entry) => [entry.host, entry.clicks]))}`,
      `devices:   ${counts(Object.entries(data.devices))}`,
      '',
    ].join('\n'),
  );
}

export async function qrCode(client: ShortenerClient, code: string, options: { out: string; format?: string; size?: string; domain?: string }, io: Io): Promise<void> {
  const format = options.format ?? (options.out.toLowerCase().endsWith('.png') ? 'png' : 'svg');
  const { data, error, response } = await client.GET('/v2/links/{code}/qr', {
    params: { path: { code }, query: { format: format as never, ...(options.size ? { size: Number(options.size) } : {}), ...(options.domain ? { domain: options.domain } : {}) } },
    parseAs: 'arrayBuffer',
  });
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  await writeFile(options.out, Buffer.from(data));
  io.err(`wrote the ${format.toUpperCase()} QR code of ${code} to ${options.out}\n`);
}
