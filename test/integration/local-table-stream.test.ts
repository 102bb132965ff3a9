import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { LocalTableStream, type StreamConsumer } from '../../bin/local/stream-source';
import type { SqsStandIn } from '../../bin/local/sqs-standin';
import type { StreamSourceSpec } from '../../bin/local/template';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, eventually, freshTables } from '../support/local-stack';

/**
 * The local stream player (issue 28): one reader per table whatever number of functions consume its stream, each
 * mapping delivering at its own pace, and a nudge reading a change at once instead of at the next poll.
 */
const endpoint = `http://127.0.0.1:${process.env.LOCAL_DYNAMODB_PORT}`;
const client = new DynamoDBClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
/** Far beyond any test's time: a record that arrives came by a nudge. */
const HOUR_MS = 3_600_000;

let linksTable: string;
const streams: LocalTableStream[] = [];
beforeAll(async () => {
  linksTable = (await freshTables())[StackOutputs.linksTable] as string;
});
afterAll(async () => {
  await Promise.all(streams.map((stream) => stream.stop()));
  client.destroy();
});

const spec = (functionId: string, fields: Partial<StreamSourceSpec> = {}): StreamSourceSpec => ({ functionId, tableName: linksTable, batchSize: 100, filterPatterns: [], retryAttempts: 0, ...fields });
const codesIn = (events: unknown[]) => events.flatMap((event) => (event as { Records: Array<{ dynamodb: { Keys: { code: { S: string } } } }> }).Records.map((record) => record.dynamodb.Keys.code.S));

async function started(consumers: StreamConsumer[], failures: string[] = [], through = endpoint): Promise<LocalTableStream> {
  const queues = { send: (queueId: string, body: string) => failures.push(`${queueId} ${body}`) } as unknown as SqsStandIn;
  const stream = new LocalTableStream(linksTable, consumers, through, 'us-east-1', queues, () => undefined, HOUR_MS);
  await stream.start(client);
  streams.push(stream);
  return stream;
}

/** A pass-through to DynamoDB Local that counts the GetRecords calls it forwards. */
async function countingProxy(): Promise<{ url: string; reads: () => number; close: () => Promise<void> }> {
  let reads = 0;
  const target = new URL(endpoint);
  const server: Server = createServer((incoming, outgoing) => {
    if (String(incoming.headers['x-amz-target']).endsWith('.GetRecords')) reads += 1;
    const forwarded = request({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reads: () => reads,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the local stream player', () => {
  it('reads a change as soon as it is nudged, and hands it to every consumer of the table', async () => {
    const first: unknown[] = [];
    const second: unknown[] = [];
    const stream = await started([
      { spec: spec('First'), consumer: { invoke: async (event) => first.push(event) } },
      { spec: spec('Second'), consumer: { invoke: async (event) => second.push(event) } },
    ]);
    await dynamo().send(new PutCommand({ TableName: linksTable, Item: { code: 'nudged-ü' } }));
    stream.nudge();
    await eventually(async () => expect(codesIn(first)).toContain('nudged-ü'));
    await eventually(async () => expect(codesIn(second)).toContain('nudged-ü'));
  });

  it("keeps each mapping's filters and failures to itself: a failing consumer holds up no other", async () => {
    const healthy: unknown[] = [];
    const failures: string[] = [];
    const stream = await started(
      [
        { spec: spec('Failing', { onFailureQueueId: 'Dlq' }), consumer: { invoke: () => Promise.reject(new Error('down')) } },
        { spec: spec('Filtered', { filterPatterns: [{ dynamodb: { Keys: { code: { S: [{ prefix: 'keep-' }] } } } }] }), consumer: { invoke: async (event) => healthy.push(event) } },
      ],
      failures,
    );
    await dynamo().send(new PutCommand({ TableName: linksTable, Item: { code: 'skip-1' } }));
    await dynamo().send(new PutCommand({ TableName: linksTable, Item: { code: 'keep-1' } }));
    stream.nudge();
    await eventually(async () => expect(codesIn(healthy)).toEqual(['keep-1']));
    await eventually(async () => expect(failures.some((failure) => failure.startsWith('Dlq ') && failure.includes('RetryAttemptsExhausted'))).toBe(true));
  });

  it('shares reads among nudges that come close together: a run of writes does not cost a read each', async () => {
    const proxy = await countingProxy();
    try {
      const seen: unknown[] = [];
      const stream = await started([{ spec: spec('Counted'), consumer: { invoke: async (event) => seen.push(event) } }], [], proxy.url);
      const readsBefore = proxy.reads();
      const startedAtMs = Date.now();
      // Twenty changes nudged a few milliseconds apart, as a run of creations nudges.
      for (let index = 0; index < 20; index += 1) {
        await dynamo().send(new PutCommand({ TableName: linksTable, Item: { code: `burst-${index}` } }));
        stream.nudge();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await eventually(async () => expect(codesIn(seen)).toContain('burst-19'));
      const reads = proxy.reads() - readsBefore;
      const elapsedMs = Date.now() - startedAtMs;
      expect(codesIn(seen).filter((code) => code.startsWith('burst-'))).toHaveLength(20);
      // A read per nudge would be twenty. Sharing leaves one per 100 ms of the run, plus the nudge's tail (reads 200
      // and 400 ms apart) and the read a nudge makes at once: bounded by the run's own length, since a busy CI machine
      // stretches the run (a quiet one takes about 200 ms: at most 6 reads).
      expect(reads).toBeLessThanOrEqual(Math.ceil(elapsedMs / 100) + 3);
      await stream.stop();
    } finally {
      await proxy.close();
    }
  });
});
