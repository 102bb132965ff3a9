import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { isExpired, type LinkRecord } from '../domain/links/link';
import type { ClickOutcome, LinkStore } from '../domain/ports';

/** DynamoDB's TTL attribute: epoch seconds. Rounded up so TTL never deletes a link before its expiresAt. */
export const TTL_ATTRIBUTE = 'ttl';

type LinkItem = LinkRecord & { [TTL_ATTRIBUTE]?: number };

function toItem(link: LinkRecord): LinkItem {
  return link.expiresAt ? { ...link, [TTL_ATTRIBUTE]: Math.ceil(Date.parse(link.expiresAt) / 1000) } : link;
}

function toRecord(item: Record<string, unknown>): LinkRecord {
  const { [TTL_ATTRIBUTE]: _ttl, ...record } = item as unknown as LinkItem;
  return record;
}

export class DynamoLinkStore implements LinkStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async createIfAbsent(link: LinkRecord): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({ TableName: this.tableName, Item: toItem(link), ConditionExpression: 'attribute_not_exists(code)' }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async find(code: string): Promise<LinkRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { code } }));
    return Item ? toRecord(Item) : undefined;
  }

  /**
   * The click and every rule that can refuse it sit in one conditional update, so 200 concurrent visitors of a
   * maxClicks=10 link get exactly 10 redirects. On refusal DynamoDB returns the old item to tell 404 from 410.
   */
  async consumeClick(code: string, nowMs: number): Promise<ClickOutcome> {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { code },
          UpdateExpression: 'SET clicks = clicks + :one',
          ConditionExpression:
            'attribute_exists(code) AND attribute_exists(#url) AND clicks < maxClicks AND (attribute_not_exists(expiresAt) OR expiresAt > :now)',
          ExpressionAttributeNames: { '#url': 'url' },
          ExpressionAttributeValues: { ':one': 1, ':now': new Date(nowMs).toISOString() },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { kind: 'counted', link: toRecord(Attributes ?? {}) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      if (!error.Item) return { kind: 'missing' };
      const old = toRecord(unmarshall(error.Item));
      const usedUp = old.retired === true || (old.maxClicks !== undefined && old.clicks >= old.maxClicks);
      if (usedUp) return { kind: 'usedUp' };
      return isExpired(old, nowMs) ? { kind: 'expired' } : { kind: 'missing' };
    }
  }

  async retire(code: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { code },
        // The TTL goes too: a used-up link must answer 410 forever, not turn into a 404 when it would have expired.
        UpdateExpression: 'SET retired = :yes REMOVE #url, passwordHash, #ttl',
        ConditionExpression: 'attribute_exists(code)',
        ExpressionAttributeNames: { '#url': 'url', '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':yes': true },
      }),
    );
  }
}
