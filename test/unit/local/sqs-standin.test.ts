import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { SqsStandIn } from '../../../bin/local/sqs-standin';
import { matchesPattern, passesFilters } from '../../../bin/local/event-pattern';

/** The local stand-in for SQS and Lambda's SQS event source: the real SDK client talks to it. */
const queues = new SqsStandIn(
  [
    { id: 'Work', visibilityTimeoutSeconds: 1, deadLetter: { queueId: 'Dead', maxReceiveCount: 2 } },
    { id: 'Dead', visibilityTimeoutSeconds: 30 },
  ],
  'us-east-1',
);
let client: SQSClient;
const QueueUrl = 'https://sqs.us-east-1.amazonaws.com/000000000000/Work';

beforeAll(async () => {
  const port = await queues.listen(0);
  client = new SQSClient({ region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, credentials: { accessKeyId: 'l', secretAccessKey: 'l' }, useQueueUrlAsEndpoint: false });
});
afterAll(() => queues.close());

const until = async (check: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('the SQS stand-in', () => {
  it('takes the SDK\'s SendMessage and SendMessageBatch (checksums included), with delays', async () => {
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'one ✓' }));
    // Taken before the delayed message is sent: the delay runs from its arrival, never earlier than this.
    const sentAt = Date.now();
    await client.send(new SendMessageBatchCommand({ QueueUrl, Entries: [{ Id: 'a', MessageBody: 'two' }, { Id: 'b', MessageBody: 'three', DelaySeconds: 1 }] }));
    expect(queues.bodies('Work')).toEqual(['one ✓', 'two', 'three']);
    await expect(client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'x', DelaySeconds: 901 }))).rejects.toThrow('DelaySeconds');
    await expect(client.send(new SendMessageCommand({ QueueUrl: 'https://sqs.us-east-1.amazonaws.com/000000000000/Nope', MessageBody: 'x' }))).rejects.toThrow('does not exist');

    const received: Array<{ body: string; at: number }> = [];
    queues.consume({ functionId: 'fn', queueId: 'Work', batchSize: 10, reportBatchItemFailures: true }, { invoke: async (event) => {
      for (const record of (event as { Records: Array<{ body: string }> }).Records) received.push({ body: record.body, at: Date.now() });
      return { batchItemFailures: [] };
    } }, () => undefined);
    await until(() => received.length === 3);
    expect(received.map((message) => message.body)).toEqual(['one ✓', 'two', 'three']);
    expect((received[2]?.at ?? 0) - sentAt).toBeGreaterThanOrEqual(900);
    await until(() => queues.depth('Work') === 0);
    queues.stopConsuming();
  });

  it('offers a reported failure again after the visibility timeout, then moves it to the dead-letter queue', async () => {
    const stand = new SqsStandIn([{ id: 'Work', visibilityTimeoutSeconds: 1, deadLetter: { queueId: 'Dead', maxReceiveCount: 2 } }, { id: 'Dead', visibilityTimeoutSeconds: 30 }], 'us-east-1');
    stand.send('Work', 'fails');
    stand.send('Work', 'works');
    const attempts: string[] = [];
    stand.consume({ functionId: 'fn', queueId: 'Work', batchSize: 10, reportBatchItemFailures: true }, { invoke: async (event) => {
      const records = (event as { Records: Array<{ body: string; messageId: string; attributes: { ApproximateReceiveCount: string } }> }).Records;
      attempts.push(...records.map((record) => `${record.body}#${record.attributes.ApproximateReceiveCount}`));
      return { batchItemFailures: records.filter((record) => record.body === 'fails').map((record) => ({ itemIdentifier: record.messageId })) };
    } }, () => undefined);
    await until(() => stand.depth('Dead') === 1, 6_000);
    expect(attempts).toEqual(['fails#1', 'works#1', 'fails#2']);
    expect([stand.bodies('Work'), stand.bodies('Dead')]).toEqual([[], ['fails']]);
    await stand.close();
  });

  it('never has more batches in flight than the mapping\'s maximum concurrency', async () => {
    const stand = new SqsStandIn([{ id: 'Work', visibilityTimeoutSeconds: 1 }], 'us-east-1');
    for (let index = 0; index < 8; index++) stand.send('Work', `m${index}`);
    let running = 0;
    let most = 0;
    stand.consume({ functionId: 'fn', queueId: 'Work', batchSize: 1, reportBatchItemFailures: true, maxConcurrency: 2 }, { invoke: async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 50));
      running -= 1;
      return {};
    } }, () => undefined);
    await until(() => stand.depth('Work') === 0);
    expect(most).toBe(2);
    await stand.close();
  });

  it('treats a crashed invocation as every message of the batch failed', async () => {
    const stand = new SqsStandIn([{ id: 'Work', visibilityTimeoutSeconds: 1 }], 'us-east-1');
    stand.send('Work', 'survives a crash');
    let calls = 0;
    stand.consume({ functionId: 'fn', queueId: 'Work', batchSize: 10, reportBatchItemFailures: true }, { invoke: async () => {
      calls += 1;
      if (calls === 1) throw new Error('worker terminated');
      return {};
    } }, () => undefined);
    await until(() => stand.depth('Work') === 0, 6_000);
    expect(calls).toBe(2);
    await stand.close();
  });

  it('keeps no timer while nothing waits: a send wakes the poller, a delay sets one timer for its end', async () => {
    jest.useFakeTimers();
    const stand = new SqsStandIn([{ id: 'Work', visibilityTimeoutSeconds: 1 }], 'us-east-1');
    // Lets the poller's wake-ups and a batch's settling run (a millisecond a turn: fake immediates need the clock to move).
    const settle = async () => {
      for (let turn = 0; turn < 3; turn++) await jest.advanceTimersByTimeAsync(1);
    };
    try {
      const received: string[] = [];
      stand.consume({ functionId: 'fn', queueId: 'Work', batchSize: 10, reportBatchItemFailures: true }, { invoke: async (event) => {
        received.push(...(event as { Records: Array<{ body: string }> }).Records.map((record) => record.body));
        return {};
      } }, () => undefined);
      await settle();
      expect(jest.getTimerCount()).toBe(0);

      stand.send('Work', 'now');
      stand.send('Work', 'in two seconds', 2);
      await settle();
      expect(received).toEqual(['now']);
      expect(jest.getTimerCount()).toBe(1);
      await jest.advanceTimersByTimeAsync(1_990);
      expect(received).toEqual(['now']);
      await jest.advanceTimersByTimeAsync(10);
      await settle();
      expect(received).toEqual(['now', 'in two seconds']);
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      stand.stopConsuming();
      jest.useRealTimers();
    }
  });
});

