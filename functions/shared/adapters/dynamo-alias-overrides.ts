import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { aliasOverrideKey } from '../domain/links/aliases';
import type { AliasOverrides } from '../domain/ports';

/** One item per (alias, key) pair an operator allowed. */
export class DynamoAliasOverrides implements AliasOverrides {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async allows(alias: string, keyId: string): Promise<boolean> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { alias: aliasOverrideKey(alias), keyId } }),
    );
    return Item !== undefined;
  }

  async allow(alias: string, keyId: string, nowMs: number): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { alias: aliasOverrideKey(alias), keyId, createdAt: new Date(nowMs).toISOString() },
      }),
    );
  }
}
