import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalFunction, workerExecArgv } from '../../../bin/local/lambda-runtime';

describe("a local function's worker flags", () => {
  it("leave out tsx's loader, which a bundle does not need, and keep every other flag", () => {
    const tsx = ['--require', '/repo/node_modules/tsx/dist/preflight.cjs', '--import', 'file:///repo/node_modules/tsx/dist/loader.mjs'];
    expect(workerExecArgv([...tsx, '--cpu-prof', '--import=file:///repo/node_modules/tsx/dist/loader.mjs', '--require', './own-hook.cjs'])).toEqual(['--cpu-prof', '--require', './own-hook.cjs']);
    // As the local stack is started since Node was pinned: `node --import tsx bin/start-local.ts`.
    expect(workerExecArgv(['--import', 'tsx', '--import=tsx/esm', '--enable-source-maps'])).toEqual(['--enable-source-maps']);
  });
});

describe('a local function invoked', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'local-function-'));
  const entryFile = path.join(directory, 'index.mjs');
  writeFileSync(entryFile, 'export const handler = async (event) => ({ got: event, at: new Date(0), gone: undefined });\n');
  const fn = new LocalFunction({ logicalId: 'EchoFunction', entryFile, exportName: 'handler', environment: {}, timeoutSeconds: 5, runtime: 'nodejs24.x' }, {});
  afterAll(async () => {
    await fn.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('gets its event and gives its result as JSON, as through Lambda: dates become text, undefined fields vanish', async () => {
    await fn.ready;
    const result = await fn.invoke({ when: new Date(0), nothing: undefined, text: 'café ✓' });
    expect(result).toEqual({ got: { when: '1970-01-01T00:00:00.000Z', text: 'café ✓' }, at: '1970-01-01T00:00:00.000Z' });
    expect(Object.keys(result as object)).toEqual(['got', 'at']);
  });
});
