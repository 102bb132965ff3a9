import { workerExecArgv } from '../../../bin/local/lambda-runtime';

describe("a local function's worker flags", () => {
  it("leave out tsx's loader, which a bundle does not need, and keep every other flag", () => {
    const tsx = ['--require', '/repo/node_modules/tsx/dist/preflight.cjs', '--import', 'file:///repo/node_modules/tsx/dist/loader.mjs'];
    expect(workerExecArgv([...tsx, '--cpu-prof', '--import=file:///repo/node_modules/tsx/dist/loader.mjs', '--require', './own-hook.cjs'])).toEqual(['--cpu-prof', '--require', './own-hook.cjs']);
    // As the local stack is started since Node was pinned: `node --import tsx bin/start-local.ts`.
    expect(workerExecArgv(['--import', 'tsx', '--import=tsx/esm', '--enable-source-maps'])).toEqual(['--enable-source-maps']);
  });
});
