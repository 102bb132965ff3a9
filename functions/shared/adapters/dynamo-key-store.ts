import { GetCommand, PutCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord } from '../domain/accounts/api-keys';

/** API keys, stored under the SHA-256 of the key. Only the authorizer (read) and the ops CLI use this table. */
export class DynamoKeyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { keyHash } }));
    return Item as ApiKeyRecord | undefined;
  }

  async add(record: ApiKeyRecord): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: record, ConditionExpression: 'attribute_not_exists(keyHash)' }));
  }

  /** Operators list keys rarely and the table is small: a paginated scan beats keeping an index for it. */
  async list(): Promise<ApiKeyRecord[]> {
    const records: ApiKeyRecord[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(new ScanCommand({ TableName: this.tableName, ExclusiveStartKey: startKey }));
      records.push(...((page.Items ?? []) as ApiKeyRecord[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return records;
  }

  /** Returns false when no key has this id. */
  async revoke(keyId: string): Promise<boolean> {
    const record = (await this.list()).find((candidate) => candidate.keyId === keyId);
    if (!record) return false;
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { keyHash: record.keyHash },
        UpdateExpression: 'SET #status = :revoked',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':revoked': 'revoked' },
      }),
    );
    return true;
  }
}
