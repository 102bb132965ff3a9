import type { AuditLog } from '../ports';
import type { AuditRecord } from './audit-record';

/** Appends the records of a stream batch (undefined: a change that is none); how many were new (a redelivery's are not). */
export async function appendLinkRecords(records: ReadonlyArray<AuditRecord | undefined>, log: Pick<AuditLog, 'append'>): Promise<number> {
  const appended = await Promise.all(records.flatMap((record) => (record ? [log.append(record)] : [])));
  return appended.filter(Boolean).length;
}
