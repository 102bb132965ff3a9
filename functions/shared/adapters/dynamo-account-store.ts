import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { scanAll } from './scan-all';
import type { AccountRecord } from '../domain/accounts/accounts';
import type { Plan } from '../domain/limits/plans';

/**
 * Accounts (workspaces), keyed by id. The ops CLI writes them; a key's request sees the copies on its key, a person's
 * request reads the account beside their membership (the authorizer).
 */
export class DynamoAccountStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async add(account: AccountRecord): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: account, ConditionExpression: 'attribute_not_exists(accountId)' }));
  }

  async find(accountId: string): Promise<AccountRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { accountId } }));
    return Item as AccountRecord | undefined;
  }

  /** Operators list accounts rarely: a paginated scan beats keeping an index for it. */
  async list(): Promise<AccountRecord[]> {
    return scanAll<AccountRecord>(this.client, this.tableName);
  }


  async setPlan(accountId: string, plan: Plan): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { accountId },
        UpdateExpression: 'SET #plan = :plan',
        ConditionExpression: 'attribute_exists(accountId)',
        ExpressionAttributeNames: { '#plan': 'plan' },
        ExpressionAttributeValues: { ':plan': plan },
      }),
    );
  }
}
