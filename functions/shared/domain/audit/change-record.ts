import { fieldChanges, auditRecord, type AuditRecord, type AuditTargetType } from './audit-record';
import type { ChangeAuthor } from './audit-stamp';

/** The fields of `value` named in `fields` (absent ones left out): what a record shows of a target. */
export function auditedFields<T extends object>(value: T | undefined, fields: readonly (keyof T)[]): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  return Object.fromEntries(fields.filter((field) => value[field] !== undefined).map((field) => [field, value[field]]));
}

/** The record of one change by `author` to a workspace's target: the fields that moved between `before` and `after`. */
export function changeRecord(change: {
  workspaceId: string;
  author: ChangeAuthor;
  action: string;
  target: { type: AuditTargetType; id: string };
  before: Record<string, unknown> | undefined;
  after: Record<string, unknown> | undefined;
  nowMs: number;
}): AuditRecord {
  return auditRecord({
    workspaceId: change.workspaceId,
    actor: change.author.actor,
    action: change.action,
    target: change.target,
    changes: fieldChanges(change.before, change.after),
    nowMs: change.nowMs,
    ...(change.author.requestId === undefined ? {} : { requestId: change.author.requestId }),
  });
}
