import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../domain/audit/audit-record';
import type { WorkspaceSettings } from '../domain/ports';
import { auditPut } from './audit-items';

/** A workspace's settings on its account record (the accounts table: the same id), each change with its audit record. */
export class DynamoWorkspaceSettings implements WorkspaceSettings {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly accountsTable: string,
    private readonly auditTable: string,
  ) {}

  async find(workspaceId: string): Promise<{ name?: string; createdAt?: string } | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.accountsTable, Key: { accountId: workspaceId }, ProjectionExpression: '#name, createdAt', ExpressionAttributeNames: { '#name': 'name' }, ConsistentRead: true }),
    );
    if (!Item) return undefined;
    return { ...(typeof Item.name === 'string' ? { name: Item.name } : {}), ...(typeof Item.createdAt === 'string' ? { createdAt: Item.createdAt } : {}) };
  }

  /**
   * Sets the name. A workspace whose key predates account records has none yet: it gets one, with the owner
   * partition and plan its key carries (what the ops CLI would have written).
   */
  async rename(workspace: { workspaceId: string; owner: string; plan: string }, name: string, audit: AuditRecord): Promise<void> {
    await this.client.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.accountsTable,
              Key: { accountId: workspace.workspaceId },
              UpdateExpression: 'SET #name = :name, #owner = if_not_exists(#owner, :owner), #plan = if_not_exists(#plan, :plan), createdAt = if_not_exists(createdAt, :now)',
              ExpressionAttributeNames: { '#name': 'name', '#owner': 'owner', '#plan': 'plan' },
              ExpressionAttributeValues: { ':name': name, ':owner': workspace.owner, ':plan': workspace.plan, ':now': audit.at },
            },
          },
          auditPut(this.auditTable, audit),
        ],
      }),
    );
  }
}
