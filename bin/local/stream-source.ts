import { DescribeStreamCommand, DynamoDBStreamsClient, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { passesFilters } from './event-pattern';
import type { SqsStandIn } from './sqs-standin';
import type { StreamSourceSpec } from './template';

/**
 * A shard is read again 250 ms after a page that did not fill up, as Lambda polls a shard about four times a second;
 * each empty page in a row doubles the wait, up to a second. Each read is a call to the same DynamoDB Local the
 * visitors' requests wait on, and it is not cheap there: about 5 ms of its CPU, empty or not (measured with
 * GetRecords sent in a loop to an idle stack, issue 28), so four reads a second of two shards at rest took 4 % of a
 * core from everything else. The stack cuts the wait short when a table may just have changed (nudge): tests see a
 * change's records at once, whatever number of functions consume the stream.
 */
export const POLL_MS = 250;
const IDLE_POLL_MS = 1_000;
/**
 * After a nudge, reads come 100 ms apart and then further apart (200, 400 ms) for a second: DynamoDB Local may show
 * a write's record a moment after the write returns, and a nudge that finds the reader mid-read must not wait out a
 * whole poll.
 */
const NUDGED_POLL_MS = 100;
const NUDGE_LASTS_MS = 1_000;

/** The wait before a shard's next read, after `quietReads` empty pages in a row (counted afresh after a nudge). */
export function pollWaitMs(quietReads: number, nudged: boolean, pollMs = POLL_MS): number {
  const doublings = Math.max(0, quietReads - 1);
  return nudged ? NUDGED_POLL_MS * 2 ** Math.min(doublings, 2) : Math.min(Math.max(IDLE_POLL_MS, pollMs), pollMs * 2 ** Math.min(doublings, 2));
}
/** GetRecords' largest page: a full one is followed by the next read at once. */
const PAGE_LIMIT = 1000;

/** A stream record as DynamoDB Streams' wire protocol has it (images in DynamoDB's JSON, times in epoch seconds). */
export interface WireStreamRecord {
  eventID?: string;
  eventName?: string;
  dynamodb?: { ApproximateCreationDateTime?: number; SequenceNumber?: string; [field: string]: unknown };
  userIdentity?: { Type?: string; PrincipalId?: string };
}

/** Why a page could not be read: the service's error type (`TrimmedDataAccessException`…) and message. */
export class StreamReadError extends Error {
  constructor(readonly type: string, message: string) {
    super(`${type}: ${message}`);
  }
}

/**
 * One page of a shard, read with a plain JSON request: the SDK's client rebuilt every record's two images through
 * its schema and this player then rebuilt Lambda's shape from it, the main thread's largest cost under a maxClicks
 * link's load (a record per visit, issue 28). The images come as Lambda hands them over, in DynamoDB's JSON.
 * DynamoDB Local (run with -sharedDb) reads the request's credential scope and checks no signature.
 */
export async function getRecordsPage(endpoint: string, region: string, shardIterator: string, limit = PAGE_LIMIT): Promise<{ Records: WireStreamRecord[]; NextShardIterator?: string }> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': 'DynamoDBStreams_20120810.GetRecords',
      authorization: `AWS4-HMAC-SHA256 Credential=local/20000101/${region}/dynamodb/aws4_request, SignedHeaders=host, Signature=local`,
    },
    body: JSON.stringify({ ShardIterator: shardIterator, Limit: limit }),
  });
  const answer = (await response.json()) as { Records?: WireStreamRecord[]; NextShardIterator?: string; __type?: string; message?: string; Message?: string };
  if (!response.ok) throw new StreamReadError(String(answer.__type ?? response.status).split('#').pop() ?? '', String(answer.message ?? answer.Message ?? ''));
  return { Records: answer.Records ?? [], ...(answer.NextShardIterator ? { NextShardIterator: answer.NextShardIterator } : {}) };
}

