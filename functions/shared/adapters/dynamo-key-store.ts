import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { scanAll } from './scan-all';
import type { ApiKeyRecord } from '../domain/accounts/api-keys';
import type { Plan } from '../domain/limits/plans';

/** API keys, stored under the SHA-256 of the key. Only the authorizer (read) and the ops CLI use this table. */
export class DynamoKeyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Strongly consistent: a key revoked (or a plan changed) a moment ago is seen as such on the very next request. */
  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { keyHash }, ConsistentRead: true }));
    return Item as ApiKeyRecord | undefined;
  }

  async add(record: ApiKeyRecord): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: record, ConditionExpression: 'attribute_not_exists(keyHash)' }));
  }

  /** Operators list keys rarely and the table is small: a paginated scan beats keeping an index for it. */
  async list(): Promise<ApiKeyRecord[]> {
    return scanAll<ApiKeyRecord>(this.client, this.tableName);
  }


  /** Copies the account's plan and owner onto a key: what the authorizer reads on every request. */
  async assignToAccount(keyHash: string, account: { accountId: string; owner: string; plan: Plan }): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { keyHash },
        UpdateExpression: 'SET accountId = :accountId, #owner = :owner, #plan = :plan',
        ConditionExpression: 'attribute_exists(keyHash)',
        ExpressionAttributeNames: { '#owner': 'owner', '#plan': 'plan' },
        ExpressionAttributeValues: { ':accountId': account.accountId, ':owner': account.owner, ':plan': account.plan },
      }),
    );
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
