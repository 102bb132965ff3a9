import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { SlotLease, WebhookChanges, WebhookStore } from '../domain/ports';
import { DELIVERIES_KEPT_SECONDS, type DeliveryAttempt, type WebhookRecord } from '../domain/webhooks/webhook';
import type { AuditRecord } from '../domain/audit/audit-record';
import { auditPut } from './audit-items';

/**
 * One table, keyed (pk, sk): an owner's webhooks (`owner#<owner>`, `wh#<id>`) beside the count that keeps them at
 * 10 (`owner#<owner>`, `count`); each webhook's attempts, newest last (`dlv#<id>`, `<at>#<eventId>#<attempt>`, TTL
 * 30 days); its in-flight places (`slot#<id>`, `<n>`, leased to a holder until an instant).
 */
const ownerKey = (owner: string) => `owner#${owner}`;
const webhookKey = (owner: string, id: string) => ({ pk: ownerKey(owner), sk: `wh#${id}` });
const countKey = (owner: string) => ({ pk: ownerKey(owner), sk: 'count' });

function toRecord(item: Record<string, unknown>): WebhookRecord {
  const { pk: _pk, sk: _sk, ...record } = item;
  return record as unknown as WebhookRecord;
}

function encodeCursor(key: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify([key.sk])).toString('base64url');
}

function decodeCursor(webhookId: string, cursor: string): Record<string, unknown> | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 1 || typeof decoded[0] !== 'string') return undefined;
    return { pk: `dlv#${webhookId}`, sk: decoded[0] };
  } catch {
    return undefined;
  }
}

