import { randomBytes } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { VisitorSaltStore } from '../domain/ports';

/** The TTL backstop: a salt nobody removed (no visit after midnight) is deleted by DynamoDB after its day. */
const endOfDaySeconds = (day: string) => Date.parse(`${day}T00:00:00.000Z`) / 1000 + 86_400;

/**
 * Salts in their own table (no stream, no backups: see data-tables.ts), one item per UTC day. Made or read by one
 * update (`if_not_exists`: the first writer's value stands, every later caller is handed it back), removed by
 * another, so the redirect needs UpdateItem alone.
 */
export class DynamoVisitorSaltStore implements VisitorSaltStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async saltOf(day: string): Promise<string> {
    const { Attributes } = await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { day },
        UpdateExpression: 'SET salt = if_not_exists(salt, :fresh), #ttl = :ttl',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':fresh': randomBytes(32).toString('base64url'), ':ttl': endOfDaySeconds(day) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const salt = Attributes?.salt;
    if (typeof salt !== 'string' || !salt) throw new Error('the day\'s salt could not be read');
    return salt;
  }

  async forget(day: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({ TableName: this.tableName, Key: { day }, UpdateExpression: 'REMOVE salt', ConditionExpression: 'attribute_exists(salt)' }),
    ).catch((error: unknown) => {
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    });
  }
}
