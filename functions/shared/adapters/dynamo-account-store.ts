import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { scanAll } from './scan-all';
import { auditPut } from './audit-items';
import type { AuditRecord } from '../domain/audit/audit-record';
import type { AccountRecord } from '../domain/accounts/accounts';
import type { Plan } from '../domain/limits/plans';

/**
 * Accounts (workspaces), keyed by id. The ops CLI writes them; a key's request sees the copies on its key, a person's
 * request reads the account beside their membership (the authorizer).
 */
export class DynamoAccountStore {
  /** `auditTable`: where an operator's changes to a workspace are recorded, in the change's own transaction. */
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly auditTable?: string,
  ) {}

  async add(account: AccountRecord): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: account, ConditionExpression: 'attribute_not_exists(accountId)' }));
  }

  /** `consistent`: a person's request reads the workspace's rules (MFA) as they are now, like their membership. */
  async find(accountId: string, options: { consistent?: boolean } = {}): Promise<AccountRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { accountId }, ...(options.consistent ? { ConsistentRead: true } : {}) }));
    return Item as AccountRecord | undefined;
  }

  /** Operators list accounts rarely: a paginated scan beats keeping an index for it. */
  async list(): Promise<AccountRecord[]> {
    return scanAll<AccountRecord>(this.client, this.tableName);
  }


  async setPlan(accountId: string, plan: Plan, audit?: AuditRecord): Promise<void> {
    const update = {
      TableName: this.tableName,
      Key: { accountId },
      UpdateExpression: 'SET #plan = :plan',
      ConditionExpression: 'attribute_exists(accountId)',
      ExpressionAttributeNames: { '#plan': 'plan' },
      ExpressionAttributeValues: { ':plan': plan },
    };
    if (audit === undefined) {
      await this.client.send(new UpdateCommand(update));
      return;
    }
    if (this.auditTable === undefined) throw new Error('an audited account change reached a store with no audit table');
    await this.client.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, auditPut(this.auditTable, audit)] }));
  }
}