describe('Lambda event filter patterns', () => {
  const pattern = { dynamodb: { Keys: { pk: { S: [{ prefix: 'quota#' }] } } } };
  const record = (pk: string) => ({ eventName: 'MODIFY', dynamodb: { Keys: { pk: { S: pk } } } });

  it('match prefixes and exact values inside nested records', () => {
    expect(matchesPattern(pattern, record('quota#acct#a#2026-11'))).toBe(true);
    expect(matchesPattern(pattern, record('rate#key#1'))).toBe(false);
    expect(matchesPattern({ eventName: ['INSERT', 'MODIFY'] }, record('x'))).toBe(true);
    expect(matchesPattern({ eventName: ['REMOVE'] }, record('x'))).toBe(false);
    expect(matchesPattern(pattern, { dynamodb: {} })).toBe(false);
  });

  it('tell a leaf that exists from one that does not, also under a missing object', () => {
    const stamped = { dynamodb: { NewImage: { auditStamp: { M: { id: { S: [{ exists: true }] } } } } } };
    const unstamped = { dynamodb: { NewImage: { auditStamp: { M: { id: { S: [{ exists: false }] } } } } } };
    const image = (newImage?: object) => ({ eventName: 'MODIFY', dynamodb: newImage ? { NewImage: newImage } : {} });
    expect(matchesPattern(stamped, image({ auditStamp: { M: { id: { S: 'a' } } } }))).toBe(true);
    expect(matchesPattern(stamped, image({ clicks: { N: '3' } }))).toBe(false);
    expect(matchesPattern(stamped, image())).toBe(false);
    expect(matchesPattern(unstamped, image({ clicks: { N: '3' } }))).toBe(true);
    expect(matchesPattern(unstamped, image())).toBe(true);
    expect(matchesPattern(unstamped, image({ auditStamp: { M: { id: { S: 'a' } } } }))).toBe(false);
  });

  it('let every record through when a source has none, any pattern\'s when it has several', () => {
    expect(passesFilters([], record('anything'))).toBe(true);
    expect(passesFilters([{ eventName: ['REMOVE'] }, pattern], record('quota#x'))).toBe(true);
  });
});
