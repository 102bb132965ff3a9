import { readFile, writeFile } from 'node:fs/promises';
import { stringify } from 'csv-stringify/sync';
import type { ShortenerClient } from '../../clients/typescript/src';
import { linkRequestOf, parseLinkRows, UsageError } from './csv-links';
import { importRows, messageOf, resultRows } from '../../clients/csv-import/import-links';
import { progressFor } from './progress';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
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

export async function listLinks(client: ShortenerClient, options: { status?: string; domain?: string; health?: string; json?: boolean }, io: Io): Promise<void> {
  const links: unknown[] = [];
  let cursor: string | undefined;
  if (!options.json) io.out('shortCode\tstatus\tclicks\tshortUrl\turl\n');
  do {
    const { data, error, response } = await client.GET('/v2/links', {
      params: { query: { limit: 100, ...(cursor ? { cursor } : {}), ...(options.status ? { status: options.status as never } : {}), ...(options.domain ? { domain: options.domain } : {}), ...(options.health ? { health: options.health as never } : {}) } },
    });
    if (!data) throw new ApiRefusal(messageOf(error, response.status));
    if (options.json) links.push(...data.links);
    else for (const link of data.links) io.out(`${link.shortCode}\t${link.status}\t${link.clicks}\t${link.shortUrl}\t${link.url ?? ''}\n`);
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  if (options.json) io.out(`${JSON.stringify(links, null, 2)}\n`);
}

const counts = (entries: Array<[string, number]>) => (entries.length === 0 ? 'none' : entries.map(([name, clicks]) => `${name} ${clicks}`).join(', '));

type TopValues = { top: Array<{ value: string; clicks: number }>; other: number };
const top = (values: TopValues) => counts([...values.top.map((entry): [string, number] => [entry.value, entry.clicks]), ...(values.other > 0 ? [['(other)', values.other] as [string, number]] : [])]);

/** The dimensions every stats body carries, a line each (issue 30's included). */
function dimensionLines(data: {
  unique: number;
  countries: Array<{ country: string; clicks: number }>;
  referrers: Array<{ host: string; clicks: number }>;
  devices: Record<string, number>;
  browsers: TopValues;
  operatingSystems: TopValues;
  regions: TopValues;
  cities: TopValues;
  utmSources: TopValues;
  utmMediums: TopValues;
  utmCampaigns: TopValues;
}): string[] {
  return [
    `unique visitors: ${data.unique} (summed by day)`,
    `countries: ${counts(data.countries.map((entry) => [entry.country, entry.clicks]))}`,
    `referrers: ${counts(data.referrers.map((entry) => [entry.host, entry.clicks]))}`,
    `devices:   ${counts(Object.entries(data.devices))}`,
    `browsers:  ${top(data.browsers)}`,
    `systems:   ${top(data.operatingSystems)}`,
    `regions:   ${top(data.regions)}`,
    `cities:    ${top(data.cities)}`,
    `utm_source:   ${top(data.utmSources)}`,
    `utm_medium:   ${top(data.utmMediums)}`,
    `utm_campaign: ${top(data.utmCampaigns)}`,
  ];
}

/** `shortener stats [code]`: a link's clicks, or without a code the whole workspace's (GET /v2/stats). */
export async function linkStats(client: ShortenerClient, code: string | undefined, options: { days?: string; domain?: string; tag?: string; bots?: boolean; json?: boolean }, io: Io): Promise<void> {
  const window = { ...(options.days ? { days: Number(options.days) } : {}), ...(options.bots ? { bots: 'include' as const } : {}) };
  if (code === undefined) {
    const { data, error, response } = await client.GET('/v2/stats', { params: { query: { ...window, ...(options.domain ? { domain: options.domain } : {}), ...(options.tag ? { tag: options.tag } : {}) } } });
    if (!data) throw new ApiRefusal(messageOf(error, response.status));
    if (options.json) return void io.out(`${JSON.stringify(data, null, 2)}\n`);
    io.out(
      [
        `workspace: ${data.total} clicks and ${data.bots} bots in the last ${data.days.length} days`,
        `top links: ${counts(data.topLinks.map((link) => [link.domain ? `${link.domain}/${link.shortCode}` : link.shortCode, link.clicks]))}`,
        ...dimensionLines(data),
        '',
      ].join('\n'),
    );
    return;
  }
  const { data, error, response } = await client.GET('/v2/links/{code}/stats', {
    params: { path: { code }, query: { ...window, ...(options.domain ? { domain: options.domain } : {}) } },
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
      `${data.shortCode}: ${data.total} clicks in all, ${inWindow} in the last ${data.days.length} days; ${data.bots} bots counted apart`,
      ...dimensionLines(data),
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
