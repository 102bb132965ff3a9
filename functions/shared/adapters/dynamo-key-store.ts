import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KEYS_BY_ACCOUNT_INDEX } from '../config';
import { scanAll } from './scan-all';
import { auditPut } from './audit-items';
import { LAST_USE_PRECISION_MS, type ApiKeyRecord } from '../domain/accounts/api-keys';
import type { AuditRecord } from '../domain/audit/audit-record';
import type { Plan } from '../domain/limits/plans';
import type { WorkspaceKeyStore } from '../domain/ports';

/**
 * API keys, stored under the SHA-256 of the key. The authorizer reads them (and notes their last use); the keys
 * function and the ops CLI make and revoke them, each change beside its audit record in the audit table.
 */
export class DynamoKeyStore implements WorkspaceKeyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** The audit log; only the authorizer, which changes no key, goes without. */
    private readonly auditTable?: string,
  ) {}

  /** Strongly consistent: a key revoked (or a plan changed) a moment ago is seen as such on the very next request. */
  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { keyHash }, ConsistentRead: true }));
    return Item as ApiKeyRecord | undefined;
  }

  /**
   * From the sparse index of keys by account (keys issued before accounts have none and are not in it). Revoked keys
   * stay in the table for the operators, so the filter drops them here.
   */
  async keysOf(accountId: string): Promise<ApiKeyRecord[]> {
    const items: ApiKeyRecord[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: KEYS_BY_ACCOUNT_INDEX,
          KeyConditionExpression: 'accountId = :accountId',
          FilterExpression: '#status <> :revoked',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':accountId': accountId, ':revoked': 'revoked' },
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...((page.Items ?? []) as ApiKeyRecord[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  /** The key and its `key.created` record, in one transaction. */
  async add(record: ApiKeyRecord, audit: AuditRecord): Promise<void> {
    await this.client.send(
      new TransactWriteCommand({
        TransactItems: [{ Put: { TableName: this.tableName, Item: record, ConditionExpression: 'attribute_not_exists(keyHash)' } }, auditPut(this.auditLog(), audit)],
      }),
    );
  }

  /** The revocation and its `key.revoked` record, in one transaction; false when the key was revoked meanwhile. */
  async revoke(record: ApiKeyRecord, audit: AuditRecord): Promise<boolean> {
    const sameAccount = record.accountId !== undefined;
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: { keyHash: record.keyHash },
                UpdateExpression: 'SET #status = :revoked',
                // Still the workspace's: a key is never revoked on the word of another workspace.
                ConditionExpression: `attribute_exists(keyHash) AND #status <> :revoked${sameAccount ? ' AND accountId = :accountId' : ''}`,
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':revoked': 'revoked', ...(sameAccount ? { ':accountId': record.accountId } : {}) },
              },
            },
            auditPut(this.auditLog(), audit),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  /**
   * Notes a request of the key, once an hour at most: the condition writes only over a value an hour old (or none),
   * so containers racing on one key write once. Names only keyHash and lastUsedAt (the authorizer's grant says so).
   */
  async recordUse(keyHash: string, nowMs: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { keyHash },
          UpdateExpression: 'SET lastUsedAt = :now',
          ConditionExpression: 'attribute_exists(keyHash) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt <= :staleFrom)',
          ExpressionAttributeValues: { ':now': new Date(nowMs).toISOString(), ':staleFrom': new Date(nowMs - LAST_USE_PRECISION_MS).toISOString() },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
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

  private auditLog(): string {
    if (!this.auditTable) throw new Error('this key store was made without the audit table: it cannot change keys');
    return this.auditTable;
  }
}
