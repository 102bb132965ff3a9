import type { AuditRecord } from '../audit/audit-record';
import type { ChangeAuthor } from '../audit/audit-stamp';
import { auditedFields, changeRecord } from '../audit/change-record';
import type { DomainRecord } from './custom-domain';

/** What a domain's record shows of it: its status and what its owner set; not its schedule or DNS records. */
const DOMAIN_FIELDS = ['status', 'statusReason', 'isDefault', 'rootUrl', 'notFoundUrl', 'expiredUrl', 'verifiedAt'] as const satisfies readonly (keyof DomainRecord)[];

/** Who a domain change is recorded as by, and in which workspace (the domain's owner's). */
export interface DomainChangeAuthor {
  author: ChangeAuthor;
  workspaceId: string;
}

/** The record of `action` on the domain, from what it was (absent: a claim) to what it becomes (absent: a removal). */
export function domainChangeRecord(action: string, by: DomainChangeAuthor, before: DomainRecord | undefined, after: DomainRecord | undefined, nowMs: number): AuditRecord {
  const domain = (after ?? before)?.domain ?? '';
  return changeRecord({
    workspaceId: by.workspaceId,
    author: by.author,
    action,
    target: { type: 'domain', id: domain },
    before: auditedFields(before, DOMAIN_FIELDS),
    after: auditedFields(after, DOMAIN_FIELDS),
    nowMs,
  });
}

/** The domain as a status change leaves it: its new status and reason (none: the reason goes), verified when it says so. */
export function transitioned(record: DomainRecord, status: DomainRecord['status'], reason: string | undefined, verifiedAt?: string): DomainRecord {
  const { statusReason: _reason, ...rest } = record;
  return { ...rest, status, ...(reason === undefined ? {} : { statusReason: reason }), ...(verifiedAt === undefined ? {} : { verifiedAt }) };
}
