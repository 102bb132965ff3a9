import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { StackOutputs } from '../lib/stack-outputs';
import { devApiKey, dynamo, http, jsonHeaders, stackOutput } from '../test/support/local-stack';
import { load, median, round, startBenchStack, type LoadResult } from './support';
import { CUSTOM_DOMAIN, SMART_LINK, SMART_VISITOR } from './visit-fixtures';

/**
 * Issue 5's target: plain-link redirects through the local stack deliver at least 0.8 of the requests per second
 * of raw GetItem calls to the same DynamoDB Local at the same concurrency (issue 11: 1.0). Issue 17 adds a link on
 * a customer's domain (through the local edge, Host header and all) beside the shared one; issue 18 a smart link
 * with 20 rules and 4 variants, visited by a browser no rule matches and without a cookie, so every rule is read
 * and a variant drawn on every visit. All go through autocannon over HTTP, alternating, over several rounds.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 10;
const SECONDS = 5;

async function main(): Promise<void> {
  const hostsFile = path.join(mkdtempSync(path.join(tmpdir(), 'bench-hosts-')), 'hosts');
  writeFileSync(hostsFile, `127.0.0.1 ${CUSTOM_DOMAIN}\n`);
  // The claim's TXT challenge goes here once the claim exists (its value is the claim's own).
  const txtFile = path.join(path.dirname(hostsFile), 'txt');
  writeFileSync(txtFile, '');
  const stack = await startBenchStack({ LOCAL_HOSTS_FILE: hostsFile, LOCAL_DNS_TXT_FILE: txtFile });
  try {
    const created = await http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body: { url: 'https://example.com/hot' } });
    const { shortCode } = created.json<{ shortCode: string }>();
    const claimed = await http('POST', '/v2/domains', { headers: jsonHeaders(devApiKey()), body: { domain: CUSTOM_DOMAIN } });
    for (const record of claimed.json<{ dnsRecords: Array<{ type: string; name: string; value: string }> }>().dnsRecords) {
      if (record.type === 'TXT') appendFileSync(txtFile, `${record.name} ${record.value}\n`);
    }
    const verified = await http('POST', `/v2/domains/${CUSTOM_DOMAIN}/verify`, { headers: jsonHeaders(devApiKey()) });
    if (verified.json().status !== 'active') throw new Error(`the bench domain did not become active: ${verified.text}`);
    const onDomain = await http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body: { url: 'https://example.com/hot', domain: CUSTOM_DOMAIN } });
    const customCode = onDomain.json<{ shortCode: string }>().shortCode;
    const smart = await http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body: SMART_LINK });
    if (smart.status !== 201) throw new Error(`the bench's smart link was refused: ${smart.text}`);
    const smartCode = smart.json<{ shortCode: string }>().shortCode;
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
    const smartRedirect = { url: `${stack.url}/${smartCode}?ref=newsletter&page=2`, method: 'GET' as const, headers: SMART_VISITOR };
    // The plain link asked the way the smart one is (a browser's headers, a query string), and the smart link asked
    // the way the plain one is (no headers, no query: every rule is still read, a variant still drawn): each pair
    // prices the rules apart from the request's own weight.
    const dressedRedirect = { ...smartRedirect, url: `${stack.url}/${shortCode}?ref=newsletter&page=2` };
    const bareSmartRedirect = { url: `${stack.url}/${smartCode}`, method: 'GET' as const };

    const probe = await load({ ...getItem, amount: 5, connections: 1 });
    if (probe.non2xx > 0) throw new Error('the raw GetItem baseline is refused by DynamoDB Local');

    const baselines: LoadResult[] = [];
    const redirects: LoadResult[] = [];
    const customRedirects: LoadResult[] = [];
    const smartRedirects: LoadResult[] = [];
    const dressedRedirects: LoadResult[] = [];
    const bareSmartRedirects: LoadResult[] = [];
    const onlyRedirects = (visits: LoadResult) => visits.errors === 0 && visits.byClass['3xx'] > 0 && visits.byClass['2xx'] + visits.byClass['4xx'] + visits.byClass['5xx'] === 0;
    // The order rotates each round: a run of redirects leaves the aggregator a backlog of click lines to count
    // while the next run goes, so whichever ran second would always pay for the first.
    const subjects = [
      { name: 'GetItem', options: getItem, results: baselines, check: (result: LoadResult) => result.errors === 0 && result.byClass['2xx'] > 0 && result.non2xx === 0 },
      { name: 'redirect', options: redirect, results: redirects, check: onlyRedirects },
      { name: 'custom domain', options: customRedirect, results: customRedirects, check: onlyRedirects },
      { name: 'smart link', options: smartRedirect, results: smartRedirects, check: onlyRedirects },
      { name: 'plain, smart request', options: dressedRedirect, results: dressedRedirects, check: onlyRedirects },
      { name: 'smart, plain request', options: bareSmartRedirect, results: bareSmartRedirects, check: onlyRedirects },
    ];
    for (let round = 0; round <= ROUNDS; round += 1) {
      const order = subjects.map((_, index) => subjects[(index + round) % subjects.length] as (typeof subjects)[number]);
      const line: string[] = [];
      for (const subject of order) {
        const result = await load({ ...subject.options, connections: CONNECTIONS, duration: SECONDS });
        if (!subject.check(result)) throw new Error(`a ${subject.name} run measured failures: ${JSON.stringify(result)}`);
        // Round 0 warms the servers up; it is not counted.
        if (round > 0) subject.results.push(result);
        line.push(`${subject.name} ${round1(result.requestsPerSecond)} req/s p99 ${result.p99} ms`);
      }
      if (round > 0) console.error(`round ${round}: ${line.join('; ')}`);
    }
    const baselineRps = median(baselines.map((result) => result.requestsPerSecond));
    const redirectRps = median(redirects.map((result) => result.requestsPerSecond));
    const customRps = median(customRedirects.map((result) => result.requestsPerSecond));
    const smartRps = median(smartRedirects.map((result) => result.requestsPerSecond));
    const dressedRps = median(dressedRedirects.map((result) => result.requestsPerSecond));
    const bareSmartRps = median(bareSmartRedirects.map((result) => result.requestsPerSecond));
    console.log(`| raw GetItem to DynamoDB Local, ${CONNECTIONS} connections | ${round(baselineRps, 0)} req/s, p99 ${median(baselines.map((r) => r.p99))} ms |`);
    console.log(`| plain-link redirect through the local stack | ${round(redirectRps, 0)} req/s, p99 ${median(redirects.map((r) => r.p99))} ms |`);
    console.log(`| plain-link redirect on a custom domain (local edge, Host header) | ${round(customRps, 0)} req/s, p99 ${median(customRedirects.map((r) => r.p99))} ms |`);
    console.log(`| smart-link redirect: 20 rules read, 1 of 4 variants drawn, query and UTM merged | ${round(smartRps, 0)} req/s, p99 ${median(smartRedirects.map((r) => r.p99))} ms |`);
    console.log(`| ratio, shared domain (target ≥ 1.0) | ${round(redirectRps / baselineRps)} |`);
    console.log(`| ratio, custom domain (target ≥ 1.0) | ${round(customRps / baselineRps)} |`);
    console.log(`| plain-link redirect asked like the smart one (browser headers, query string) | ${round(dressedRps, 0)} req/s, p99 ${median(dressedRedirects.map((r) => r.p99))} ms |`);
    console.log(`| smart-link redirect asked like the plain one (no headers, no query) | ${round(bareSmartRps, 0)} req/s, p99 ${median(bareSmartRedirects.map((r) => r.p99))} ms |`);
    console.log(`| ratio, smart link asked like the plain one (target ≥ 1.0) | ${round(bareSmartRps / baselineRps)} |`);
    console.log(`| ratio, smart link asked as a browser asks | ${round(smartRps / baselineRps)} |`);
    console.log(`| ratio, smart link to the plain link, both asked as a browser asks (the rules' own cost) | ${round(smartRps / dressedRps)} |`);
    console.log(`| ratio, smart link to the plain link, both asked bare | ${round(bareSmartRps / redirectRps)} |`);
  } finally {
    await stack.stop();
  }
}

const round1 = (value: number) => round(value, 0);

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
