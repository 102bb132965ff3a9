import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { HEALTH_DUE_ATTRIBUTE, HEALTH_SHARD_ATTRIBUTE, LINKS_BY_HEALTH_DUE_INDEX } from '../config';
import { healthShardOf, type LinkHealthRecord } from '../domain/health/link-health';
import type { LinkRecord } from '../domain/links/link';
import type { HealthLinks } from '../domain/ports';
import { toRecord } from './dynamo-link-store';

/** A write whose condition failed changed nothing, which is what it was for (a link gone, a lease taken). */
async function unlessRefused(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * The health worker's view of the links table: it reads a link, and writes only `health` and the due index's two
 * keys (healthShard, healthDueAt), never the link's own fields, and never creates an item.
 */
export class DynamoHealthLinks implements HealthLinks {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async find(key: string): Promise<LinkRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { code: key }, ConsistentRead: true }));
    return Item ? toRecord(Item) : undefined;
  }

  async saveHealth(key: string, health: LinkHealthRecord, dueAtMs: number): Promise<void> {
    await unlessRefused(
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { code: key },
          UpdateExpression: 'SET health = :health, #due = :due, #shard = :shard',
          ConditionExpression: 'attribute_exists(code)',
          ExpressionAttributeNames: { '#due': HEALTH_DUE_ATTRIBUTE, '#shard': HEALTH_SHARD_ATTRIBUTE },
          ExpressionAttributeValues: { ':health': health, ':due': dueAtMs, ':shard': healthShardOf(key) },
        }),
      ),
    );
  }

  async stopChecking(key: string): Promise<void> {
    await unlessRefused(
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { code: key },
          UpdateExpression: 'REMOVE #due, #shard',
          ConditionExpression: 'attribute_exists(#due)',
          ExpressionAttributeNames: { '#due': HEALTH_DUE_ATTRIBUTE, '#shard': HEALTH_SHARD_ATTRIBUTE },
        }),
      ),
    );
  }

  async due(shard: string, nowMs: number, limit: number): Promise<Array<{ key: string; dueAtMs: number }>> {
    const found: Array<{ key: string; dueAtMs: number }> = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: LINKS_BY_HEALTH_DUE_INDEX,
          KeyConditionExpression: '#shard = :shard AND #due <= :now',
          ExpressionAttributeNames: { '#shard': HEALTH_SHARD_ATTRIBUTE, '#due': HEALTH_DUE_ATTRIBUTE },
          ExpressionAttributeValues: { ':shard': shard, ':now': nowMs },
          Limit: limit - found.length,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? []) found.push({ key: String(item.code), dueAtMs: Number(item[HEALTH_DUE_ATTRIBUTE]) });
      start = page.LastEvaluatedKey;
    } while (start && found.length < limit);
    return found;
  }

  lease(key: string, seenDueAtMs: number, untilMs: number): Promise<boolean> {
    return unlessRefused(
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { code: key },
          UpdateExpression: 'SET #due = :until',
          ConditionExpression: '#due = :seen',
          ExpressionAttributeNames: { '#due': HEALTH_DUE_ATTRIBUTE },
          ExpressionAttributeValues: { ':seen': seenDueAtMs, ':until': untilMs },
        }),
      ),
    );
  }
}
