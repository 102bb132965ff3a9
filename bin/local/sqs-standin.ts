import { createHash, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { AwsJsonError, listenAwsJson } from './aws-json-server';
import type { QueueSourceSpec, QueueSpec } from './template';

/**
 * A stand-in for the slice of SQS this service uses: SendMessage(Batch) in the SDK's AWS JSON 1.0 protocol, with
 * DelaySeconds, and Lambda's SQS event source on top: batches to the consuming function, a failed invocation or a
 * reported item failure makes a message visible again, and past the queue's maxReceiveCount it moves to the
 * dead-letter queue, as the template's redrive policy says. Messages live in memory (the queue of a local run).
 */
interface Message {
  id: string;
  body: string;
  sentAt: number;
  visibleAt: number;
  receiveCount: number;
  inFlight: boolean;
}


const md5 = (text: string) => createHash('md5').update(text).digest('hex');
/** Lambda's SQS event source starts with five concurrent batches (it scales up from there on AWS). */
const LAMBDA_SQS_POLLERS = 5;
/** SQS caps a message's delay at 15 minutes. */
const MAX_DELAY_SECONDS = 900;

export interface QueueConsumer {
  invoke(event: unknown): Promise<unknown>;
}

/**
 * One event source mapping's poller, woken by what can make a message deliverable (one sent, a batch settled) and
 * by a timer for the earliest delayed or retried message, never on a fixed beat: an idle local stack then spends
 * nothing on its queues (a 20-ms beat per mapping was most of the stack's idle CPU).
 */
class QueuePoller {
  private running = 0;
  private woken = false;
  private stopped = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly messages: Message[],
    private readonly batchSize: number,
    private readonly concurrency: number,
    private readonly deliver: (batch: Message[]) => Promise<void>,
  ) {}

  /** Pumps once the current turn is over, so that the messages of one SendMessageBatch travel together. */
  wake(): void {
    if (this.woken || this.stopped) return;
    this.woken = true;
    setImmediate(() => {
      this.woken = false;
      this.pump();
    });
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private pump(): void {
    if (this.stopped) return;
    while (this.running < this.concurrency) {
      const now = Date.now();
      const batch = this.messages.filter((message) => !message.inFlight && message.visibleAt <= now).slice(0, this.batchSize);
      if (batch.length === 0) break;
      for (const message of batch) {
        message.inFlight = true;
        message.receiveCount += 1;
      }
      this.running += 1;
      void this.deliver(batch).finally(() => {
        this.running -= 1;
        this.wake();
      });
    }
    this.wakeAtNextVisible();
  }

  /** A timer for the earliest message that waits out a delay or a visibility timeout; none when nothing waits. */
  private wakeAtNextVisible(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const now = Date.now();
    const next = this.messages.reduce((earliest, message) => (!message.inFlight && message.visibleAt > now ? Math.min(earliest, message.visibleAt) : earliest), Infinity);
    if (next === Infinity) return;
    this.timer = setTimeout(() => this.pump(), next - now);
    this.timer.unref();
  }
}

export class SqsStandIn {
  private readonly queues = new Map<string, { spec: QueueSpec; messages: Message[]; consumers: QueuePoller[] }>();
  private server?: Server;

  /** `retryScale` shortens the wait before a failed message is offered again (LOCAL_WEBHOOK_TIME_SCALE). */
  constructor(specs: readonly QueueSpec[], private readonly region: string, private readonly retryScale = 1) {
    for (const spec of specs) this.queues.set(spec.id, { spec, messages: [], consumers: [] });
  }

  /** Messages waiting or in flight (tests and the CLI's status read it). */
  depth(queueId: string): number {
    return this.queues.get(queueId)?.messages.length ?? 0;
  }

  bodies(queueId: string): string[] {
    return (this.queues.get(queueId)?.messages ?? []).map((message) => message.body);
  }

  send(queueId: string, body: string, delaySeconds = 0): string {
    const queue = this.queues.get(queueId);
    if (!queue) throw new AwsJsonError('AWS.SimpleQueueService.NonExistentQueue', 'The specified queue does not exist.');
    if (!Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > MAX_DELAY_SECONDS) throw new AwsJsonError('InvalidParameterValue', 'DelaySeconds must be 0 to 900');
    const now = Date.now();
    const id = randomUUID();
    queue.messages.push({ id, body, sentAt: now, visibleAt: now + delaySeconds * 1000, receiveCount: 0, inFlight: false });
    for (const consumer of queue.consumers) consumer.wake();
    return id;
  }

  /**
   * Lambda's pollers: five batches in flight (Lambda's start, which it scales up from on AWS), never more than the
   * mapping's maximum concurrency; each message offered again after a failure.
   */
  consume(source: QueueSourceSpec, consumer: QueueConsumer, log: (message: string) => void): void {
    const queue = this.queues.get(source.queueId);
    if (!queue) throw new Error(`event source on unknown queue ${source.queueId}`);
    const concurrency = Math.min(LAMBDA_SQS_POLLERS, source.maxConcurrency ?? LAMBDA_SQS_POLLERS);
    const poller = new QueuePoller(queue.messages, source.batchSize, concurrency, (batch) => this.invoke(queue.spec, batch, source, consumer, log));
    queue.consumers.push(poller);
    poller.wake();
  }

  private async invoke(spec: QueueSpec, batch: Message[], source: QueueSourceSpec, consumer: QueueConsumer, log: (message: string) => void): Promise<void> {
    const event = {
      Records: batch.map((message) => ({
        messageId: message.id,
        receiptHandle: message.id,
        body: message.body,
        attributes: { ApproximateReceiveCount: String(message.receiveCount), SentTimestamp: String(message.sentAt) },
        messageAttributes: {},
        md5OfBody: md5(message.body),
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:${this.region}:000000000000:${spec.id}`,
        awsRegion: this.region,
      })),
    };
    let failed: Set<string>;
    try {
      const result = (await consumer.invoke(event)) as { batchItemFailures?: Array<{ itemIdentifier: string }> } | undefined;
      failed = new Set(source.reportBatchItemFailures ? (result?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier) : []);
    } catch (error) {
      log(`${source.functionId} failed on ${batch.length} message(s) of ${spec.id}: ${String(error)}`);
      failed = new Set(batch.map((message) => message.id));
    }
    const queue = this.queues.get(spec.id);
    if (!queue) return;
    const retryAt = Date.now() + Math.max(1_000, spec.visibilityTimeoutSeconds * 1000 * this.retryScale);
    for (const message of batch) {
      message.inFlight = false;
      if (!failed.has(message.id)) {
        queue.messages.splice(queue.messages.indexOf(message), 1);
        continue;
      }
      message.visibleAt = retryAt;
      if (spec.deadLetter && message.receiveCount >= spec.deadLetter.maxReceiveCount) {
        queue.messages.splice(queue.messages.indexOf(message), 1);
        this.send(spec.deadLetter.queueId, message.body);
      }
    }
  }

  private handle(operation: string, input: Record<string, unknown>): unknown {
    const queueId = String(input.QueueUrl ?? '').split('/').pop() ?? '';
    switch (operation) {
      case 'SendMessage': {
        const body = String(input.MessageBody ?? '');
        return { MessageId: this.send(queueId, body, Number(input.DelaySeconds ?? 0)), MD5OfMessageBody: md5(body) };
      }
      case 'SendMessageBatch': {
        const entries = (input.Entries as Array<{ Id: string; MessageBody: string; DelaySeconds?: number }> | undefined) ?? [];
        if (entries.length === 0 || entries.length > 10) throw new AwsJsonError('AWS.SimpleQueueService.TooManyEntriesInBatchRequest', 'A batch holds 1 to 10 entries.');
        return {
          Successful: entries.map((entry) => ({ Id: entry.Id, MessageId: this.send(queueId, entry.MessageBody, Number(entry.DelaySeconds ?? 0)), MD5OfMessageBody: md5(entry.MessageBody) })),
          Failed: [],
        };
      }
      default:
        throw new AwsJsonError('InvalidAction', `The stand-in does not implement ${operation}`);
    }
  }

  listen(port: number, host = '127.0.0.1'): Promise<number> {
    const { server, listening } = listenAwsJson((operation, input) => this.handle(operation, input), { targetPrefix: 'AmazonSQS', contentType: 'application/x-amz-json-1.0' }, port, host);
    this.server = server;
    return listening;
  }

  /** No more batches handed out (before the consuming functions stop). */
  stopConsuming(): void {
    for (const queue of this.queues.values()) for (const consumer of queue.consumers.splice(0)) consumer.stop();
  }

  close(): Promise<void> {
    this.stopConsuming();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
