import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SSMClient } from '@aws-sdk/client-ssm';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { StackOutputs } from '../../lib/stack-outputs';
import { localAwsEnvironment, PROJECT_ROOT, readLocalTopology } from '../local/stack';

/** Where the ops CLI acts: the clients and the names of the stack's tables and parameters. */
export interface OpsTarget {
  dynamo: DynamoDBDocumentClient;
  ssm: SSMClient;
  outputs: Record<string, string>;
}

export class OpsError extends Error {}

function documentClient(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/** The local stack, found through the same environment variables as `npm start`. */
export function localTarget(): OpsTarget {
  if (!existsSync(path.join(PROJECT_ROOT, 'cdk.out', 'manifest.json'))) {
    throw new OpsError('no synthesized app in cdk.out: start the local stack with `npm start` first');
  }
  const environment = localAwsEnvironment(Number(process.env.LOCAL_DYNAMODB_PORT ?? 8000), Number(process.env.LOCAL_SSM_PORT ?? 8100));
  const credentials = { accessKeyId: environment.AWS_ACCESS_KEY_ID ?? 'local', secretAccessKey: environment.AWS_SECRET_ACCESS_KEY ?? 'local' };
  const topology = readLocalTopology(`http://localhost:${process.env.PORT ?? 3000}`);
  return {
    dynamo: documentClient(new DynamoDBClient({ region: environment.AWS_REGION, endpoint: environment.AWS_ENDPOINT_URL_DYNAMODB, credentials, maxAttempts: 1 })),
    ssm: new SSMClient({ region: environment.AWS_REGION, endpoint: environment.AWS_ENDPOINT_URL_SSM, credentials, maxAttempts: 1 }),
    outputs: topology.outputs,
  };
}

/** A deployed stage, through the standard AWS credential chain and the stack's outputs. */
export async function deployedTarget(stage: string, appName = 'shortener'): Promise<OpsTarget> {
  const stackName = `${appName}-${stage}`;
  const { Stacks = [] } = await new CloudFormationClient({}).send(new DescribeStacksCommand({ StackName: stackName }));
  const outputs = Object.fromEntries((Stacks[0]?.Outputs ?? []).map((output) => [output.OutputKey ?? '', output.OutputValue ?? '']));
  if (!outputs[StackOutputs.apiKeysTable]) throw new OpsError(`stack ${stackName} has no outputs: is it deployed?`);
  return { dynamo: documentClient(new DynamoDBClient({})), ssm: new SSMClient({}), outputs };
}

export function output(target: OpsTarget, name: StackOutputs): string {
  const value = target.outputs[name];
  if (!value) throw new OpsError(`the stack has no output ${name}`);
  return value;
}
