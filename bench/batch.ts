import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { StackOutputs } from '../lib/stack-outputs';
import { createApiKey, dynamo, freshTables } from '../test/support/local-stack';
import { load, median, medianOfSequentialRuns, round, startBenchStack } from './support';

/**
 * Issue 4's target: a 50-item batch takes at most 4 times one single creation. Both are measured in the same run
 * against the local stack, alternating, one connection at a time (latency, not throughput), over several rounds.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** DynamoDB Local's JIT takes a few thousand requests to settle; these rounds are run but not counted. */
const WARM_UP_ROUNDS = 2;
const SINGLES_PER_ROUND = 150;
const BATCHES_PER_ROUND = 40;

async function main(): Promise<void> {
  const stack = await startBenchStack();
  try {
    const singles: number[] = [];
    const keyedSingles: number[] = [];
    const batches: number[] = [];
    const floorOne: number[] = [];
    const floorFifty: number[] = [];
    const floorTable = (await freshTables())[StackOutputs.linksTable] as string;
    let floorCode = 0;
    const rawPut = () =>
      dynamo().send(
        new PutCommand({ TableName: floorTable, Item: { code: `floor-${floorCode++}`, url: 'https://example.com/bench', clicks: 0 }, ConditionExpression: 'attribute_not_exists(code)' }),
      );
    for (let round = 1 - WARM_UP_ROUNDS; round <= ROUNDS; round += 1) {
      // A fresh key per round keeps every request under the per-key limit of 1000 a minute.
      const { apiKey } = await createApiKey('ENTERPRISE');
      const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
      const single = await load({ url: `${stack.url}/v2/shorten`, method: 'POST', headers, body: JSON.stringify({ url: 'https://example.com/bench' }), connections: 1, amount: SINGLES_PER_ROUND });
      // The same creation with a fresh Idempotency-Key each: Powertools' in-progress put and its stored answer.
      const keyed = await load({
        url: `${stack.url}/v2/shorten`,
        connections: 1,
        amount: SINGLES_PER_ROUND,
        requests: [
          {
            method: 'POST',
            headers,
            body: JSON.stringify({ url: 'https://example.com/bench' }),
            setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'idempotency-key': randomUUID() } }),
          },
        ],
      });
      const items = Array.from({ length: 50 }, (_, i) => ({ url: `https://example.com/bench/${i}` }));
      const batch = await load({ url: `${stack.url}/v2/shorten/batch`, method: 'POST', headers, body: JSON.stringify({ urls: items }), connections: 1, amount: BATCHES_PER_ROUND });
      if ([single, keyed, batch].some((result) => result.non2xx + result.errors > 0)) throw new Error(`failed requests: ${JSON.stringify({ single, keyed, batch })}`);
      if (round <= 0) continue;
      singles.push(single.p50);
      keyedSingles.push(keyed.p50);
      batches.push(batch.p50);
      floorOne.push(await medianOfSequentialRuns(20, rawPut));
      floorFifty.push(await medianOfSequentialRuns(10, () => Promise.all(Array.from({ length: 50 }, rawPut))));
      console.error(`round ${round}: single p50 ${single.p50} ms, with Idempotency-Key ${keyed.p50} ms, 50-item batch p50 ${batch.p50} ms`);
    }
    const single = median(singles);
    const batch = median(batches);
    console.log(`| single creation, median p50 | ${round(single)} ms |`);
    console.log(`| 50-item batch, median p50 | ${round(batch)} ms |`);
    console.log(`| ratio (target ≤ 4) | ${round(batch / single)} |`);
    console.log(`| single creation with an Idempotency-Key, median p50 | ${round(median(keyedSingles))} ms (${round(median(keyedSingles) / single)}× without) |`);
    console.log(`| floor: one conditional PutItem straight to DynamoDB Local | ${round(median(floorOne))} ms |`);
    console.log(`| floor: 50 concurrent conditional PutItems straight to DynamoDB Local | ${round(median(floorFifty))} ms |`);
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
