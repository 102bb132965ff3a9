import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type autocannon from 'autocannon';
import { PINNED_NODE, spawnLocalStack, type LocalStackProcess } from '../bin/local/child-process';
import { checkOut, workingTreeName } from './ab-checkout';
import { cpuSeconds, processTree } from './process-cpu';
import { reportTable, summarise, type Sample } from './ab-report';
import { selectPaths, type PathName } from './ab-paths';
import { load, type LoadResult } from './support';
import { CUSTOM_DOMAIN, SMART_LINK, SMART_VISITOR } from './visit-fixtures';

/**
 * `npm run bench:ab -- <git ref>`: this tree against an older commit, both local stacks up side by side on this
 * tree's pinned Node, the same runs alternating between them (each pair's order flips from path to path and round to
 * round, so neither side always runs while the other's aggregator still counts its clicks). The visitor's paths
 * are measured under load; creation one request at a time (its p50 is the figure, and the per-minute limit of the
 * dev key stays far away). A path the old commit lacks (smart links, custom domains) is n/a on its side.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    // Even: the order within a pair flips from round to round, so each side runs first in as many rounds as the other
    // on every path. Going first was worth 13-17 % (issue 28's twelfth pass); with 3, the hot plain link had this tree
    // first twice, the maxClicks link the old commit.
    rounds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '8' },
    creations: { type: 'string', default: '200' },
    out: { type: 'string', default: 'test-artifacts/bench-ab.json' },
    // own: each stack in a session of its own, as `npm start` in its own terminal runs it (bin/local/child-process.ts);
    // shared: both in this process's session, as every run before issue 28's tenth pass. With the kernel's autogroups
    // on, the verdict depends on it: measurements.md says why own is the default.
    sessions: { type: 'string', default: 'own' },
    // Comma-separated short names (bench/ab-paths.ts): only those paths run, and the hot plain link.
    paths: { type: 'string' },
  },
});
if (values.sessions !== 'shared' && values.sessions !== 'own') throw new Error(`--sessions is shared or own, not ${values.sessions}`);
const OWN_SESSIONS = values.sessions === 'own';
const PATHS = selectPaths(values.paths);
const ROUNDS = positiveInteger('rounds');
const CONNECTIONS = positiveInteger('connections');
const SECONDS = positiveInteger('duration');
const CREATIONS = positiveInteger('creations');
/** Runs before the counted rounds, per path and side: the stacks' JIT settles first. */
const WARM_UP_SECONDS = 2;
/**
 * The maxClicks link writes on every visit, and DynamoDB Local's JIT needs about 30,000 conditional updates to reach
 * its steady rate: 290 a second in the first 5 s, 1,100 after 14,000, 1,500–1,840 from 30,000 on (50 in flight on one
 * item of a streamed, indexed table, issue 28's fifteenth pass). With 2 s of warm-up its counted rounds 1 and 2 ran
 * at 60–80 % of rounds 3 and 4 on both sides, and the median mixed the two regimes.
 */
const WRITE_WARM_UP_VISITS = 30_000;
/**
 * Before each run both stacks finish what the run before left them (the aggregator's clicks, the webhook router's
 * stream records of 1,200 new links, DynamoDB Local's own work): each stack's processes together below this share
 * of one core in every quarter second for QUIET_MS in a row, or after 20 s.
 */
const IDLE_CPU_SHARE = 0.15;
/**
 * Longer than the local log subscription's delivery interval and a quiet stream's poll (1 s each): one quiet quarter
 * second could fall between two deliveries of the last run's clicks, whose counting then ran beside the next run.
 */
const QUIET_MS = 1_500;
const SETTLE_LIMIT_MS = 20_000;

