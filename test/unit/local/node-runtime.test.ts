import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PINNED_NODE } from '../../../bin/local/child-process';
import { LocalFunction } from '../../../bin/local/lambda-runtime';
import { assertSameNode, nodeMajorOfRuntime } from '../../../bin/local/same-node';
import type { FunctionSpec } from '../../../bin/local/template';
import { ESBUILD_TARGET, LAMBDA_RUNTIME, NODE_MAJOR } from '../../../lib/node-runtime';

const ROOT = path.join(__dirname, '..', '..', '..');
const majorOf = (version: string) => Number(/^v?(\d+)\./.exec(version)?.[1]);
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

function spec(runtime: string, entryFile = '/nowhere/index.mjs'): FunctionSpec {
  return { logicalId: 'Probe', entryFile, exportName: 'handler', environment: {}, timeoutSeconds: 10, runtime };
}

describe('one Node.js from laptop to Lambda', () => {
  it('the Lambdas run the pinned major and esbuild targets it', () => {
    expect(LAMBDA_RUNTIME.name).toBe(`nodejs${NODE_MAJOR}.x`);
    expect(ESBUILD_TARGET).toBe(`node${NODE_MAJOR}`);
  });

  it('the node devDependency, engines and .nvmrc all name that major', () => {
    const installed = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'node', 'package.json'), 'utf8')) as { version: string };
    expect(majorOf(installed.version)).toBe(NODE_MAJOR);
    expect(majorOf(packageJson.devDependencies.node ?? '')).toBe(NODE_MAJOR);
    expect(packageJson.engines.node).toMatch(new RegExp(`^>=${NODE_MAJOR}\\.\\d+ <${NODE_MAJOR + 1}$`));
    expect(majorOf(readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim())).toBe(NODE_MAJOR);
  });

  it('the tests run on it, and so does the Node the local stack is started with', () => {
    expect(majorOf(process.version)).toBe(NODE_MAJOR);
    expect(majorOf(execFileSync(PINNED_NODE, ['--version'], { encoding: 'utf8' }))).toBe(NODE_MAJOR);
  });

  it("a local worker runs a function on the Lambda runtime's major", async () => {
    const entryFile = path.join(mkdtempSync(path.join(tmpdir(), 'node-probe-')), 'index.mjs');
    writeFileSync(entryFile, 'export const handler = async () => process.version;\n');
    const fn = new LocalFunction(spec(LAMBDA_RUNTIME.name, entryFile), {});
    try {
      await fn.ready;
      const version = (await fn.invoke({})) as string;
      expect(majorOf(version)).toBe(nodeMajorOfRuntime(LAMBDA_RUNTIME.name));
    } finally {
      await fn.stop();
    }
  });

  it('the local stack refuses to play functions on another major, naming the function and the way out', () => {
    expect(() => assertSameNode([spec('nodejs24.x')], 'v24.21.0')).not.toThrow();
    expect(() => assertSameNode([spec('nodejs24.x')], 'v20.20.2')).toThrow(/Probe runs on nodejs24\.x .* Node\.js v20\.20\.2: start it through npm/);
    expect(() => assertSameNode([spec('nodejs22.x')], 'v24.21.0')).toThrow(/nodejs22\.x/);
    expect(nodeMajorOfRuntime('python3.13')).toBeUndefined();
  });
});
