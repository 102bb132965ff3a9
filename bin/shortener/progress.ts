import { SingleBar } from 'cli-progress';

export interface Progress {
  advance(rows: number, failed: number): void;
  stop(): void;
}

/**
 * A bar with rate and ETA on a terminal; a plain line per batch otherwise (logs and CI keep every step).
 * Both go to stderr, so stdout stays the results when no --out is given.
 */
export function progressFor(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  let done = 0;
  let failed = 0;
  const startedAt = Date.now();
  const rate = () => (done / Math.max(0.001, (Date.now() - startedAt) / 1000)).toFixed(1);
  if (stream.isTTY) {
    const bar = new SingleBar({
      stream,
      format: 'importing [{bar}] {percentage}% | {value}/{total} rows | {failed} failed | {rate} rows/s | ETA {eta_formatted}',
      etaBuffer: 200,
      hideCursor: true,
    });
    bar.start(total, 0, { failed: 0, rate: '0.0' });
    return {
      advance(rows, failedRows) {
        done += rows;
        failed += failedRows;
        bar.update(done, { failed, rate: rate() });
      },
      stop: () => bar.stop(),
    };
  }
  return {
    advance(rows, failedRows) {
      done += rows;
      failed += failedRows;
      stream.write(`imported ${done}/${total} rows, ${failed} failed (${rate()} rows/s)\n`);
    },
    stop: () => undefined,
  };
}