function positiveInteger(name: 'rounds' | 'connections' | 'duration' | 'creations'): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number above 0, got ${values[name]}`);
  return value;
}

interface Subject {
  options: autocannon.Options;
  /** The status class every answer must have, or the run measured something else (404s, 429s). */
  expect: '2xx' | '3xx';
  /** Creation runs a fixed number of requests over one connection, the visitor's paths the load for the duration. */
  creation: boolean;
  /** A path that writes on every request warms up for this many requests, not WARM_UP_SECONDS. */
  warmUpRequests?: number;
}

async function api(stack: LocalStackProcess, method: string, route: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${stack.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${stack.devApiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function createLink(stack: LocalStackProcess, body: Record<string, unknown>): Promise<string> {
  const created = await api(stack, 'POST', '/v2/shorten', body);
  if (created.status !== 201) throw new Error(`a bench link was refused (${created.status}): ${JSON.stringify(created.json)}`);
  return String(created.json.shortCode);
}

/**
 * Each path's links made through the stack's own API; undefined where its code has no such feature. A domain
 * claim's TXT challenge goes to `txtFile`, where the stack's resolver reads it (LOCAL_DNS_TXT_FILE).
 */
async function prepare(stack: LocalStackProcess, txtFile: string): Promise<Map<PathName, Subject>> {
  const visit = (code: string, extra: Partial<autocannon.Options> = {}): Subject => ({ options: { url: `${stack.url}/${code}`, method: 'GET', ...extra }, expect: '3xx', creation: false });
  const subjects = new Map<PathName, Subject>();
  subjects.set('hot plain link', visit(await createLink(stack, { url: 'https://example.com/hot' })));
  subjects.set('maxClicks link (limit 10⁹)', { ...visit(await createLink(stack, { url: 'https://example.com/hot', maxClicks: 1_000_000_000 })), warmUpRequests: WRITE_WARM_UP_VISITS });
  // An older API drops fields it does not know: the stored link tells whether the rules exist.
  const smartCode = await createLink(stack, SMART_LINK);
  const smart = await api(stack, 'GET', `/v2/links/${smartCode}`);
  if (Array.isArray(smart.json.rules)) subjects.set('smart link (20 rules, 4 variants)', visit(`${smartCode}?ref=newsletter&page=2`, { headers: SMART_VISITOR }));
  const domain = await api(stack, 'POST', '/v2/domains', { domain: CUSTOM_DOMAIN });
  if (domain.status === 201) {
    const records = (domain.json.dnsRecords ?? []) as Array<{ type: string; name: string; value: string }>;
    for (const record of records) if (record.type === 'TXT') appendFileSync(txtFile, `${record.name} ${record.value}\n`);
    const verified = await api(stack, 'POST', `/v2/domains/${CUSTOM_DOMAIN}/verify`);
    if (verified.json.status !== 'active') throw new Error(`the bench domain did not become active: ${JSON.stringify(verified.json)}`);
    subjects.set('custom-domain link', visit(await createLink(stack, { url: 'https://example.com/hot', domain: CUSTOM_DOMAIN }), { headers: { host: CUSTOM_DOMAIN } }));
  }
  subjects.set("password link's form", { ...visit(await createLink(stack, { url: 'https://example.com/hot', password: 'bench-password' })), expect: '2xx' });
  const headers = { authorization: `Bearer ${stack.devApiKey}`, 'content-type': 'application/json' };
  subjects.set('single creation', {
    options: { url: `${stack.url}/v2/shorten`, method: 'POST', headers, body: JSON.stringify({ url: 'https://example.com/bench' }), amount: CREATIONS },
    expect: '2xx',
    creation: true,
  });
  const urls = Array.from({ length: 50 }, (_, index) => ({ url: `https://example.com/bench/${index}` }));
  subjects.set('50-item batch', {
    options: { url: `${stack.url}/v2/shorten/batch`, method: 'POST', headers, body: JSON.stringify({ urls }), amount: Math.max(1, Math.round(CREATIONS / 10)) },
    expect: '2xx',
    creation: true,
  });
  return subjects;
}

/** Whether every answer of a run is of the expected class (none at all is fine for a warm-up only). */
function measuredWhatItMeant(result: LoadResult, subject: Subject, warmUp: boolean): boolean {
  const answered = result.byClass[subject.expect];
  const all = result.byClass['2xx'] + result.byClass['3xx'] + result.byClass['4xx'] + result.byClass['5xx'];
  return result.errors === 0 && answered === all && (answered > 0 || warmUp);
}

/**
 * One run of a path on one side. A warm-up may fail (a cold stack on a busy machine times out); a counted run that
 * answered anything else (a 503 when DynamoDB Local fell behind) is run once more before the benchmark gives up.
 */
async function run(subject: Subject, warmUp: boolean, label: string): Promise<LoadResult> {
  const warmUpLength = subject.warmUpRequests === undefined ? { duration: WARM_UP_SECONDS } : { amount: subject.warmUpRequests };
  const settings = subject.creation ? { connections: 1 } : { connections: CONNECTIONS, ...(warmUp ? warmUpLength : { duration: SECONDS }) };
  const result = await load({ ...subject.options, ...settings });
  if (warmUp || measuredWhatItMeant(result, subject, false)) return result;
  console.error(`${label} answered other than ${subject.expect}, run again: ${JSON.stringify(result.byClass)}, ${result.errors} errors`);
  const again = await load({ ...subject.options, ...settings });
  if (!measuredWhatItMeant(again, subject, false)) throw new Error(`${label} answered other than ${subject.expect} twice: ${JSON.stringify(again)}`);
  return again;
}

/** CPU seconds a stack's processes used so far; undefined without /proc. */
function stackCpuSeconds(stack: LocalStackProcess): number | undefined {
  const times = processTree(stack.child.pid ?? 0).map(cpuSeconds);
  return times[0] === undefined ? undefined : times.reduce<number>((sum, time) => sum + (time ?? 0), 0);
}

/**
 * Waits until both stacks, DynamoDB Local included, are about idle, so no run pays for another's backlog (a fixed
 * 2 s where /proc is missing).
 */
