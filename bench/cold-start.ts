import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { readLocalTopology, synthesize } from '../bin/local/stack';
import { ESM_REQUIRE_BANNER } from '../lib/service-function';
import { ESBUILD_TARGET } from '../lib/node-runtime';
import { median, round } from './support';

/**
 * Issue 6's cold-start budget (issue 28: ≤ 1.2): each deployed bundle (from `cdk synth`) against a floor bundle built
 * with the same esbuild options that only creates the SDK clients the function's bundle carries (found by esbuild
 * from its handler). Import time is measured inside a fresh Node process (so Node's own start-up is not counted),
 * median of RUNS, floors and functions interleaved.
 *
 * `BENCH_COUNT=instructions` counts the instructions each import executes instead (valgrind's callgrind, the whole
 * process less an empty module's): within about 1 % from run to run where CPU time moves 5 %, so a change of 2 %
 * shows; it leaves out what CPU time also holds (page faults, cache misses, the kernel's file reads).
 */
const INSTRUCTIONS = process.env.BENCH_COUNT === 'instructions';
const RUNS = Number(process.env.BENCH_RUNS ?? (INSTRUCTIONS ? 3 : 31));
const ROOT = path.join(__dirname, '..');
/** The table's names for the client packages. */
const CLIENT_NAMES: Record<string, string> = {
  'client-dynamodb': 'DynamoDB',
  'client-ssm': 'SSM',
  'client-sqs': 'SQS',
  'client-kms': 'KMS',
  'client-cloudfront': 'CloudFront',
  'client-sesv2': 'SES',
  'client-cognito-identity-provider': 'Cognito',
};

/** The floor of a function that creates no SDK client: an empty module, against which a ratio means nothing. */
const NO_CLIENT = 'no SDK client';

const ESBUILD_OPTIONS: BuildOptions = { bundle: true, platform: 'node', format: 'esm', target: ESBUILD_TARGET, mainFields: ['module', 'main'], logLevel: 'silent' };

/**
 * The SDK clients a function's bundle carries (`@aws-sdk/client-*` packages, sorted), as esbuild finds them from its
 * handler: the floor is measured with exactly those, whatever made the function need them.
 */
async function clientPackagesOf(service: string): Promise<string[]> {
  const { metafile } = await build({ ...ESBUILD_OPTIONS, entryPoints: [path.join(ROOT, 'functions', service, 'handler.ts')], outfile: 'handler.mjs', minify: true, write: false, metafile: true });
  // What reaches the output, not every file parsed: a client the shared adapters import but this function never
  // creates is shaken out of its bundle.
  const kept = Object.values(metafile?.outputs ?? {}).flatMap((output) => Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([file]) => file));
  return [...new Set(kept.flatMap((input) => /node_modules\/@aws-sdk\/(client-[^/]+)\//.exec(input)?.[1] ?? []))].sort();
}

/** A floor bundle that creates one client of each package (no package: a module and nothing else), as a function would at import. */
async function buildFloor(packages: readonly string[], outdir: string): Promise<string> {
  const clients = await Promise.all(
    packages.map(async (name) => {
      const exported = Object.keys((await import(`@aws-sdk/${name}`)) as Record<string, unknown>).find((key) => /^[A-Z]\w*Client$/.test(key));
      if (!exported) throw new Error(`@aws-sdk/${name} exports no client class`);
      return { name, exported };
    }),
  );
  const source = [
    ...clients.map(({ name, exported }) => `import { ${exported} } from '@aws-sdk/${name}';`),
    `export const clients = [${clients.map(({ exported }) => `new ${exported}({})`).join(', ')}];`,
    'export const handler = async () => ({ statusCode: 200 });',
  ].join('\n');
  const outfile = path.join(outdir, `floor-${packages.join('+') || 'none'}.mjs`);
  await build({ ...ESBUILD_OPTIONS, stdin: { contents: source, resolveDir: ROOT, loader: 'ts' }, outfile, minify: true, banner: { js: ESM_REQUIRE_BANNER } });
  return outfile;
}

/**
 * Wall time of the import, and the CPU time it used: on a 2-core machine shared with other work the CPU time is
 * the steadier of the two, so the ratios use it; both are reported.
 */
function importMs(file: string, environment: Record<string, string>): { wall: number; cpu: number } {
  const script = `const cpu = process.cpuUsage(); const started = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); const used = process.cpuUsage(cpu); console.log(performance.now() - started, (used.user + used.system) / 1000);`;
  const output = execFileSync(process.execPath, ['--input-type=module', '--no-warnings', '-e', script], {
    env: { ...process.env, ...environment, AWS_REGION: 'us-east-1' },
    encoding: 'utf8',
  });
  const [wall = NaN, cpu = NaN] = (output.trim().split('\n').pop() ?? '').split(' ').map(Number);
  return { wall, cpu };
}

/** Instructions a fresh Node process executes importing the file, in millions (valgrind runs it about 60× slower). */
function importInstructions(file: string, environment: Record<string, string>): number {
  const script = `await import(${JSON.stringify(pathToFileURL(file).href)});`;
  const result = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--input-type=module', '--no-warnings', '-e', script], {
    env: { ...process.env, ...environment, AWS_REGION: 'us-east-1' },
    encoding: 'utf8',
  });
  if (result.error) throw new Error(`BENCH_COUNT=instructions runs valgrind (${result.error.message}): apt-get install valgrind`);
  const collected = /Collected : (\d+)/.exec(result.stderr)?.[1];
  if (result.status !== 0 || !collected) throw new Error(`valgrind could not count ${file}: ${result.stderr.slice(-500)}`);
  return Number(collected) / 1e6;
}

