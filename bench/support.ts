import autocannon from 'autocannon';
import { localStackEnvironment, spawnLocalStack, type LocalStackProcess } from '../bin/local/child-process';

/** Shared by the benchmarks: the local stack as `npm start` runs it, autocannon runs, and medians. */

export async function startBenchStack(environment: Record<string, string> = {}): Promise<LocalStackProcess> {
  // No terminal on AWS: the benchmark's own process should not pay for echoing a log line per click. And the
  // benchmarks measure the stack itself, past the stage's throttles (which would answer 429 above 4,000 rps).
  const stack = await spawnLocalStack({ LOCAL_SKIP_SYNTH: process.env.LOCAL_SKIP_SYNTH ?? '', LOCAL_FUNCTION_LOGS: 'off', LOCAL_THROTTLES: 'off', ...environment });
  // test/support/local-stack reads the stack's addresses from the environment; the benchmarks reuse its helpers.
  Object.assign(process.env, localStackEnvironment(stack));
  return stack;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Answers by status class, to check that a run measured what it meant to (302s, not 404s). */
  byClass: { '2xx': number; '3xx': number; '4xx': number; '5xx': number };
  errors: number;
}

export async function load(options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ ...options, ...(options.amount ? {} : { duration: options.duration ?? 5 }) });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    byClass: { '2xx': result['2xx'], '3xx': result['3xx'], '4xx': result['4xx'], '5xx': result['5xx'] },
    errors: result.errors + result.timeouts,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** Median of `times` sequential runs of `task`, in ms: latency, one request at a time. */
export async function medianOfSequentialRuns(times: number, task: () => Promise<unknown>): Promise<number> {
  const durations: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const start = performance.now();
    await task();
    durations.push(performance.now() - start);
  }
  return median(durations);
}