/** What Lambda hands a function for one stream record. */
export function lambdaRecord(record: WireStreamRecord, tableName: string, region: string) {
  const change = record.dynamodb;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    dynamodb: { ...change, ApproximateCreationDateTime: change?.ApproximateCreationDateTime ?? Date.now() / 1000 },
    eventSourceARN: `arn:aws:dynamodb:${region}:000000000000:table/${tableName}/stream/local`,
    // A TTL removal names the service that made it; Lambda's record spells the fields in lower camel case.
    ...(record.userIdentity ? { userIdentity: { type: record.userIdentity.Type, principalId: record.userIdentity.PrincipalId } } : {}),
  };
}

/** A function reading the stream through one event source mapping, and the mapping's terms. */
export interface StreamConsumer {
  spec: StreamSourceSpec;
  consumer: { invoke(event: unknown): Promise<unknown> };
}

/**
 * One event source mapping's deliveries, in the shard's order: records that pass its filters handed over in batches;
 * a failed batch is retried (with backoff) up to the mapping's retry count, then its description goes to the
 * failure queue and the mapping moves on. Each mapping keeps its own pace, as on AWS: a failing consumer holds up
 * only its own records.
 */
class MappingDeliveries {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly mapping: StreamConsumer,
    private readonly queues: SqsStandIn,
    private readonly log: (message: string) => void,
    private readonly stopped: () => boolean,
  ) {}

  enqueue(records: ReturnType<typeof lambdaRecord>[]): void {
    const passing = records.filter((record) => passesFilters(this.mapping.spec.filterPatterns, record));
    for (let start = 0; start < passing.length; start += this.mapping.spec.batchSize) {
      const batch = passing.slice(start, start + this.mapping.spec.batchSize);
      this.chain = this.chain.then(() => this.deliver(batch));
    }
  }

  settled(): Promise<void> {
    return this.chain;
  }

  private async deliver(batch: unknown[]): Promise<void> {
    const { spec, consumer } = this.mapping;
    for (let attempt = 0; attempt <= spec.retryAttempts && !this.stopped(); attempt++) {
      try {
        await consumer.invoke({ Records: batch });
        return;
      } catch (error) {
        this.log(`${spec.functionId} failed on a stream batch of ${spec.tableName} (attempt ${attempt + 1}): ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 100 * 2 ** attempt)));
      }
    }
    if (spec.onFailureQueueId && !this.stopped()) {
      this.queues.send(spec.onFailureQueueId, JSON.stringify({ requestContext: { condition: 'RetryAttemptsExhausted' }, DDBStreamBatchInfo: { batchSize: batch.length, streamArn: `${spec.tableName}/stream/local` } }));
    }
  }
}

/**
 * Lambda's DynamoDB stream event sources of one table, played against DynamoDB Local: each shard read once, in order,
 * from the stack's start (what it held before passed over), and every page handed to each mapping's deliveries.
 */
export class LocalTableStream {
  private stopped = false;
  private readonly running: Promise<void>[] = [];
  private readonly mappings: MappingDeliveries[];
  /** The shard readers waiting for their next poll: a nudge ends their waits. */
  private readonly sleepers = new Set<() => void>();
  private nudgedAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly tableName: string,
    consumers: readonly StreamConsumer[],
    private readonly endpoint: string,
    private readonly region: string,
    queues: SqsStandIn,
    private readonly log: (message: string) => void,
    private readonly pollMs = POLL_MS,
  ) {
    this.mappings = consumers.map((mapping) => new MappingDeliveries(mapping, queues, log, () => this.stopped));
  }

  /** When a page was last asked for: nudges that come closer together share reads. */
  private lastReadAtMs = Number.NEGATIVE_INFINITY;
  private pendingWake?: NodeJS.Timeout;

  /**
   * The table may have changed: its shards are read now rather than at the next poll, or, within 100 ms of the last
   * read, 100 ms after it. A run of creations nudges every few milliseconds (each one a link's and a quota counter's
   * record), and a read per nudge had DynamoDB Local answer a GetRecords per creation beside the creation's own five
   * calls (counted through a proxy, issue 28).
   */
  nudge(): void {
    this.nudgedAtMs = Date.now();
    const dueInMs = this.lastReadAtMs + NUDGED_POLL_MS - this.nudgedAtMs;
    if (dueInMs <= 0) return this.wakeReaders();
    this.pendingWake ??= setTimeout(() => this.wakeReaders(), dueInMs);
  }

  private wakeReaders(): void {
    clearTimeout(this.pendingWake);
    this.pendingWake = undefined;
    for (const wake of [...this.sleepers]) wake();
  }

  /** Until the next read: see pollWaitMs. A nudge ends the wait (at once, or 100 ms after the last read). */
  private pause(quietReads: number): Promise<void> {
    const ms = pollWaitMs(quietReads, Date.now() - this.nudgedAtMs < NUDGE_LASTS_MS, this.pollMs);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  /** Resolves once every shard has an iterator: changes after that are delivered. */
  async start(dynamo: DynamoDBClient): Promise<void> {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: this.tableName }));
    const streamArn = Table?.LatestStreamArn;
    if (!streamArn) throw new Error(`table ${this.tableName} has no stream: the template's StreamSpecification did not reach DynamoDB Local`);
    const streams = new DynamoDBStreamsClient({ endpoint: this.endpoint, region: this.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const seen = new Set<string>();
    // DynamoDB Local refuses reads from a LATEST iterator of an empty shard, and its record times are whole minutes:
    // shards are read from their start, and what they hold before the run (a kept data directory's) passed over.
    const openShards = async () => {
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
      for (const shard of StreamDescription?.Shards ?? []) {
        if (!shard.ShardId || seen.has(shard.ShardId)) continue;
        seen.add(shard.ShardId);
        let caughtUp!: () => void;
        const ready = new Promise<void>((resolve) => (caughtUp = resolve));
        this.running.push(this.read(streams, streamArn, shard.ShardId, openShards, caughtUp));
        await ready;
      }
    };
    await openShards();
  }

  private async read(streams: DynamoDBStreamsClient, streamArn: string, shardId: string, onShardEnd: () => Promise<void>, caughtUp: () => void): Promise<void> {
    let lastSequence: string | undefined;
    let catchingUp = true;
    let iterator: string | undefined;
    // Empty pages in a row since the last record or the last nudge this reader saw.
    let quietReads = 0;
    let nudgeSeen = this.nudgedAtMs;
    // DynamoDB Local now and then refuses a shard's next iterator (TrimmedDataAccessException) although nothing was
    // trimmed: a fresh iterator after the last record read carries on, as the Kinesis client library does.
    const freshIterator = async () => {
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shardId,
          ...(lastSequence ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: lastSequence } : { ShardIteratorType: 'TRIM_HORIZON' }),
        }),
      );
      return ShardIterator;
    };
    iterator = await freshIterator();
    while (iterator && !this.stopped) {
      let page: { Records: WireStreamRecord[]; NextShardIterator?: string };
      try {
        this.lastReadAtMs = Date.now();
        page = await getRecordsPage(this.endpoint, this.region, iterator);
      } catch (error) {
        if (this.stopped) break;
        const type = error instanceof StreamReadError ? error.type : '';
        if (type !== 'TrimmedDataAccessException' && type !== 'ExpiredIteratorException') this.log(`stream of ${this.tableName}: ${String(error)}`);
        await this.pause(quietReads);
        iterator = await freshIterator().catch(() => iterator);
        continue;
      }
      const fresh = page.Records;
      lastSequence = fresh.at(-1)?.dynamodb?.SequenceNumber ?? lastSequence;
      if (catchingUp && fresh.length === 0) {
        catchingUp = false;
        caughtUp();
      }
      if (!catchingUp && fresh.length > 0) {
        const records = fresh.map((record) => lambdaRecord(record, this.tableName, this.region));
        for (const mapping of this.mappings) mapping.enqueue(records);
      }
      iterator = page.NextShardIterator;
      if (nudgeSeen !== this.nudgedAtMs) {
        nudgeSeen = this.nudgedAtMs;
        quietReads = 0;
      }
      quietReads = fresh.length > 0 ? 0 : quietReads + 1;
      // Records from before the start are passed over as fast as they come; after that, a short page means a pause.
      if (iterator && !(catchingUp || fresh.length === PAGE_LIMIT)) await this.pause(quietReads);
    }
    caughtUp();
    if (!this.stopped) await onShardEnd();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeReaders();
    await Promise.allSettled(this.running);
    await Promise.allSettled(this.mappings.map((mapping) => mapping.settled()));
  }
}
