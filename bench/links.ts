import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type autocannon from 'autocannon';
import type { LinkRecord } from '../functions/shared/domain/links/link';
import { mapWithConcurrency } from '../functions/shared/domain/concurrency';
import { StackOutputs } from '../lib/stack-outputs';
import { accountDirectory, dynamo, http, jsonHeaders, stackOutput } from '../test/support/local-stack';
import { load, median, round, startBenchStack, type LoadResult } from './support';

/**
 * Issue 10's figure: against an account holding 10,000 links, GET /v2/links?limit=100 (one Query of 100 items)
 * stays within twice the latency of GET /v2/links/{code} (one GetItem). Runs alternate, medians of their p50s.
 * Requests rotate over many keys of the one account, so the per-key minute limit never answers instead.
 */
const LINKS = 10_000;
const KEYS = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS_PER_RUN = 1_500;
const CONNECTIONS = 4;

async function seed(owner: string, started: number): Promise<string[]> {
  const table = stackOutput(StackOutputs.linksTable);
  const links: LinkRecord[] = Array.from({ length: LINKS }, (_, i) => ({
    code: `bench${i.toString(36).padStart(4, '0')}`,
    url: `https://example.com/${i}`,
    isAlias: false,
    createdAt: new Date(started - LINKS + i).toISOString(),
    clicks: 0,
    owner,
  }));
  const batches = Array.from({ length: LINKS / 25 }, (_, i) => links.slice(i * 25, i * 25 + 25));
  await mapWithConcurrency(batches, 8, async (batch) => {
    let items: Record<string, unknown>[] = batch.map((link) => ({ PutRequest: { Item: link } }));
    while (items.length > 0) {
      const { UnprocessedItems } = await dynamo().send(new BatchWriteCommand({ RequestItems: { [table]: items as never } }));
      items = (UnprocessedItems?.[table] ?? []) as Record<string, unknown>[];
    }
  });
  return links.map((link) => link.code);
}

/** Every link, one page of 100 after another: each exactly once. */
async function pageThrough(apiKey: string): Promise<{ links: number; unique: number; pages: number }> {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const response = await http('GET', `/v2/links?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers: jsonHeaders(apiKey) });
    const body = response.json<{ links: Array<{ shortCode: string }>; nextCursor: string | null }>();
    seen.push(...body.links.map((link) => link.shortCode));
    cursor = body.nextCursor;
    pages += 1;
  } while (cursor);
  return { links: seen.length, unique: new Set(seen).size, pages };
}

async function main(): Promise<void> {
  const stack = await startBenchStack();
  try {
    const directory = accountDirectory();
    const { account, apiKey } = await directory.open('ENTERPRISE', { nowMs: Date.now(), label: 'bench' });
    const keys = [apiKey];
    for (let i = 1; i < KEYS; i += 1) keys.push((await directory.addKey(account.accountId, { nowMs: Date.now() }))?.apiKey ?? apiKey);
    const seedStarted = performance.now();
    const codes = await seed(account.owner, Date.now());
    console.error(`seeded ${LINKS} links in ${round((performance.now() - seedStarted) / 1000, 1)} s`);

    const paged = await pageThrough(apiKey);
    if (paged.links !== LINKS || paged.unique !== LINKS) throw new Error(`paging returned ${paged.links} links, ${paged.unique} unique`);

    let next = 0;
    const rotatingKey = (path: string) => ({
      url: `${stack.url}${path}`,
      requests: [
        {
          method: 'GET' as const,
          setupRequest: (request: autocannon.Request) => ({ ...request, headers: { ...request.headers, authorization: `Bearer ${keys[next++ % keys.length]}` } }),
        },
      ],
    });
    const lookup = rotatingKey(`/v2/links/${codes[LINKS / 2]}`);
    const list = rotatingKey('/v2/links?limit=100');

    const lookups: LoadResult[] = [];
    const lists: LoadResult[] = [];
    for (let roundNo = 0; roundNo <= ROUNDS; roundNo += 1) {
      const one = await load({ ...lookup, amount: REQUESTS_PER_RUN, connections: CONNECTIONS });
      const page = await load({ ...list, amount: REQUESTS_PER_RUN, connections: CONNECTIONS });
      for (const result of [one, page]) {
        if (result.errors > 0 || result.non2xx > 0) throw new Error(`a run measured failures: ${JSON.stringify(result)}`);
      }
      if (roundNo === 0) continue;
      lookups.push(one);
      lists.push(page);
      console.error(`round ${roundNo}: lookup p50 ${one.p50} ms (${round(one.requestsPerSecond, 0)} req/s); list p50 ${page.p50} ms (${round(page.requestsPerSecond, 0)} req/s)`);
    }
    const lookupP50 = median(lookups.map((result) => result.p50));
    const listP50 = median(lists.map((result) => result.p50));
    console.log(`| account size | ${LINKS} links; paged through at limit=100: ${paged.pages} pages, each link exactly once |`);
    console.log(`| GET /v2/links/{code}, median p50 | ${lookupP50} ms (${round(median(lookups.map((r) => r.requestsPerSecond)), 0)} req/s, p99 ${median(lookups.map((r) => r.p99))} ms) |`);
    console.log(`| GET /v2/links?limit=100, median p50 | ${listP50} ms (${round(median(lists.map((r) => r.requestsPerSecond)), 0)} req/s, p99 ${median(lists.map((r) => r.p99))} ms) |`);
    console.log(`| ratio list / lookup (target ≤ 2) | ${round(listP50 / lookupP50)} |`);
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
