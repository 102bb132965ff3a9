import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { LocalFunction, workerExecArgv } from '../../../bin/local/lambda-runtime';

describe("a local function's worker flags", () => {
  it("leave out tsx's loader, which a bundle does not need, and keep every other flag", () => {
    const tsx = ['--require', '/repo/node_modules/tsx/dist/preflight.cjs', '--import', 'file:///repo/node_modules/tsx/dist/loader.mjs'];
    expect(workerExecArgv([...tsx, '--cpu-prof', '--import=file:///repo/node_modules/tsx/dist/loader.mjs', '--require', './own-hook.cjs'])).toEqual(['--cpu-prof', '--require', './own-hook.cjs']);
    // As the local stack is started since Node was pinned: `node --import tsx bin/start-local.ts`.
    expect(workerExecArgv(['--import', 'tsx', '--import=tsx/esm', '--enable-source-maps'])).toEqual(['--enable-source-maps']);
  });
});

/** A function from the given module source in a directory of its own, stopped and removed after the block's tests. */
function localFunction(logicalId: string, source: (directory: string) => string, logs?: ConstructorParameters<typeof LocalFunction>[2]): LocalFunction {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'local-function-'));
  const entryFile = path.join(directory, 'index.mjs');
  writeFileSync(entryFile, source(directory));
  const fn = new LocalFunction({ logicalId, entryFile, exportName: 'handler', environment: {}, timeoutSeconds: 5, runtime: 'nodejs24.x' }, {}, logs);
  afterAll(async () => {
    await fn.stop();
    rmSync(directory, { recursive: true, force: true });
  });
  return fn;
}

describe('a local function invoked', () => {
  const fn = localFunction('EchoFunction', () => 'export const handler = async (event) => ({ got: event, at: new Date(0), gone: undefined });\n');

  it('gets its event and gives its result as JSON, as through Lambda: dates become text, undefined fields vanish', async () => {
    await fn.ready;
    const result = await fn.invoke({ when: new Date(0), nothing: undefined, text: 'café ✓' });
    expect(result).toEqual({ got: { when: '1970-01-01T00:00:00.000Z', text: 'café ✓' }, at: '1970-01-01T00:00:00.000Z' });
    expect(Object.keys(result as object)).toEqual(['got', 'at']);
  });
});

/** A worker's message with answers in it (other workers' start-up messages may arrive meanwhile). */
const carriesAnswers = ([name, message]: unknown[]) => name === 'message' && typeof (message as { answers?: unknown } | undefined)?.answers === 'string';

describe("a local function's invocations in one turn of the event loop", () => {
  let runs = '';
  // The handler hears every message its thread gets (its listener is added before the runtime's) and notes each run.
  const fn = localFunction('TurnFunction', (directory) => {
    runs = path.join(directory, 'runs.txt');
    return [
      "import { appendFileSync } from 'node:fs';",
      "import { parentPort } from 'node:worker_threads';",
      'let messages = 0;',
      "parentPort.on('message', () => { messages += 1; });",
      'export const handler = async (event) => {',
      `  appendFileSync(${JSON.stringify(runs)}, event.n + '\\n');`,
      "  if (event.fail) throw new TypeError('failed ' + event.n);",
      '  return { n: event.n, messages };',
      '};',
    ].join('\n');
  });

  it('cross to the worker in one message and come back in one, each answer to its own caller', async () => {
    await fn.ready;
    const emit = jest.spyOn(Worker.prototype, 'emit');
    const settled = await Promise.allSettled(Array.from({ length: 10 }, (_, n) => fn.invoke({ n, fail: n === 3 })));
    const answersMessages = emit.mock.calls.filter(carriesAnswers).length;
    emit.mockRestore();
    expect(settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : String(outcome.reason)))).toEqual(
      Array.from({ length: 10 }, (_, n) => (n === 3 ? 'TypeError: failed 3' : { n, messages: 1 })),
    );
    expect(answersMessages).toBe(1);
    // The next turn's invocations are the next message.
    await expect(fn.invoke({ n: 10 })).resolves.toEqual({ n: 10, messages: 2 });
  });

  it('not yet posted when the instance crashes fail with it, and the fresh instance never runs them', async () => {
    await fn.ready;
    writeFileSync(runs, '');
    const lost = fn.invoke({ n: 'lost' });
    const crashed = fn.crash();
    await expect(lost).rejects.toThrow('TurnFunction crashed');
    await crashed;
    await expect(fn.invoke({ n: 'after' })).resolves.toEqual({ n: 'after', messages: 1 });
    expect(readFileSync(runs, 'utf8')).toBe('after\n');
  });
});

describe("a local function's log", () => {
  const lines: string[] = [];
  const fn = localFunction(
    'LoggingFunction',
    () =>
      [
        "process.stdout.write('loaded\\n');",
        'export const handler = async (event) => {',
        // A line in two writes, and one of several lines at once: readers get whole lines either way.
        "  process.stdout.write(`{\"n\":${event.n},`);",
        "  process.stdout.write(`\"café\":\"✓\"}\\nsecond ${event.n}\\n`);",
        '  return event.n;',
        '};',
      ].join('\n'),
    { onLogLine: (line) => lines.push(line), echo: false },
  );

  it('reaches its readers line by line, each invocation\'s lines before its answer, in the same message as the answers', async () => {
    await fn.ready;
    expect(lines).toEqual(['loaded']);
    const emit = jest.spyOn(Worker.prototype, 'emit');
    const seenAtAnswer = await Promise.all([1, 2, 3].map((n) => fn.invoke({ n }).then(() => lines.length)));
    const messages = emit.mock.calls.filter(carriesAnswers).length;
    emit.mockRestore();
    expect(lines).toEqual(['loaded', '{"n":1,"café":"✓"}', 'second 1', '{"n":2,"café":"✓"}', 'second 2', '{"n":3,"café":"✓"}', 'second 3']);
    expect(seenAtAnswer).toEqual([7, 7, 7]);
    expect(messages).toBe(1);
  });
});
