import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { readLocalTopology, synthesize } from '../bin/local/stack';
import { ESM_REQUIRE_BANNER } from '../lib/service-function';
import { median, round } from './support';

/**
 * Issue 6's cold-start budget: each deployed bundle (from `cdk synth`) against a floor bundle built with the same
 * esbuild options that only creates the SDK clients the function needs. Import time is measured inside a fresh
 * Node process (so Node's own start-up is not counted), median of RUNS, floors and functions interleaved.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

async function buildFloor(entry: string, outdir: string): Promise<string> {
  const outfile = path.join(outdir, `${path.basename(entry, '.ts')}.mjs`);
  await build({
    entryPoints: [path.join(__dirname, 'floors', entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    mainFields: ['module', 'main'],
    banner: { js: ESM_REQUIRE_BANNER },
    logLevel: 'silent',
  });
  return outfile;
}

function importMs(file: string, environment: Record<string, string>): number {
  const script = `const started = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - started);`;
  const output = execFileSync(process.execPath, ['--input-type=module', '--no-warnings', '-e', script], {
    env: { ...process.env, ...environment, AWS_REGION: 'us-east-1' },
    encoding: 'utf8',
  });
  return Number(output.trim().split('\n').pop());
}

async function main(): Promise<void> {
  if (process.env.LOCAL_SKIP_SYNTH !== '1') synthesize();
  const topology = readLocalTopology('http://localhost:3000');
  const outdir = mkdtempSync(path.join(tmpdir(), 'floors-'));
  const floors = { dynamodb: await buildFloor('dynamodb.ts', outdir), dynamodbSsm: await buildFloor('dynamodb-ssm.ts', outdir) };

  const rows = [...topology.functions.values()].map((fn) => {
    const name = fn.environment.POWERTOOLS_SERVICE_NAME ?? fn.logicalId;
    const readsSsm = Object.keys(fn.environment).some((key) => key.includes('PARAMETER'));
    return { name, file: fn.entryFile, environment: fn.environment, floor: readsSsm ? floors.dynamodbSsm : floors.dynamodb, floorName: readsSsm ? 'DynamoDB + SSM' : 'DynamoDB' };
  });

  const times = new Map<string, number[]>();
  const record = (file: string, ms: number) => times.set(file, [...(times.get(file) ?? []), ms]);
  for (let run = 0; run < RUNS; run += 1) {
    for (const floor of Object.values(floors)) record(floor, importMs(floor, {}));
    for (const row of rows) record(row.file, importMs(row.file, row.environment));
  }

  const kb = (file: string) => statSync(file).size / 1024;
  const ms = (file: string) => median(times.get(file) ?? []);
  console.log('| function | bundle | floor | over floor | import (median) | floor import | ratio (target ≤ 1.25) |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows.sort((a, b) => a.name.localeCompare(b.name))) {
    console.log(
      `| ${row.name} | ${round(kb(row.file), 1)} KB | ${round(kb(row.floor), 1)} KB (${row.floorName}) | ${round(kb(row.file) - kb(row.floor), 1)} KB | ${round(ms(row.file), 1)} ms | ${round(ms(row.floor), 1)} ms | ${round(ms(row.file) / ms(row.floor))} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
