import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createShortenerClient } from '../../../clients/typescript/src';
import { importFrom } from '../../../bin/shortener/import-job-commands';
import { ApiRefusal } from '../../../bin/shortener/commands';
import { UsageError } from '../../../bin/shortener/csv-links';

/** `shortener import --from`: one POST, then the job followed until it ends; its results written spreadsheet-safe. */
const work = mkdtempSync(path.join(tmpdir(), 'import-from-'));
const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const job = (status: string, settled: { created: number; failed: number }, results: unknown[] = []) => ({ id: 'imp_1', source: 'bitly', status, createdAt: '2026-11-26T00:00:00.000Z', read: 4, renamed: 0, skipped: 0, existing: 0, ...settled, results });

function recordingClient(...answers: Response[]) {
  const seen: Array<{ method: string; url: string; body: string }> = [];
  const client = createShortenerClient({
    baseUrl: 'https://api.test',
    apiKey: 'shk_test',
    retry: { maxRetries: 0 },
    fetch: async (request) => {
      seen.push({ method: request.method, url: request.url, body: await request.text() });
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next;
    },
  });
  return { client, seen };
}

describe('import --from', () => {
  it('sends the file whole, follows the job until done, and writes every reported row with its reason', async () => {
    const file = path.join(work, 'links.csv');
    writeFileSync(file, 'id,long_url\nbit.ly/a,https://example.com/ü\n');
    const { client, seen } = recordingClient(
      answer(202, { id: 'imp_1' }),
      answer(200, job('running', { created: 0, failed: 0 })),
      answer(200, job('running', { created: 2, failed: 1 })),
      answer(200, job('done', { created: 3, failed: 1 }, [{ row: 4, outcome: 'failed', reason: '=HYPERLINK("x"), not a URL' }])),
    );
    const out: string[] = [];
    const err: string[] = [];
    // The progress lines go to stderr itself (as the CSV import's): not a terminal here, so a plain line per step.
    const progress: string[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((text) => progress.push(String(text)) > 0);
    try {
      await importFrom(client, file, { from: 'bitly', onConflict: 'rename', pollMs: 1 }, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
    } finally {
      stderr.mockRestore();
    }
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ source: 'bitly', content: 'id,long_url\nbit.ly/a,https://example.com/ü\n', onConflict: 'rename' });
    expect(seen.slice(1).map((request) => `${request.method} ${request.url}`)).toEqual(Array(3).fill('GET https://api.test/v2/imports/imp_1'));
    expect(out).toEqual(['imp_1\tdone\tread 4\tcreated 3\trenamed 0\tskipped 0\texisting 0\tfailed 1\n']);
    expect(progress).toEqual([expect.stringMatching(/^imported 3\/4 rows, 1 failed/), expect.stringMatching(/^imported 4\/4 rows, 1 failed/)]);
    const results = path.join(work, 'links.imp_1.results.csv');
    expect(err.at(-1)).toBe(`results (every failed, renamed or skipped row and why) in ${results}\n`);
    expect(readFileSync(results, 'utf8')).toBe('row,outcome,code,domain,reason\r\n4,failed,,,"\'=HYPERLINK(""x""), not a URL"\r\n');
  });

  it('stops before any call on an unknown source, conflict rule or wait, and exits 1 on a failed job', async () => {
    const file = path.join(work, 'failing.csv');
    writeFileSync(file, 'x\n');
    const none = recordingClient();
    await expect(importFrom(none.client, file, { from: 'tinyurl' }, { out: () => undefined, err: () => undefined })).rejects.toThrow('--from must be one of bitly, rebrandly');
    await expect(importFrom(none.client, file, { from: 'dub', onConflict: 'overwrite' }, { out: () => undefined, err: () => undefined })).rejects.toThrow('--on-conflict must be skip or rename');
    for (const wait of ['0', '-5', 'soon']) await expect(importFrom(none.client, file, { from: 'dub', wait }, { out: () => undefined, err: () => undefined })).rejects.toThrow(new UsageError('--wait must be a number of minutes above 0'));
    expect(none.seen).toHaveLength(0);
    const failing = recordingClient(answer(202, { id: 'imp_1' }), answer(200, job('failed', { created: 0, failed: 0 })));
    await expect(importFrom(failing.client, file, { from: 'dub', out: path.join(work, 'r.csv') }, { out: () => undefined, err: () => undefined })).rejects.toThrow(`import imp_1 failed: see ${path.join(work, 'r.csv')}`);
  });

  it('stops following a job still running when the wait is over, names it and how to look later, and exits 1', async () => {
    const file = path.join(work, 'slow.csv');
    writeFileSync(file, 'x\n');
    const { client, seen } = recordingClient(answer(202, { id: 'imp_1' }), ...Array.from({ length: 5 }, () => answer(200, job('running', { created: 1, failed: 0 }))));
    // Ten minutes pass between two looks at the clock.
    let minutes = 0;
    const nowMs = () => (minutes += 10) * 60_000;
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await expect(importFrom(client, file, { from: 'dub', wait: '25', pollMs: 1, nowMs, out: path.join(work, 'slow.results.csv') }, { out: () => undefined, err: () => undefined })).rejects.toThrow(
        new ApiRefusal('import imp_1 is still running after 25 minutes and goes on without this command: see how far it is with GET /v2/imports/imp_1'),
      );
    } finally {
      stderr.mockRestore();
    }
    expect(seen.slice(1).map((request) => `${request.method} ${request.url}`)).toEqual(Array(3).fill('GET https://api.test/v2/imports/imp_1'));
    expect(existsSync(path.join(work, 'slow.results.csv'))).toBe(false);
  });
});
