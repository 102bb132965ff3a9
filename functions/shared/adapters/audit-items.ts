import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { AUDIT_RETENTION_DAYS, type AuditRecord } from '../domain/audit/audit-record';
import { AUDIT_STAMP_ATTRIBUTE } from '../domain/audit/link-audit';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The audit record of a change, as one more item of the change's own `TransactWriteItems`: both are written or
 * neither (no change without its record, no record without its change). Newest first within a workspace: the sort
 * key starts with the time.
 */
export function auditPut(tableName: string, record: AuditRecord): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: {
        pk: `ws#${record.workspaceId}`,
        sk: `${record.at}#${record.id}`,
        ...record,
        ttl: Math.floor(Date.parse(record.at) / 1000) + AUDIT_RETENTION_DAYS * 86_400,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * Counting clicks (a limited link's visit, the aggregator's count of the others) removes the last change's audit
 * stamp from the link: that change's stream record carried it already, and nothing reads it from the item. The item,
 * its index row and every later click's stream record (both images) are some 250 bytes smaller, and the audit
 * recorder's filter (lib/audit-log.ts) keeps those records from waking it. Issue 28: a maxClicks visit's write is
 * what DynamoDB Local's single write queue, and so the visits' rate, waits on.
 */
export const UNSTAMPING = `REMOVE ${AUDIT_STAMP_ATTRIBUTE}`;
