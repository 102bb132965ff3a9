import { hashPassword } from '../functions/shared/domain/links/password';
import { BATCH_FUNCTION, FULL_VCPU_MEMORY_MB, hashingSeconds, PASSWORD_HASH_CPU_MS } from '../lib/capacity';
import { MAX_BATCH_ITEMS } from '../functions/shared/domain/links/batch-request';
import { median, round } from './support';

/**
 * Issue 16: what a password costs, to size the functions that hash them. CPU time (user + system) of one
 * hashPassword, median of RUNS, then the batch function's arithmetic: 50 hashes on the CPU share Lambda gives its
 * memory, against its timeout. lib/capacity.ts holds the figure the template is sized with; this says whether it
 * still holds on the machine at hand.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 21);

async function cpuMsOfOneHash(): Promise<number> {
  const before = process.cpuUsage();
  await hashPassword('correct horse battery staple');
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

async function main(): Promise<void> {
  await cpuMsOfOneHash(); // warm-up
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run += 1) samples.push(await cpuMsOfOneHash());
  const perHash = median(samples);
  const batchSeconds = hashingSeconds(MAX_BATCH_ITEMS, perHash, BATCH_FUNCTION.memorySize);
  console.log(`scrypt hash: ${round(perHash)} ms CPU (median of ${RUNS}); capacity.ts sizes with ${PASSWORD_HASH_CPU_MS} ms`);
  console.log(`${MAX_BATCH_ITEMS} passwords at ${BATCH_FUNCTION.memorySize} MB (${round(BATCH_FUNCTION.memorySize / FULL_VCPU_MEMORY_MB)} vCPU): ${round(batchSeconds)} s of a ${BATCH_FUNCTION.timeoutSeconds} s timeout (margin ${round(BATCH_FUNCTION.timeoutSeconds / batchSeconds)}x)`);
  console.log(`the same at 512 MB (${round(512 / FULL_VCPU_MEMORY_MB)} vCPU): ${round(hashingSeconds(MAX_BATCH_ITEMS, perHash, 512))} s`);
}

void main();
