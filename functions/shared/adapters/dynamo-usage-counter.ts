import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { UsageCounter } from '../domain/ports';

/** Counters are items keyed by `pk`; they delete themselves through the table's TTL once their window is over. */
export class DynamoUsageCounter implements UsageCounter {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async tryConsume(counterId: string, limit: number, expiresAtEpochSeconds: number): Promise<{ consumed: boolean; count: number }> {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: counterId },
          // The limit rides along: the table's stream then tells a quota's crossings without reading the plan.
          UpdateExpression: 'ADD #count :one SET #ttl = if_not_exists(#ttl, :ttl), #limit = :limit',
          ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
          ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl', '#limit': 'limit' },
          ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':ttl': expiresAtEpochSeconds },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return { consumed: true, count: Number(Attributes?.count ?? 1) };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return { consumed: false, count: limit };
      throw error;
    }
  }

  async current(counterId: string): Promise<number> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: counterId } }));
    return Number(Item?.count ?? 0);
  }

  async release(counterId: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: counterId },
          UpdateExpression: 'ADD #count :minusOne',
          ConditionExpression: '#count > :zero',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
        }),
      );
    } catch (error) {
      // Nothing to give back (the window rolled over, or TTL removed it): that is the outcome wanted anyway.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
