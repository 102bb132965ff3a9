import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { StackOutputs } from '../lib/stack-outputs';
import { devApiKey, dynamo, http, jsonHeaders, stackOutput } from '../test/support/local-stack';
import { load, median, round, startBenchStack, type LoadResult } from './support';

/**
 * Issue 5's target: plain-link redirects through the local stack deliver at least 0.8 of the requests per second
 * of raw GetItem calls to the same DynamoDB Local at the same concurrency (issue 11: 1.0). Issue 17 adds a link on
 * a customer's domain (through the local edge, Host header and all) beside the shared one. All go through
 * autocannon over HTTP, alternating, over several rounds.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 10;
const SECONDS = 5;

const CUSTOM_DOMAIN = 'go.bench-example.com';

async function main(): Promise<void> {
  const hostsFile = path.join(mkdtempSync(path.join(tmpdir(), 'bench-hosts-')), 'hosts');
  writeFileSync(hostsFile, `127.0.0.1 ${CUSTOM_DOMAIN}\n`);
  const stack = await startBenchStack({ LOCAL_HOSTS_FILE: hostsFile });
  try {
    const created = await http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body: { url: 'https://example.com/hot' } });
    const { shortCode } = created.json<{ shortCode: string }>();
    await http('POST', '/v2/domains', { headers: jsonHeaders(devApiKey()), body: { domain: CUSTOM_DOMAIN } });
    const verified = await http('POST', `/v2/domains/${CUSTOM_DOMAIN}/verify`, { headers: jsonHeaders(devApiKey()) });
    if (verified.json().status !== 'active') throw new Error(`the bench domain did not become active: ${verified.text}`);
    const onDomain = await http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body: { url: 'https://example.com/hot', domain: CUSTOM_DOMAIN } });
    const customCode = onDomain.json<{ shortCode: string }>().shortCode;
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
    const customRedirect = { url: `${stack.url}/${customCode}`, method: 'GET' as const, headers: { host: CUSTOM_DOMAIN } };

    const probe = await load({ ...getItem, amount: 5, connections: 1 });
    if (probe.non2xx > 0) throw new Error('the raw GetItem baseline is refused by DynamoDB Local');

    const baselines: LoadResult[] = [];
    const redirects: LoadResult[] = [];
    const customRedirects: LoadResult[] = [];
    const onlyRedirects = (visits: LoadResult) => visits.errors === 0 && visits.byClass['3xx'] > 0 && visits.byClass['2xx'] + visits.byClass['4xx'] + visits.byClass['5xx'] === 0;
    for (let round = 0; round <= ROUNDS; round += 1) {
      const baseline = await load({ ...getItem, connections: CONNECTIONS, duration: SECONDS });
      const visits = await load({ ...redirect, connections: CONNECTIONS, duration: SECONDS });
      const customVisits = await load({ ...customRedirect, connections: CONNECTIONS, duration: SECONDS });
      const onlyItems = baseline.byClass['2xx'] > 0 && baseline.non2xx === 0 && baseline.errors === 0;
      if (!onlyRedirects(visits) || !onlyRedirects(customVisits) || !onlyItems) throw new Error(`a run measured failures: ${JSON.stringify({ visits, customVisits, baseline })}`);
      // Round 0 warms the servers up; it is not counted.
      if (round === 0) continue;
      baselines.push(baseline);
      redirects.push(visits);
      customRedirects.push(customVisits);
      console.error(
        `round ${round}: GetItem ${round1(baseline.requestsPerSecond)} req/s p99 ${baseline.p99} ms; redirect ${round1(visits.requestsPerSecond)} req/s p99 ${visits.p99} ms; custom domain ${round1(customVisits.requestsPerSecond)} req/s p99 ${customVisits.p99} ms`,
      );
    }
    const baselineRps = median(baselines.map((result) => result.requestsPerSecond));
    const redirectRps = median(redirects.map((result) => result.requestsPerSecond));
    const customRps = median(customRedirects.map((result) => result.requestsPerSecond));
    console.log(`| raw GetItem to DynamoDB Local, ${CONNECTIONS} connections | ${round(baselineRps, 0)} req/s, p99 ${median(baselines.map((r) => r.p99))} ms |`);
    console.log(`| plain-link redirect through the local stack | ${round(redirectRps, 0)} req/s, p99 ${median(redirects.map((r) => r.p99))} ms |`);
    console.log(`| plain-link redirect on a custom domain (local edge, Host header) | ${round(customRps, 0)} req/s, p99 ${median(customRedirects.map((r) => r.p99))} ms |`);
    console.log(`| ratio, shared domain (target ≥ 1.0) | ${round(redirectRps / baselineRps)} |`);
    console.log(`| ratio, custom domain (target ≥ 1.0) | ${round(customRps / baselineRps)} |`);
  } finally {
    await stack.stop();
  }
}

const round1 = (value: number) => round(value, 0);

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
