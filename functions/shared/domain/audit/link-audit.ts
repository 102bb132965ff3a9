import { workspaceOfOwner } from '../accounts/accounts';
import { fieldChanges, type AuditRecord } from './audit-record';
import type { AuditStamp } from './audit-stamp';

/** The item attribute a link's audited change is stamped in (see audit-stamp.ts). */
export const AUDIT_STAMP_ATTRIBUTE = 'auditStamp';

/**
 * What a link's record shows of it: not its key (the target), owner (the workspace), the stamp, nor what visits
 * and caches move on their own (clicks, leases, the TTL) or what dates the change itself (the record's time).
 */
const UNRECORDED = new Set([AUDIT_STAMP_ATTRIBUTE, 'code', 'owner', 'clicks', 'ttl', 'createdAt', 'updatedAt', 'cacheLeaseUntil', 'cacheSealedUntil']);

const recorded = (item: Record<string, unknown>) => Object.fromEntries(Object.entries(item).filter(([name]) => !UNRECORDED.has(name)));

function stampOf(item: Record<string, unknown> | undefined): AuditStamp | undefined {
  const stamp = item?.[AUDIT_STAMP_ATTRIBUTE] as Partial<AuditStamp> | undefined;
  return typeof stamp?.id === 'string' && typeof stamp.action === 'string' && typeof stamp.at === 'string' && stamp.actor ? (stamp as AuditStamp) : undefined;
}

/** One committed change of the links table, as its stream hands it over (items as stored). */
export interface LinkTableChange {
  /** The stream record's id: the audit record's, so a redelivered record writes nothing twice. */
  eventId: string;
  kind: 'INSERT' | 'MODIFY' | 'REMOVE';
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

/**
 * The audit record of a committed change to a link, or undefined when it is none: a write that brought no new
 * stamp (a click, a lease, a used-up link's retirement, a TTL removal) or a link no workspace holds (v1's).
 */
export function linkAuditRecord(change: LinkTableChange): AuditRecord | undefined {
  if (change.kind === 'REMOVE' || !change.after) return undefined;
  const stamp = stampOf(change.after);
  if (!stamp || stampOf(change.before)?.id === stamp.id) return undefined;
  const workspaceId = workspaceOfOwner(String(change.after.owner ?? ''));
  if (workspaceId === undefined) return undefined;
  return {
    workspaceId,
    id: change.eventId,
    at: stamp.at,
    actor: stamp.actor,
    action: stamp.action,
    target: { type: 'link', id: String(change.after.code) },
    changes: fieldChanges(change.before && change.kind === 'MODIFY' ? recorded(change.before) : undefined, recorded(change.after)),
    ...(stamp.requestId === undefined ? {} : { requestId: stamp.requestId }),
  };
}
