import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { StackOutputs } from '../lib/stack-outputs';
import { devApiKey, dynamo, http, jsonHeaders, stackOutput } from '../test/support/local-stack';
import { load, median, round, startBenchStack, type LoadResult } from './support';

/**
 * Issue 5's target: plain-link redirects through the local stack deliver at least 0.8 of the requests per second
 * of raw GetItem calls to the same DynamoDB Local at the same concurrency. Both go through autocannon over HTTP,
 * alternating, over several rounds.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 10;
const SECONDS = 5;

async function main(): Promise<void> {
  const stack = await startBenchStack();
  try {
    const created = await http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body: { url: 'https://example.com/hot' } });
    const { shortCode } = created.json<{ shortCode: string }>();
    const linksTable = stackOutput(StackOutputs.linksTable);
    await dynamo().send(new PutCommand({ TableName: linksTable, Item: { code: 'baseline-item', url: 'https://example.com/hot', clicks: 0 } }));

    // DynamoDB Local checks that a request is signed, not the signature: a fixed header keeps the client cheap.
    const getItem = {
      url: `http://127.0.0.1:${stack.dynamoDbPort}/`,
      method: 'POST' as const,
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.GetItem',
        authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
      },
      body: JSON.stringify({ TableName: linksTable, Key: { code: { S: 'baseline-item' } } }),
    };
    const redirect = { url: `${stack.url}/${shortCode}`, method: 'GET' as const };

    const probe = await load({ ...getItem, amount: 5, connections: 1 });
    if (probe.non2xx > 0) throw new Error('the raw GetItem baseline is refused by DynamoDB Local');

    const baselines: LoadResult[] = [];
    const redirects: LoadResult[] = [];
    for (let round = 0; round <= ROUNDS; round += 1) {
      const baseline = await load({ ...getItem, connections: CONNECTIONS, duration: SECONDS });
      const visits = await load({ ...redirect, connections: CONNECTIONS, duration: SECONDS });
      const onlyRedirects = visits.byClass['3xx'] > 0 && visits.byClass['2xx'] + visits.byClass['4xx'] + visits.byClass['5xx'] === 0;
      const onlyItems = baseline.byClass['2xx'] > 0 && baseline.non2xx === 0;
      if (visits.errors > 0 || baseline.errors > 0 || !onlyRedirects || !onlyItems) throw new Error(`a run measured failures: ${JSON.stringify({ visits, baseline })}`);
      // Round 0 warms both servers up; it is not counted.
      if (round === 0) continue;
      baselines.push(baseline);
      redirects.push(visits);
      console.error(`round ${round}: GetItem ${round1(baseline.requestsPerSecond)} req/s p99 ${baseline.p99} ms; redirect ${round1(visits.requestsPerSecond)} req/s p99 ${visits.p99} ms`);
    }
    const baselineRps = median(baselines.map((result) => result.requestsPerSecond));
    const redirectRps = median(redirects.map((result) => result.requestsPerSecond));
    console.log(`| raw GetItem to DynamoDB Local, ${CONNECTIONS} connections | ${round(baselineRps, 0)} req/s, p99 ${median(baselines.map((r) => r.p99))} ms |`);
    console.log(`| plain-link redirect through the local stack | ${round(redirectRps, 0)} req/s, p99 ${median(redirects.map((r) => r.p99))} ms |`);
    console.log(`| ratio (target ≥ 0.8) | ${round(redirectRps / baselineRps)} |`);
  } finally {
    await stack.stop();
  }
}

const round1 = (value: number) => round(value, 0);

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