async function settle(stacks: readonly LocalStackProcess[]): Promise<void> {
  const started = Date.now();
  let quietSince = started;
  for (;;) {
    const before = stacks.map(stackCpuSeconds);
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (before.some((value) => value === undefined)) return new Promise((resolve) => setTimeout(resolve, 2_000));
    const busiest = Math.max(...stacks.map((stack, index) => ((stackCpuSeconds(stack) ?? 0) - (before[index] ?? 0)) / 0.25));
    if (busiest >= IDLE_CPU_SHARE) quietSince = Date.now();
    else if (Date.now() - quietSince >= QUIET_MS) return;
    if (Date.now() - started > SETTLE_LIMIT_MS) return console.error(`a stack still used ${Math.round(busiest * 100)} % of a core after ${SETTLE_LIMIT_MS / 1000} s: run anyway`);
  }
}

async function main(): Promise<void> {
  const ref = positionals[0];
  if (!ref) throw new Error('usage: npm run bench:ab -- <git ref> [--rounds 4] [--connections 50] [--duration 8] [--creations 200] [--sessions own|shared] [--paths hot,maxClicks,…] [--out file]');
  const log = (line: string) => console.error(line);
  const checkout = checkOut(ref, log);
  const oldName = `${ref} (${checkout.sha.slice(0, 7)})`;
  const newName = `this tree (${workingTreeName()})`;
  log(`both stacks on ${PINNED_NODE} (this tree's pinned Node); ${oldName}'s packages: ${checkout.packages}`);

  const hostsFile = path.join(mkdtempSync(path.join(tmpdir(), 'bench-hosts-')), 'hosts');
  writeFileSync(hostsFile, `127.0.0.1 ${CUSTOM_DOMAIN}\n`);
  const txtFile = path.join(path.dirname(hostsFile), 'txt');
  writeFileSync(txtFile, '');
  // As bench/support.ts starts a stack: no echo of a log line per click, the stage's throttles off.
  const environment = { LOCAL_SKIP_SYNTH: '', LOCAL_FUNCTION_LOGS: 'off', LOCAL_THROTTLES: 'off', LOCAL_HOSTS_FILE: hostsFile, LOCAL_DNS_TXT_FILE: txtFile };
  const sides: Array<{ name: string; stack?: LocalStackProcess; subjects: Map<PathName, Subject>; samples: Map<string, Sample[]> }> = [
    { name: oldName, subjects: new Map(), samples: new Map() },
    { name: newName, subjects: new Map(), samples: new Map() },
  ];
  try {
    // One after the other: two syntheses and two DynamoDB Locals starting at once would only slow each other.
    const [oldSide, newSide] = sides as [(typeof sides)[number], (typeof sides)[number]];
    if (OWN_SESSIONS) for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
    oldSide.stack = await spawnLocalStack(environment, checkout.directory, { ownSession: OWN_SESSIONS });
    newSide.stack = await spawnLocalStack(environment, undefined, { ownSession: OWN_SESSIONS });
    for (const side of sides) side.subjects = await prepare(side.stack as LocalStackProcess, txtFile);

    for (let round = 0; round <= ROUNDS; round += 1) {
      for (const [index, path] of PATHS.entries()) {
        // Round 0 warms both stacks up and is not counted; the order within each pair alternates.
        const order = (round + index) % 2 === 0 ? [oldSide, newSide] : [newSide, oldSide];
        const line: string[] = [];
        for (const side of order) {
          const subject = side.subjects.get(path);
          if (!subject) continue;
          await settle([oldSide.stack as LocalStackProcess, newSide.stack as LocalStackProcess]);
          const result = await run(subject, round === 0, `${path} on ${side.name}`);
          if (round > 0) side.samples.set(path, [...(side.samples.get(path) ?? []), { requestsPerSecond: result.requestsPerSecond, p50: result.p50 }]);
          line.push(`${side === oldSide ? 'old' : 'new'} ${Math.round(result.requestsPerSecond)} req/s p50 ${result.p50} ms`);
        }
        if (round > 0) log(`round ${round}, ${path}: ${line.join('; ')}`);
      }
    }
    const rows = summarise(
      PATHS.map((path) => ({ path, measure: (oldSide.subjects.get(path) ?? newSide.subjects.get(path))?.creation ? 'latency' : 'throughput' })),
      oldSide.samples,
      newSide.samples,
    );
    console.log(reportTable(rows, oldName, newName));
    const out = path.resolve(values.out);
    mkdirSync(path.dirname(out), { recursive: true });
    const settings = { paths: PATHS, rounds: ROUNDS, connections: CONNECTIONS, durationSeconds: SECONDS, creations: CREATIONS, warmUpSeconds: WARM_UP_SECONDS, writeWarmUpVisits: WRITE_WARM_UP_VISITS, idleCpuShare: IDLE_CPU_SHARE, quietMs: QUIET_MS, sessions: values.sessions };
    writeFileSync(out, `${JSON.stringify({ takenAt: new Date().toISOString(), node: PINNED_NODE, old: { ref, sha: checkout.sha, packages: checkout.packages }, new: newName, settings, paths: rows }, null, 2)}\n`);
    log(`written to ${path.relative(process.cwd(), out)}`);
  } finally {
    await Promise.all(sides.map((side) => side.stack?.stop()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