async function main(): Promise<void> {
  if (process.env.LOCAL_SKIP_SYNTH !== '1') synthesize();
  const topology = readLocalTopology('http://localhost:3000');
  const outdir = mkdtempSync(path.join(tmpdir(), 'floors-'));
  const floors = new Map<string, string>();
  const rows: Row[] = [];
  for (const fn of topology.functions.values()) {
    const name = fn.environment.POWERTOOLS_SERVICE_NAME ?? fn.logicalId;
    const packages = await clientPackagesOf(name);
    const floorName = packages.length === 0 ? NO_CLIENT : packages.map((name) => CLIENT_NAMES[name] ?? name).join(' + ');
    if (!floors.has(floorName)) floors.set(floorName, await buildFloor(packages, outdir));
    // LAMBDA_TASK_ROOT as Lambda sets it: the docs function reads the file shipped beside its bundle.
    rows.push({ name, file: fn.entryFile, environment: { ...fn.environment, LAMBDA_TASK_ROOT: path.dirname(fn.entryFile) }, floor: floors.get(floorName) as string, floorName });
  }

  if (INSTRUCTIONS) return countInstructions(rows, [...floors.values()], outdir);
  const times = new Map<string, Array<{ wall: number; cpu: number }>>();
  const record = (file: string, sample: { wall: number; cpu: number }) => times.set(file, [...(times.get(file) ?? []), sample]);
  // Each run imports every bundle once, in a shuffled order, so drift on a noisy machine hits all of them alike.
  const subjects = [...[...floors.values()].map((file) => ({ file, environment: {} })), ...rows];
  for (let run = 0; run < RUNS; run += 1) {
    for (const subject of [...subjects].sort(() => Math.random() - 0.5)) record(subject.file, importMs(subject.file, subject.environment));
  }

  const kb = (file: string) => statSync(file).size / 1024;
  const ms = (file: string, kind: 'wall' | 'cpu') => median((times.get(file) ?? []).map((sample) => sample[kind]));
  console.log('| function | bundle | floor | over floor | import CPU (median) | floor CPU | ratio (target ≤ 1.2) | import wall / floor wall |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows.sort((a, b) => a.name.localeCompare(b.name))) {
    console.log(
      `| ${row.name} | ${round(kb(row.file), 1)} KB | ${round(kb(row.floor), 1)} KB (${row.floorName}) | ${round(kb(row.file) - kb(row.floor), 1)} KB | ${round(ms(row.file, 'cpu'), 1)} ms | ${round(ms(row.floor, 'cpu'), 1)} ms | ${round(ms(row.file, 'cpu') / ms(row.floor, 'cpu'))} | ${round(ms(row.file, 'wall'), 1)} / ${round(ms(row.floor, 'wall'), 1)} ms |`,
    );
  }
}

interface Row {
  name: string;
  file: string;
  environment: Record<string, string>;
  floor: string;
  floorName: string;
}

async function countInstructions(rows: readonly Row[], floors: readonly string[], outdir: string): Promise<void> {
  // Node's own start-up, counted the same way and taken off every figure: an empty module's import.
  const empty = await buildFloor([], outdir);
  const counts = new Map<string, number[]>();
  const subjects = [{ file: empty, environment: {} }, ...floors.map((file) => ({ file, environment: {} })), ...rows];
  for (let run = 0; run < RUNS; run += 1) {
    for (const subject of subjects) counts.set(subject.file, [...(counts.get(subject.file) ?? []), importInstructions(subject.file, subject.environment)]);
  }
  const counted = (file: string) => median(counts.get(file) ?? []) - median(counts.get(empty) ?? []);
  console.log(`| function | floor | import instructions (median of ${RUNS}) | floor's | ratio (target ≤ 1.2) |`);
  console.log('|---|---|---|---|---|');
  for (const row of [...rows].sort((a, b) => a.name.localeCompare(b.name))) {
    console.log(`| ${row.name} | ${row.floorName} | ${round(counted(row.file), 1)} M | ${round(counted(row.floor), 1)} M | ${row.floorName === NO_CLIENT ? 'n/a' : round(counted(row.file) / counted(row.floor))} |`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
