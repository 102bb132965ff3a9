import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import type { Observation } from '../domain/health/link-health';
import type { HostSlots, UrlChecks } from '../domain/ports';

/**
 * The link health table (issue 31, lib/link-health.ts): one item per checked URL (`url#<sha256>`, its latest
 * observation and the claim on its next check) and one per host and second taken (`slot#<host>#<second>`). Both
 * remove themselves through TTL: a URL's check is kept three days (no link pointing at it any more, it goes), a
 * slot a minute.
 */
const URL_KEPT_SECONDS = 3 * 86_400;
const SLOT_KEPT_SECONDS = 60;

const urlKey = (url: string) => `url#${createHash('sha256').update(url).digest('base64url')}`;

export class DynamoUrlChecks implements UrlChecks {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async latest(url: string): Promise<Observation | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: urlKey(url) }, ConsistentRead: true, ProjectionExpression: 'observation' }));
    return Item?.observation as Observation | undefined;
  }

  /** One conditional write decides who checks: the URL is stale and nobody else's claim is running. */
  async claim(url: string, nowMs: number, freshAfterMs: number, leaseMs: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: urlKey(url) },
          UpdateExpression: 'SET claimedUntil = :until, #ttl = :ttl',
          ConditionExpression: '(attribute_not_exists(checkedAtMs) OR checkedAtMs <= :freshAfter) AND (attribute_not_exists(claimedUntil) OR claimedUntil < :now)',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':until': nowMs + leaseMs, ':freshAfter': freshAfterMs, ':now': nowMs, ':ttl': Math.ceil(nowMs / 1000) + URL_KEPT_SECONDS },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async record(url: string, observation: Observation): Promise<void> {
    const checkedAtMs = Date.parse(observation.checkedAt);
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: { pk: urlKey(url), observation, checkedAtMs, ttl: Math.ceil(checkedAtMs / 1000) + URL_KEPT_SECONDS } }));
  }

  async release(url: string): Promise<void> {
    await this.client.send(new UpdateCommand({ TableName: this.tableName, Key: { pk: urlKey(url) }, UpdateExpression: 'REMOVE claimedUntil' }));
  }
}

/**
 * A host's seconds, each taken by one conditional put (`attribute_not_exists`): DynamoDB lets exactly one writer
 * create an item, so however many workers run, a host gets one request a second at most. The first free second
 * from now is booked; the walk is bounded by `ahead`.
 */
export class DynamoHostSlots implements HostSlots {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async reserve(host: string, fromSecond: number, ahead: number): Promise<number | undefined> {
    for (let second = fromSecond; second < fromSecond + ahead; second += 1) {
      try {
        await this.client.send(
          new PutCommand({ TableName: this.tableName, Item: { pk: `slot#${host}#${second}`, ttl: second + SLOT_KEPT_SECONDS }, ConditionExpression: 'attribute_not_exists(pk)' }),
        );
        return second;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    return undefined;
  }
}
