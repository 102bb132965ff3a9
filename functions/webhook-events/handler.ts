import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { toRecord } from '../shared/adapters/dynamo-link-store';
import { DynamoAccountStore } from '../shared/adapters/dynamo-account-store';
import { dynamo } from '../shared/adapters/clients';
import { config } from '../shared/config';
import { quotaCounterOf, quotaEventsOf } from '../shared/domain/webhooks/account-events';
import { linkEventsOf, type OwnedEvent } from '../shared/domain/webhooks/link-events';
import { queueEvents } from '../shared/domain/webhooks/event-fanout';
import { MetricName } from '../shared/metric-names';
import { count, logger, publishMetrics } from '../shared/observability';
import { flagSource, shortBaseUrlReader } from '../shared/wiring';
import { deliveryQueue, webhookStore } from '../shared/webhook-wiring';
import { needsCheck } from '../shared/domain/health/health-triggers';
import { healthQueue, mayCheckDestination } from '../shared/health-wiring';

const deps = { webhooks: webhookStore(), queue: deliveryQueue() };
const flags = flagSource();
const shortBaseUrl = shortBaseUrlReader();
const accounts = new DynamoAccountStore(dynamo(), config.table('accountsTable'));
const linksTable = config.table('linksTable');
const health = healthQueue();
const mayCheck = mayCheckDestination();

type Image = Record<string, AttributeValue> | undefined;
const read = (image: Image) => (image ? unmarshall(image as Parameters<typeof unmarshall>[0]) : undefined);

/** Which table a record comes from: its stream's ARN names it (`…:table/<name>/stream/<label>`). */
const fromTable = (record: DynamoDBRecord, table: string) => record.eventSourceARN?.includes(`:table/${table}/stream/`) === true;

/**
 * When the change was committed: the stream's time (whole seconds on AWS, whole minutes in DynamoDB Local), or the
 * instant the change itself records (updatedAt, createdAt) when that is later.
 */
function changedAt(record: DynamoDBRecord, after: Record<string, unknown> | undefined): number {
  const streamMs = (record.dynamodb?.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000;
  const recorded = Date.parse(String(after?.updatedAt ?? after?.createdAt ?? ''));
  return Number.isNaN(recorded) ? streamMs : Math.max(streamMs, recorded);
}

async function linkEvents(record: DynamoDBRecord, base: string): Promise<OwnedEvent[]> {
  const before = read(record.dynamodb?.OldImage as Image);
  const after = read(record.dynamodb?.NewImage as Image);
  const key = String((after ?? before)?.code ?? '');
  const identity = record.userIdentity as { type?: string; principalId?: string } | undefined;
  return linkEventsOf(
    {
      recordId: record.eventID ?? '',
      kind: record.eventName ?? 'MODIFY',
      ...(before ? { old: toRecord(before) } : {}),
      ...(after ? { new: toRecord(after) } : {}),
      byTtl: identity?.type === 'Service' && identity.principalId === 'dynamodb.amazonaws.com',
      atMs: changedAt(record, after),
    },
    key,
    base,
  );
}

async function quotaEvents(record: DynamoDBRecord): Promise<OwnedEvent[]> {
  const before = read(record.dynamodb?.OldImage as Image);
  const after = read(record.dynamodb?.NewImage as Image);
  const counterId = String(after?.pk ?? '');
  const counter = quotaCounterOf(counterId);
  if (!counter || after?.limit === undefined) return [];
  const change = { counterId, before: Number(before?.count ?? 0), after: Number(after.count ?? 0), limit: Number(after.limit), atMs: Date.now() };
  // Only a crossing reads the account (for its links' owner, which webhooks are filed under).
  if (quotaEventsOf(change, '').length === 0) return [];
  const account = await accounts.find(counter.accountId);
  return account ? quotaEventsOf(change, account.owner) : [];
}

/** New links and changed destinations are checked now (issue 31), whatever the webhooks flag says. */
async function queueHealthChecks(records: readonly DynamoDBRecord[]): Promise<void> {
  const keys = records.flatMap((record) => {
    const before = read(record.dynamodb?.OldImage as Image);
    const after = read(record.dynamodb?.NewImage as Image);
    return after && needsCheck(before && toRecord(before), toRecord(after), mayCheck) ? [String(after.code)] : [];
  });
  if (keys.length > 0) await health.send([...new Set(keys)]);
}

/**
 * The links and usage tables' streams: each committed change becomes its events, queued for every webhook of the
 * owner that asked for them, and a new or changed link its health check. A failure throws, so the batch is retried
 * (then split, then dead-lettered): the event comes from the change itself, never from a second write that a crashed
 * function might not make.
 */
async function route(event: DynamoDBStreamEvent): Promise<void> {
  await queueHealthChecks(event.Records.filter((record) => fromTable(record, linksTable)));
  if (!(await flags.current()).webhooks) return;
  const base = await shortBaseUrl();
  const events = (
    await Promise.all(event.Records.map((record) => (fromTable(record, linksTable) ? linkEvents(record, base) : quotaEvents(record))))
  ).flat();
  const queued = await queueEvents(events, deps, Date.now());
  count(MetricName.webhookEventsQueued, queued);
}

export const handler = middy(route).use(injectLambdaContext(logger, { resetKeys: true })).use(publishMetrics());
