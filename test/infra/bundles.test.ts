import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Template } from 'aws-cdk-lib/assertions';
import { readTopology, type Template as TemplateJson } from '../../bin/local/template';
import { buildStack } from './app-factory';

/**
 * Synth passes whether or not an ESM bundle can load (the "Dynamic require" trap): import each built bundle
 * in a fresh Node process, as Lambda would.
 */
const outdir = mkdtempSync(path.join(tmpdir(), 'bundles-'));
const { stack } = buildStack({ stage: 'dev' }, { outdir, bundle: true });
const template = Template.fromStack(stack).toJSON() as TemplateJson;
const functions = [...readTopology(template, outdir, { region: 'us-east-1', shortHost: 'sho.rt' }).functions.values()];

describe('bundled functions', () => {
  it('are eight', () => {
    expect(functions).toHaveLength(8);
  });

  it.each(functions.map((fn) => [fn.environment.POWERTOOLS_SERVICE_NAME ?? fn.logicalId, fn] as const))(
    '%s imports as ESM in a fresh Node process and exports its handler',
    (_name, fn) => {
      const script = `const m = await import(${JSON.stringify(pathToFileURL(fn.entryFile).href)}); console.log(typeof m.${fn.exportName});`;
      const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        // LAMBDA_TASK_ROOT as Lambda sets it: the docs function reads the file shipped beside its bundle from there.
        env: { ...process.env, ...fn.environment, AWS_REGION: 'us-east-1', LAMBDA_TASK_ROOT: path.dirname(fn.entryFile) },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(output.trim()).toBe('function');
    },
  );
});
