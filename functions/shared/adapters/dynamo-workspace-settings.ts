import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../domain/audit/audit-record';
import { switchesOf } from '../domain/analytics/analytics-switches';
import type { StoredWorkspaceSettings, WorkspaceChanges, WorkspaceSettings } from '../domain/ports';
import { auditPut } from './audit-items';

/** A workspace's settings on its account record (the accounts table: the same id), each change with its audit record. */
export class DynamoWorkspaceSettings implements WorkspaceSettings {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly accountsTable: string,
    private readonly auditTable: string,
  ) {}

  async find(workspaceId: string): Promise<StoredWorkspaceSettings | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.accountsTable, Key: { accountId: workspaceId }, ProjectionExpression: '#name, createdAt, analytics, mfaRequired', ExpressionAttributeNames: { '#name': 'name' }, ConsistentRead: true }),
    );
    if (!Item) return undefined;
    return {
      ...(typeof Item.name === 'string' ? { name: Item.name } : {}),
      ...(typeof Item.createdAt === 'string' ? { createdAt: Item.createdAt } : {}),
      analytics: switchesOf(Item.analytics),
      ...(typeof Item.mfaRequired === 'boolean' ? { mfaRequired: Item.mfaRequired } : {}),
    };
  }

  /**
   * Sets what changed: the name, the analytics switches (the whole map, every switch named), the MFA requirement;
   * the others untouched. A workspace whose key predates account records has none yet: it gets one, with the owner
   * partition and plan its key carries (what the ops CLI would have written).
   */
  async update(workspace: { workspaceId: string; owner: string; plan: string }, changes: WorkspaceChanges, audit: AuditRecord): Promise<void> {
    const names: Record<string, string> = { '#owner': 'owner', '#plan': 'plan' };
    const values: Record<string, unknown> = { ':owner': workspace.owner, ':plan': workspace.plan, ':now': audit.at };
    const sets = ['#owner = if_not_exists(#owner, :owner)', '#plan = if_not_exists(#plan, :plan)', 'createdAt = if_not_exists(createdAt, :now)'];
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      names[`#${field}`] = field;
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    }
    await this.client.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.accountsTable,
              Key: { accountId: workspace.workspaceId },
              UpdateExpression: `SET ${sets.join(', ')}`,
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
            },
          },
          auditPut(this.auditTable, audit),
        ],
      }),
    );
  }
}
