import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  TrimmedDataAccessException,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { passesFilters } from './event-pattern';
import type { SqsStandIn } from './sqs-standin';
import type { StreamSourceSpec } from './template';

/**
 * An empty shard is read again after 50 ms, doubling while it stays empty up to 250 ms (Lambda polls a stream's
 * shard about four times a second): each read is a signed call to the same DynamoDB Local the visitors' requests
 * wait on, so a stack at rest should not make forty of them a second.
 */
const IDLE_POLL_MS = 50;
const MAX_IDLE_POLL_MS = 250;

/** How long to wait before reading a shard again, given the wait before (0 after a page with records). */
export function nextIdlePollMs(previousMs: number): number {
  return Math.min(MAX_IDLE_POLL_MS, Math.max(IDLE_POLL_MS, previousMs * 2));
}

/** What Lambda hands a function for one stream record. */
export function lambdaRecord(record: StreamRecord, tableName: string, region: string) {
  const change = record.dynamodb;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    dynamodb: {
      ...change,
      ApproximateCreationDateTime: change?.ApproximateCreationDateTime ? change.ApproximateCreationDateTime.getTime() / 1000 : Date.now() / 1000,
    },
    eventSourceARN: `arn:aws:dynamodb:${region}:000000000000:table/${tableName}/stream/local`,
    // A TTL removal names the service that made it; Lambda's record spells the fields in lower camel case.
    ...(record.userIdentity ? { userIdentity: { type: record.userIdentity.Type, principalId: record.userIdentity.PrincipalId } } : {}),
  };
}

/**
 * Lambda's DynamoDB stream event source, played against DynamoDB Local: each shard read in order from the stack's
 * start (what it held before passed over), records that pass the mapping's filters handed over in batches; a failed batch is retried (with backoff)
 * up to the mapping's retry count, then its description goes to the failure queue and the shard moves on.
 */
export class LocalStreamSource {
  private stopped = false;
  private readonly running: Promise<void>[] = [];

  constructor(
    private readonly spec: StreamSourceSpec,
    private readonly consumer: { invoke(event: unknown): Promise<unknown> },
    private readonly endpoint: string,
    private readonly region: string,
    private readonly queues: SqsStandIn,
    private readonly log: (message: string) => void,
  ) {}

  /** Resolves once every shard has an iterator: changes after that are delivered. */
  async start(dynamo: DynamoDBClient): Promise<void> {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: this.spec.tableName }));
    const streamArn = Table?.LatestStreamArn;
    if (!streamArn) throw new Error(`table ${this.spec.tableName} has no stream: the template's StreamSpecification did not reach DynamoDB Local`);
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
    let idleMs = 0;
    while (iterator && !this.stopped) {
      let page: { Records?: StreamRecord[]; NextShardIterator?: string };
      try {
        page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      } catch (error) {
        if (this.stopped) break;
        if (!(error instanceof TrimmedDataAccessException || error instanceof ExpiredIteratorException)) this.log(`stream of ${this.spec.tableName}: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
        iterator = await freshIterator().catch(() => iterator);
        continue;
      }
      const fresh = page.Records ?? [];
      lastSequence = fresh.at(-1)?.dynamodb?.SequenceNumber ?? lastSequence;
      const records = fresh
        .map((record) => lambdaRecord(record, this.spec.tableName, this.region))
        .filter((record) => !catchingUp && passesFilters(this.spec.filterPatterns, record));
      if (catchingUp && fresh.length === 0) {
        catchingUp = false;
        caughtUp();
      }
      for (let start = 0; start < records.length; start += this.spec.batchSize) await this.deliver(records.slice(start, start + this.spec.batchSize));
      iterator = page.NextShardIterator;
      idleMs = fresh.length === 0 ? nextIdlePollMs(idleMs) : 0;
      if (idleMs > 0 && iterator) await new Promise((resolve) => setTimeout(resolve, idleMs));
    }
    caughtUp();
    if (!this.stopped) await onShardEnd();
  }

  private async deliver(batch: unknown[]): Promise<void> {
    for (let attempt = 0; attempt <= this.spec.retryAttempts && !this.stopped; attempt++) {
      try {
        await this.consumer.invoke({ Records: batch });
        return;
      } catch (error) {
        this.log(`${this.spec.functionId} failed on a stream batch of ${this.spec.tableName} (attempt ${attempt + 1}): ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 100 * 2 ** attempt)));
      }
    }
    if (this.spec.onFailureQueueId && !this.stopped) {
      this.queues.send(this.spec.onFailureQueueId, JSON.stringify({ requestContext: { condition: 'RetryAttemptsExhausted' }, DDBStreamBatchInfo: { batchSize: batch.length, streamArn: `${this.spec.tableName}/stream/local` } }));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled(this.running);
  }
}
