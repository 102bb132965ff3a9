import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../domain/audit/audit-record';
import type { SsoStore } from '../domain/ports';
import type { SsoConnection } from '../domain/sso/sso-connection';
import { auditPut } from './audit-items';

const workspaceKey = (workspaceId: string) => `ws#${workspaceId}`;
const connectionKey = (workspaceId: string, domain: string) => ({ pk: workspaceKey(workspaceId), sk: `sso#${domain}` });
/** One item a domain, service-wide: what makes a domain connectable by one workspace only. */
const domainClaimKey = (domain: string) => ({ pk: `ssodomain#${domain}`, sk: 'claim' });
const countKey = (workspaceId: string) => ({ pk: workspaceKey(workspaceId), sk: 'ssoCount' });

function toConnection(item: Record<string, unknown>): SsoConnection {
  const { pk: _pk, sk: _sk, ...connection } = item;
  return connection as unknown as SsoConnection;
}

/**
 * SSO connections on the members table (the workspace's people and how they sign in): each write is one
 * transaction with the domain's service-wide claim, the workspace's count and the audit record.
 */
export class DynamoSsoStore implements SsoStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly auditTableName: string,
  ) {}

  async list(workspaceId: string): Promise<SsoConnection[]> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sso)',
        ExpressionAttributeValues: { ':pk': workspaceKey(workspaceId), ':sso': 'sso#' },
        ConsistentRead: true,
      }),
    );
    return Items.map(toConnection);
  }

  async find(workspaceId: string, domain: string): Promise<SsoConnection | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: connectionKey(workspaceId, domain), ConsistentRead: true }));
    return Item ? toConnection(Item) : undefined;
  }

  async add(connection: SsoConnection, max: number, audit: AuditRecord): Promise<'added' | 'taken' | 'overLimit'> {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: this.tableName, Item: { ...domainClaimKey(connection.domain), workspaceId: connection.workspaceId }, ConditionExpression: 'attribute_not_exists(pk)' } },
            {
              Update: {
                TableName: this.tableName,
                Key: countKey(connection.workspaceId),
                UpdateExpression: 'ADD #count :one',
                ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
                ExpressionAttributeNames: { '#count': 'count' },
                ExpressionAttributeValues: { ':one': 1, ':max': max },
              },
            },
            { Put: { TableName: this.tableName, Item: { ...connectionKey(connection.workspaceId, connection.domain), ...connection } } },
            auditPut(this.auditTableName, audit),
          ],
        }),
      );
      return 'added';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const [claim, count] = error.CancellationReasons ?? [];
      if (claim?.Code === 'ConditionalCheckFailed') return 'taken';
      if (count?.Code === 'ConditionalCheckFailed') return 'overLimit';
      throw error;
    }
  }

  async activate(workspaceId: string, domain: string, verifiedAt: string, audit: AuditRecord): Promise<SsoConnection | undefined> {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: connectionKey(workspaceId, domain),
                UpdateExpression: 'SET #status = :active, verifiedAt = :at',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':active': 'active', ':at': verifiedAt },
              },
            },
            auditPut(this.auditTableName, audit),
          ],
        }),
      );
    } catch (error) {
      if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return undefined;
      throw error;
    }
    return this.find(workspaceId, domain);
  }

  async remove(workspaceId: string, domain: string, audit: AuditRecord): Promise<boolean> {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: this.tableName, Key: connectionKey(workspaceId, domain), ConditionExpression: 'attribute_exists(pk)' } },
            { Delete: { TableName: this.tableName, Key: domainClaimKey(domain), ConditionExpression: 'workspaceId = :workspace', ExpressionAttributeValues: { ':workspace': workspaceId } } },
            { Update: { TableName: this.tableName, Key: countKey(workspaceId), UpdateExpression: 'ADD #count :minusOne', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':minusOne': -1 } } },
            auditPut(this.auditTableName, audit),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }
}
