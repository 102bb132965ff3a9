import { readFile, writeFile } from 'node:fs/promises';
import { stringify } from 'csv-stringify/sync';
import { createShortenerClient, type ShortenerClient } from '../../clients/typescript/src';
import { linkRequestOf, parseLinkRows, UsageError } from './csv-links';
import { importRows, messageOf, resultRows } from '../../clients/csv-import/import-links';
import { progressFor } from './progress';

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

export { messageOf };

/** A call the API refused as a whole: exit code 1, after whatever output there is. */
export class ApiRefusal extends Error {}

export async function importLinks(client: ShortenerClient, file: string, options: { out?: string }, io: Io): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const { columns, rows } = parseLinkRows(text, file);
  const progress = progressFor(rows.length);
  const { results, stoppedBy } = await importRows(client, rows, linkRequestOf, (settled, failedRows) => progress.advance(settled, failedRows));
  progress.stop();
  const output = resultRows(columns, rows, results);
  const csv = stringify(output.rows, { header: true, columns: output.columns });
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
