import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { StackOutputs } from '../lib/stack-outputs';
import { createApiKey, dynamo, freshTables } from '../test/support/local-stack';
import { load, median, medianOfSequentialRuns, round, startBenchStack } from './support';

/**
 * Issue 28: a single creation (POST /v2/shorten, a metered PRO key: minute window, monthly quota, default domain, the
 * link) against a floor of one raw conditional PutItem, both measured in the same run, alternating, over several
 * rounds. p50 from one request at a time (timed here, to the microsecond: autocannon's are whole milliseconds);
 * req/s from autocannon at 10 connections against PutItems sent at the same concurrency. Beside them, the DynamoDB
 * work alone: each call once, and the three shapes the issue weighs: the counters one after the other (before),
 * side by side (chosen), and in one transaction with the link.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** DynamoDB Local's JIT takes a few thousand requests to settle; this round is run but not counted. */
const WARM_UP_ROUNDS = 1;
const SEQUENTIAL = 300;
const CONNECTIONS = 10;
const SECONDS = 5;
/** Keys per round for the load: 1,000 calls a minute each. */
const KEYS_PER_ROUND = 10;

/** Completed tasks a second with `connections` loops for `seconds`. */
async function throughput(connections: number, seconds: number, task: () => Promise<unknown>): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        await task();
        done += 1;
      }
    }),
  );
  return done / seconds;
}

async function main(): Promise<void> {
  const stack = await startBenchStack();
  try {
    const tables = await freshTables();
    const linksTable = tables[StackOutputs.linksTable] as string;
    const usageTable = tables[StackOutputs.usageTable] as string;
    const domainsTable = tables[StackOutputs.domainsTable] as string;
    let sequence = 0;
    const put = () =>
      dynamo().send(
        new PutCommand({ TableName: linksTable, Item: { code: `floor-${(sequence += 1)}`, url: 'https://example.com/bench', clicks: 0, owner: 'acct:bench' }, ConditionExpression: 'attribute_not_exists(code)' }),
      );
    // The counters as dynamo-usage-counter.ts writes them, under a limit the benchmark never reaches.
    const counterUpdate = (pk: string) => ({
      TableName: usageTable,
      Key: { pk },
      UpdateExpression: 'ADD #count :one SET #ttl = if_not_exists(#ttl, :ttl), #limit = :limit',
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
      ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl', '#limit': 'limit' },
      ExpressionAttributeValues: { ':one': 1, ':limit': 1_000_000_000, ':ttl': 4_000_000_000 },
    });
    const minute = () => dynamo().send(new UpdateCommand(counterUpdate('rate#key#bench')));
    const quota = () => dynamo().send(new UpdateCommand(counterUpdate('quota#acct#bench')));
    const defaultDomain = () => dynamo().send(new GetCommand({ TableName: domainsTable, Key: { domain: 'summary#acct:bench' }, ConsistentRead: true }));
    const shapes = {
      'one counter UpdateItem': minute,
      'one consistent GetItem (default domain)': defaultDomain,
      'one after the other (before): minute, quota, default domain, link': async () => {
        await minute();
        await quota();
        await defaultDomain();
        await put();
      },
      'side by side (chosen): minute ‖ quota ‖ default domain, then link': async () => {
        await Promise.all([minute(), quota(), defaultDomain()]);
        await put();
      },
      'one transaction: default domain, then TransactWriteItems(minute, quota, link)': async () => {
        await defaultDomain();
        sequence += 1;
        await dynamo().send(
          new TransactWriteCommand({
            TransactItems: [
              { Update: counterUpdate('rate#key#bench') },
              { Update: counterUpdate('quota#acct#bench') },
              { Put: { TableName: linksTable, Item: { code: `floor-${sequence}`, url: 'https://example.com/bench', clicks: 0, owner: 'acct:bench' }, ConditionExpression: 'attribute_not_exists(code)' } },
            ],
          }),
        );
      },
    };

    const figures = { single: [] as number[], singleRps: [] as number[], floor: [] as number[], floorRps: [] as number[], shapes: new Map<string, number[]>() };
    for (let round = 1 - WARM_UP_ROUNDS; round <= ROUNDS; round += 1) {
      const keys = await Promise.all(Array.from({ length: KEYS_PER_ROUND }, () => createApiKey('PRO')));
      const url = `${stack.url}/v2/shorten`;
      const body = JSON.stringify({ url: 'https://example.com/bench' });
      const headers = (apiKey: string) => ({ authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });
      let failures = 0;
      const single = await medianOfSequentialRuns(SEQUENTIAL, async () => {
        const response = await fetch(url, { method: 'POST', headers: headers(keys[0]?.apiKey ?? ''), body });
        await response.arrayBuffer();
        if (response.status !== 201) failures += 1;
      });
      const floor = await medianOfSequentialRuns(SEQUENTIAL, put);
      let turn = 0;
      const loaded = await load({
        url,
        connections: CONNECTIONS,
        duration: SECONDS,
        requests: [{ method: 'POST', body, setupRequest: (request) => ({ ...request, headers: headers(keys[(turn += 1) % KEYS_PER_ROUND]?.apiKey ?? '') }) }],
      });
      const floorRps = await throughput(CONNECTIONS, SECONDS, put);
      const shapeTimes: Array<[string, number]> = [];
      for (const [name, task] of Object.entries(shapes)) shapeTimes.push([name, await medianOfSequentialRuns(SEQUENTIAL / 2, task)]);
      if (failures + loaded.non2xx + loaded.errors > 0) throw new Error(`failed creations: ${failures} sequential, ${JSON.stringify(loaded)}`);
      if (round <= 0) continue;
      figures.single.push(single);
      figures.singleRps.push(loaded.requestsPerSecond);
      figures.floor.push(floor);
      figures.floorRps.push(floorRps);
      for (const [name, time] of shapeTimes) figures.shapes.set(name, [...(figures.shapes.get(name) ?? []), time]);
      console.error(`round ${round}: creation p50 ${round3(single)} ms, ${Math.round(loaded.requestsPerSecond)} req/s; PutItem p50 ${round3(floor)} ms, ${Math.round(floorRps)}/s`);
    }
    const single = median(figures.single);
    const floor = median(figures.floor);
    console.log(`| single creation, median p50 (one at a time) | ${round(single)} ms |`);
    console.log(`| floor: one conditional PutItem to DynamoDB Local, median p50 | ${round(floor)} ms |`);
    console.log(`| ratio p50 (target ≤ 2) | ${round(single / floor)} |`);
    console.log(`| single creations, ${CONNECTIONS} connections | ${Math.round(median(figures.singleRps))} req/s |`);
    console.log(`| floor: PutItems, ${CONNECTIONS} at a time | ${Math.round(median(figures.floorRps))} /s |`);
    for (const [name, times] of figures.shapes) console.log(`| DynamoDB alone, ${name}, median p50 | ${round(median(times))} ms (${round(median(times) / floor)}× the floor) |`);
  } finally {
    await stack.stop();
  }
}

const round3 = (value: number) => round(value, 3);

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
