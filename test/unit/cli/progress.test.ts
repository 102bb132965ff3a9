import { PassThrough } from 'node:stream';
import { progressFor } from '../../../bin/shortener/progress';

function stream(isTTY: boolean) {
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  Object.assign(output, { isTTY, columns: 160 });
  return { stream: output as unknown as NodeJS.WriteStream, written: () => written };
}

describe('progressFor', () => {
  it('draws a bar with rows, failures, rate and ETA on a terminal', async () => {
    const terminal = stream(true);
    const progress = progressFor(100, terminal.stream);
    progress.advance(50, 2);
    progress.advance(50, 1);
    progress.stop();
    await new Promise((resolve) => setImmediate(resolve));
    expect(terminal.written()).toMatch(/importing \[[^\]]+\] 100% \| 100\/100 rows \| 3 failed \| [\d.]+ rows\/s \| ETA \d+s/);
  });

  it('writes one plain line per batch when not on a terminal', async () => {
    const log = stream(false);
    const progress = progressFor(100, log.stream);
    progress.advance(50, 2);
    progress.advance(50, 1);
    progress.stop();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.written().split('\n').filter(Boolean).map((line) => line.replace(/\([\d.]+ rows\/s\)/, '(rate)'))).toEqual([
      'imported 50/100 rows, 2 failed (rate)',
      'imported 100/100 rows, 3 failed (rate)',
    ]);
  });
});
