import { Validations } from 'aws-cdk-lib';
import { Table, AttributeType } from 'aws-cdk-lib/aws-dynamodb';
import { AwsSolutionsChecks } from 'cdk-nag';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { buildStack } from './app-factory';

function synthWithNag(stage: string, addViolation = false): void {
  const { app, stack } = buildStack({ stage }, { outdir: mkdtempSync(path.join(tmpdir(), 'nag-')) });
  if (addViolation) new Table(stack, 'Unprotected', { partitionKey: { name: 'id', type: AttributeType.STRING } });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
}

describe('cdk-nag AwsSolutions', () => {
  it.each(['dev', 'prod'])('finds nothing unacknowledged in the %s stage', (stage) => {
    expect(() => synthWithNag(stage)).not.toThrow();
  });

  it('fails the synth when a finding is not acknowledged', () => {
    expect(() => synthWithNag('dev', true)).toThrow();
  });
});