export class DynamoWebhookStore implements WebhookStore {
  /** `auditTable`: where the owners' changes' records go, each in its change's own transaction (audit-items.ts). */
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly auditTable?: string,
  ) {}

  /** The record's put, to end the change's transaction with; none for a change nobody asked to record. */
  private audited(audit: AuditRecord | undefined): ReturnType<typeof auditPut>[] {
    if (audit === undefined) return [];
    if (this.auditTable === undefined) throw new Error('an audited webhook change reached a store with no audit table');
    return [auditPut(this.auditTable, audit)];
  }

  async add(record: WebhookRecord, limit: number, audit?: AuditRecord): Promise<'added' | 'overLimit'> {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: countKey(record.owner),
                UpdateExpression: 'ADD webhooks :one',
                ConditionExpression: 'attribute_not_exists(webhooks) OR webhooks < :limit',
                ExpressionAttributeValues: { ':one': 1, ':limit': limit },
              },
            },
            { Put: { TableName: this.tableName, Item: { ...webhookKey(record.owner, record.id), ...record }, ConditionExpression: 'attribute_not_exists(pk)' } },
            ...this.audited(audit),
          ],
        }),
      );
      return 'added';
    } catch (error) {
      if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return 'overLimit';
      throw error;
    }
  }

  async list(owner: string): Promise<WebhookRecord[]> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :webhooks)',
        ExpressionAttributeValues: { ':pk': ownerKey(owner), ':webhooks': 'wh#' },
        ConsistentRead: true,
      }),
    );
    return Items.map(toRecord);
  }

  async find(owner: string, id: string): Promise<WebhookRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: webhookKey(owner, id), ConsistentRead: true }));
    return Item ? toRecord(Item) : undefined;
  }

  async update(owner: string, id: string, changes: WebhookChanges, audit?: AuditRecord): Promise<WebhookRecord | undefined> {
    const sets: string[] = [];
    const removes: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      names[`#${field}`] = field;
      if (value === null) removes.push(`#${field}`);
      else {
        sets.push(`#${field} = :${field}`);
        values[`:${field}`] = value;
      }
    }
    const update = {
      TableName: this.tableName,
      Key: webhookKey(owner, id),
      UpdateExpression: [sets.length > 0 ? `SET ${sets.join(', ')}` : '', removes.length > 0 ? `REMOVE ${removes.join(', ')}` : ''].join(' '),
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    };
    try {
      if (audit === undefined) {
        const { Attributes } = await this.client.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
        return Attributes ? toRecord(Attributes) : undefined;
      }
      // A transaction returns no item: the webhook is read back once both are written.
      await this.client.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...this.audited(audit)] }));
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return undefined;
      throw error;
    }
    return this.find(owner, id);
  }

  async remove(owner: string, id: string, audit?: AuditRecord): Promise<boolean> {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: this.tableName, Key: webhookKey(owner, id), ConditionExpression: 'attribute_exists(pk)' } },
            { Update: { TableName: this.tableName, Key: countKey(owner), UpdateExpression: 'ADD webhooks :minusOne', ExpressionAttributeValues: { ':minusOne': -1 } } },
            ...this.audited(audit),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  async deliveries(webhookId: string, limit: number, cursor?: string): Promise<{ items: DeliveryAttempt[]; next?: string } | undefined> {
    const start = cursor === undefined ? undefined : decodeCursor(webhookId, cursor);
    if (cursor !== undefined && !start) return undefined;
    const { Items = [], LastEvaluatedKey } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `dlv#${webhookId}` },
        ScanIndexForward: false,
        Limit: limit,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    const items = Items.map(({ eventId, event, attempt, at, status, error, durationMs }) => ({
      eventId,
      event,
      attempt,
      at,
      ...(status !== undefined ? { status } : {}),
      ...(error !== undefined ? { error } : {}),
      durationMs,
    })) as DeliveryAttempt[];
    return { items, ...(LastEvaluatedKey ? { next: encodeCursor(LastEvaluatedKey) } : {}) };
  }

  async recordAttempt(webhookId: string, attempt: DeliveryAttempt): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: `dlv#${webhookId}`,
          sk: `${attempt.at}#${attempt.eventId}#${String(attempt.attempt).padStart(2, '0')}`,
          ...attempt,
          ttl: Math.floor(Date.parse(attempt.at) / 1000) + DELIVERIES_KEPT_SECONDS,
        },
      }),
    );
  }

  async markFailing(owner: string, id: string, nowMs: number): Promise<number | undefined> {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookKey(owner, id),
          UpdateExpression: 'SET failingSince = if_not_exists(failingSince, :now)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': nowMs },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Attributes?.failingSince as number | undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async countQueuedClicks(owner: string, id: string, count: number): Promise<number | undefined> {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookKey(owner, id),
          UpdateExpression: 'ADD clickSeq :count',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':count': count },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(Attributes?.clickSeq);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async countDropped(owner: string, id: string, count: number): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookKey(owner, id),
          UpdateExpression: 'ADD droppedEvents :count',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':count': count },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async acquireSlot(webhookId: string, slots: number, nowMs: number, leaseUntilMs: number): Promise<SlotLease | { busyUntil: number }> {
    const holder = randomUUID();
    // Start at a random place: concurrent deliverers rarely try the same one first.
    const first = Math.floor(Math.random() * slots);
    let busyUntil = leaseUntilMs;
    for (let offset = 0; offset < slots; offset++) {
      const slot = (first + offset) % slots;
      try {
        await this.client.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { pk: `slot#${webhookId}`, sk: String(slot), leaseUntil: leaseUntilMs, holder, ttl: Math.ceil(leaseUntilMs / 1000) + 3600 },
            ConditionExpression: 'attribute_not_exists(pk) OR leaseUntil < :now',
            ExpressionAttributeValues: { ':now': nowMs },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { slot, holder };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        const taken = error.Item ? Number(unmarshall(error.Item).leaseUntil) : Number.NaN;
        if (Number.isFinite(taken)) busyUntil = Math.min(busyUntil, taken);
      }
    }
    return { busyUntil };
  }

  async releaseSlot(webhookId: string, lease: SlotLease): Promise<void> {
    try {
      await this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: `slot#${webhookId}`, sk: String(lease.slot) },
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': lease.holder },
        }),
      );
    } catch (error) {
      // The lease ran out and the place is another deliverer's now (or already free): not ours to free.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
