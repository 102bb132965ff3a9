import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { spawnLocalStack, type LocalStackProcess } from '../bin/local/child-process';
import { checkOut, workingTreeName } from './ab-checkout';
import { processTree, threadCpu, type ThreadCpu } from './process-cpu';
import { median } from './support';

/**
 * `npm run bench:ab-cpu -- <git ref>`: where a visit's CPU goes, thread by thread, in this tree's local stack and an
 * older commit's, run side by side on this tree's pinned Node (as bench:ab runs them). Requests per second move with
 * whatever else the machine runs; the CPU time each thread spends per visit (Linux's /proc) moves far less, so it
 * tells which part of the stack a change made dearer: the gateway's main thread, the redirect's worker (one Lambda
 * container), the aggregator's, the other threads of the Node process (V8's, the other functions' workers),
 * DynamoDB Local. Rounds alternate the two sides; medians per part are printed with their ratio new/old.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '5' },
    visits: { type: 'string', default: '10000' },
    path: { type: 'string', default: 'plain' },
    connections: { type: 'string', default: '10' },
  },
});
const ROUNDS = Number(values.rounds);
const VISITS = Number(values.visits);
const PATHS = { plain: { url: 'https://example.com/a' }, maxClicks: { url: 'https://example.com/a', maxClicks: 1_000_000_000 } } as const;
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
/**
 * Connections of each run: 10 keep the worker busy and let neither side starve the other's; 50, as bench:ab runs,
 * show what a thread costs a visit when the machine is full (more lines and messages per turn of each event loop).
 */
const CONNECTIONS = Number(values.connections);
/** After each run, the aggregator counts the run's clicks before the threads are read again. */
const AGGREGATION_WAIT_MS = 1_500;
const PARTS = ['gateway (main thread)', 'redirect worker', 'aggregator worker', 'other Node threads', 'DynamoDB Local', 'all'] as const;
type Part = (typeof PARTS)[number];

interface Side {
  name: string;
  stack: LocalStackProcess;
  url: string;
  /** Which thread plays which part, decided from the warm-up (the two busiest workers: the redirect, then the aggregator). */
  roles?: Map<string, Part>;
  samples: Map<Part, number[]>;
}

async function prepare(name: string, root?: string): Promise<Side> {
  const stack = await spawnLocalStack({ LOCAL_SKIP_SYNTH: '', LOCAL_THROTTLES: 'off', LOCAL_FUNCTION_LOGS: 'off' }, root);
  const body = PATHS[values.path as keyof typeof PATHS];
  if (!body) throw new Error(`--path is one of ${Object.keys(PATHS).join(', ')}`);
  const created = await fetch(`${stack.url}/v2/shorten`, { method: 'POST', headers: { authorization: `Bearer ${stack.devApiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (created.status !== 201) throw new Error(`${name}: the bench link was refused (${created.status})`);
  const { shortCode } = (await created.json()) as { shortCode: string };
  return { name, stack, url: `${stack.url}/${shortCode}`, samples: new Map() };
}

function rolesOf(side: Side, used: Map<string, ThreadCpu & { used: number }>): Map<string, Part> {
  const workers = [...used].filter(([, thread]) => thread.pid === side.stack.child.pid && thread.name === 'WorkerThread').sort(([, a], [, b]) => b.used - a.used);
  const roles = new Map<string, Part>([[String(side.stack.child.pid), 'gateway (main thread)']]);
  if (workers[0]) roles.set(workers[0][0], 'redirect worker');
  if (workers[1]) roles.set(workers[1][0], 'aggregator worker');
  return roles;
}

/** Visits the side's link, then books each thread's CPU to its part, per visit. */
async function measure(side: Side, visits: number, counted: boolean): Promise<void> {
  const pids = processTree(side.stack.child.pid ?? 0);
  const before = threadCpu(pids);
  const result = await autocannon({ url: side.url, connections: CONNECTIONS, amount: visits, headers: { 'user-agent': USER_AGENT } });
  if (result['3xx'] !== visits) throw new Error(`${side.name}: ${visits - result['3xx']} of ${visits} visits were not redirected`);
  await new Promise((resolve) => setTimeout(resolve, AGGREGATION_WAIT_MS));
  const used = new Map([...threadCpu(pids)].map(([tid, thread]) => [tid, { ...thread, used: thread.seconds - (before.get(tid)?.seconds ?? 0) }]));
  side.roles ??= rolesOf(side, used);
  if (!counted) return;
  const perPart = new Map<Part, number>(PARTS.map((part) => [part, 0]));
  for (const [tid, thread] of used) {
    const part = side.roles.get(tid) ?? (thread.pid === side.stack.child.pid ? 'other Node threads' : 'DynamoDB Local');
    perPart.set(part, (perPart.get(part) ?? 0) + thread.used);
    perPart.set('all', (perPart.get('all') ?? 0) + thread.used);
  }
  for (const [part, seconds] of perPart) side.samples.set(part, [...(side.samples.get(part) ?? []), (seconds / visits) * 1e6]);
}

async function main(): Promise<void> {
  const ref = positionals[0];
  if (!ref) throw new Error('usage: npm run bench:ab-cpu -- <git ref> [--rounds 5] [--visits 10000] [--path plain|maxClicks] [--connections 10]');
  const checkout = checkOut(ref, (line) => console.error(line));
  const sides: Side[] = [];
  try {
    sides.push(await prepare(`${ref} (${checkout.sha.slice(0, 7)})`, checkout.directory));
    sides.push(await prepare(`this tree (${workingTreeName()})`));
    // Warm-up: the JIT and DynamoDB Local settle, and each side's threads get their parts.
    for (const side of sides) await measure(side, Math.max(1_000, VISITS / 2), false);
    for (let round = 0; round < ROUNDS; round += 1) for (const side of round % 2 === 0 ? sides : [...sides].reverse()) await measure(side, VISITS, true);
    const [older, newer] = sides as [Side, Side];
    console.log(`CPU µs per visit of a ${values.path} link, medians of ${ROUNDS} rounds of ${VISITS} visits (${CONNECTIONS} connections)`);
    console.log(`| part | ${older.name} | ${newer.name} | ratio |\n|---|---|---|---|`);
    for (const part of PARTS) {
      const [old, now] = [median(older.samples.get(part) ?? []), median(newer.samples.get(part) ?? [])];
      console.log(`| ${part} | ${old.toFixed(1)} | ${now.toFixed(1)} | ${(now / old).toFixed(2)} |`);
    }
  } finally {
    await Promise.all(sides.map((side) => side.stack.stop()));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
