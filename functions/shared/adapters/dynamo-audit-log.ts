import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../domain/audit/audit-record';
import type { AuditFilter, AuditLog } from '../domain/ports';
import { auditPut } from './audit-items';

const workspaceKey = (workspaceId: string) => `ws#${workspaceId}`;

/** An item as the record it holds: the keys and the TTL are the table's. */
function toRecord(item: Record<string, unknown>): AuditRecord {
  const { pk: _pk, sk: _sk, ttl: _ttl, ...record } = item;
  return record as unknown as AuditRecord;
}

/** The sort keys a time range covers: `<ISO time>#<id>`, so `to` takes in every id at that very millisecond. */
function timeRange(filter: AuditFilter): { condition: string; values: Record<string, string> } {
  if (filter.from === undefined && filter.to === undefined) return { condition: '', values: {} };
  return { condition: ' AND sk BETWEEN :from AND :to', values: { ':from': filter.from ?? '0', ':to': `${filter.to ?? '9999'}#~` } };
}

function filterExpression(filter: AuditFilter): { expression?: string; names: Record<string, string>; values: Record<string, string> } {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, string> = {};
  if (filter.actor !== undefined) {
    parts.push('(#actor.keyId = :actor OR #actor.userId = :actor OR #actor.kind = :actor)');
    names['#actor'] = 'actor';
    values[':actor'] = filter.actor;
  }
  if (filter.action !== undefined) {
    parts.push('#action = :action');
    names['#action'] = 'action';
    values[':action'] = filter.action;
  }
  if (filter.target !== undefined) {
    parts.push('#target.id = :target');
    names['#target'] = 'target';
    values[':target'] = filter.target;
  }
  return { ...(parts.length > 0 ? { expression: parts.join(' AND ') } : {}), names, values };
}

/**
 * The audit table (`ws#<workspace>` / `<ISO time>#<id>`, TTL 365 days). Writers append, conditionally, so a record
 * is never overwritten (a redelivered stream record finds its own); the reader queries a workspace newest first.
 * Nothing here updates or deletes a record, and the API's functions hold no grant that could (service-stack.ts).
 */
export class DynamoAuditLog implements AuditLog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async append(record: AuditRecord): Promise<boolean> {
    try {
      await this.client.send(new PutCommand(auditPut(this.tableName, record).Put as never));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async page(workspaceId: string, filter: AuditFilter, page: { limit: number; after?: string; maxExamined: number }): Promise<{ records: AuditRecord[]; next?: string }> {
    const range = timeRange(filter);
    const filtered = filterExpression(filter);
    const records: AuditRecord[] = [];
    let start: Record<string, unknown> | undefined = page.after === undefined ? undefined : { pk: workspaceKey(workspaceId), sk: page.after };
    let examined = 0;
    // One more than asked, so that `next` is exact and a full last page does not lead to an empty one.
    while (records.length <= page.limit && examined < page.maxExamined) {
      const { Items = [], ScannedCount = 0, LastEvaluatedKey } = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: `pk = :pk${range.condition}`,
          ...(filtered.expression ? { FilterExpression: filtered.expression, ExpressionAttributeNames: filtered.names } : {}),
          ExpressionAttributeValues: { ':pk': workspaceKey(workspaceId), ...range.values, ...filtered.values },
          ScanIndexForward: false,
          Limit: Math.min(page.maxExamined - examined, filtered.expression ? 100 : page.limit + 1),
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      examined += ScannedCount;
      for (const item of Items) {
        records.push(toRecord(item));
        if (records.length > page.limit) break;
      }
      start = LastEvaluatedKey;
      if (!start) break;
    }
    if (records.length > page.limit) {
      const shown = records.slice(0, page.limit);
      const last = shown[shown.length - 1] as AuditRecord;
      return { records: shown, next: `${last.at}#${last.id}` };
    }
    // Fewer than asked: the log ended, or this page examined all it may (the next starts where it stopped).
    return { records, ...(start ? { next: String(start.sk) } : {}) };
  }
}
