import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { localAwsEnvironment } from '../../bin/local/stack';
import { transportLimits } from '../../functions/shared/adapters/outages';
import { StackOutputs } from '../../lib/stack-outputs';
import { stackOutput } from '../support/local-stack';

/**
 * DynamoDB Local listens with a backlog of 50 connections: a burst that opens more at once waits for the kernel's
 * SYN retry, a second later, which was AWS's whole connection timeout. The functions' clients get the local stack's
 * limits (outages.ts), so four of them opening their 50 sockets each at once get every answer on the first attempt.
 * With AWS's limits (`transportLimits({})`) the same burst lost 87 of 200 calls to connection timeouts in one run.
 */
it('answers every first attempt of a burst that opens 200 connections to DynamoDB Local at once', async () => {
  const environment = localAwsEnvironment(Number(process.env.LOCAL_DYNAMODB_PORT), Number(process.env.LOCAL_SSM_PORT));
  const limits = transportLimits(environment);
  const clients = Array.from(
    { length: 4 },
    () =>
      new DynamoDBClient({
        ...limits,
        // One attempt: a call that needed the SDK's retry shows here instead of being hidden by it.
        maxAttempts: 1,
        region: environment.AWS_REGION,
        endpoint: environment.AWS_ENDPOINT_URL_DYNAMODB,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
  );
  try {
    const table = stackOutput(StackOutputs.linksTable);
    const calls = clients.flatMap((client) => Array.from({ length: 50 }, (_, index) => client.send(new GetItemCommand({ TableName: table, Key: { code: { S: `burst-${index}` } } }))));
    const refused = (await Promise.allSettled(calls)).filter((answer) => answer.status === 'rejected');
    expect(refused.map((answer) => String(answer.reason))).toEqual([]);
  } finally {
    for (const client of clients) client.destroy();
  }
});
