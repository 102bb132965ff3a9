import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { AUDIT_RETENTION_DAYS, type AuditRecord } from '../domain/audit/audit-record';

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
