import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { readLocalTopology, synthesize } from '../bin/local/stack';
import { ESM_REQUIRE_BANNER } from '../lib/service-function';
import { ESBUILD_TARGET } from '../lib/node-runtime';
import { EnvNames } from '../functions/shared/config';
import { median, round } from './support';

/**
 * Issue 6's cold-start budget (issue 28: ≤ 1.2): each deployed bundle (from `cdk synth`) against a floor bundle built with the same
 * esbuild options that only creates the SDK clients the function needs. Import time is measured inside a fresh
 * Node process (so Node's own start-up is not counted), median of RUNS, floors and functions interleaved.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 31);

async function buildFloor(entry: string, outdir: string): Promise<string> {
  const outfile = path.join(outdir, `${path.basename(entry, '.ts')}.mjs`);
  await build({
    entryPoints: [path.join(__dirname, 'floors', entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: ESBUILD_TARGET,
    minify: true,
    mainFields: ['module', 'main'],
    banner: { js: ESM_REQUIRE_BANNER },
    logLevel: 'silent',
  });
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

async function main(): Promise<void> {
  if (process.env.LOCAL_SKIP_SYNTH !== '1') synthesize();
  const topology = readLocalTopology('http://localhost:3000');
  const outdir = mkdtempSync(path.join(tmpdir(), 'floors-'));
  const floors = {
    none: await buildFloor('none.ts', outdir),
    dynamodb: await buildFloor('dynamodb.ts', outdir),
    dynamodbSsm: await buildFloor('dynamodb-ssm.ts', outdir),
    dynamodbCloudFront: await buildFloor('dynamodb-cloudfront.ts', outdir),
    dynamodbSsmCloudFront: await buildFloor('dynamodb-ssm-cloudfront.ts', outdir),
    dynamodbSsmSqs: await buildFloor('dynamodb-ssm-sqs.ts', outdir),
    dynamodbSsmSqsKms: await buildFloor('dynamodb-ssm-sqs-kms.ts', outdir),
  };

  const rows = [...topology.functions.values()].map((fn) => {
    const name = fn.environment.POWERTOOLS_SERVICE_NAME ?? fn.logicalId;
    const readsSsm = Object.keys(fn.environment).some((key) => key.includes('PARAMETER'));
    const readsTables = Object.keys(fn.environment).some((key) => key.endsWith('_TABLE'));
    // The two functions that manage CloudFront tenants carry its client (issue 17).
    const managesTenants = EnvNames.tenantDistributionId in fn.environment;
    // The webhook functions and the aggregator send delivery tasks to SQS (issue 19).
    const sendsTasks = EnvNames.deliveryQueueUrl in fn.environment;
    // Those that keep webhook secrets sealed also create the KMS client (issue 27).
    const sealsSecrets = EnvNames.webhookSecretsKey in fn.environment;
    const [floor, floorName] = sendsTasks
      ? sealsSecrets
        ? [floors.dynamodbSsmSqsKms, 'DynamoDB + SSM + SQS + KMS']
        : [floors.dynamodbSsmSqs, 'DynamoDB + SSM + SQS']
      : managesTenants
      ? readsSsm
        ? [floors.dynamodbSsmCloudFront, 'DynamoDB + SSM + CloudFront']
        : [floors.dynamodbCloudFront, 'DynamoDB + CloudFront']
      : readsSsm
        ? [floors.dynamodbSsm, 'DynamoDB + SSM']
        : readsTables
          ? [floors.dynamodb, 'DynamoDB']
          : [floors.none, 'no SDK client'];
    // LAMBDA_TASK_ROOT as Lambda sets it: the docs function reads the file shipped beside its bundle.
    return { name, file: fn.entryFile, environment: { ...fn.environment, LAMBDA_TASK_ROOT: path.dirname(fn.entryFile) }, floor, floorName };
  });

  const times = new Map<string, Array<{ wall: number; cpu: number }>>();
  const record = (file: string, sample: { wall: number; cpu: number }) => times.set(file, [...(times.get(file) ?? []), sample]);
  // Each run imports every bundle once, in a shuffled order, so drift on a noisy machine hits all of them alike.
  const subjects = [...Object.values(floors).map((file) => ({ file, environment: {} })), ...rows];
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

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
