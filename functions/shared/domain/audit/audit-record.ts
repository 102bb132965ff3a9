import { randomUUID } from 'node:crypto';
import type { Actor } from '../accounts/caller';

/** What an audited change was done to. */
export const AUDIT_TARGET_TYPES = ['link', 'domain', 'webhook', 'key', 'member', 'invitation', 'sso', 'workspace'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** One field of a change: what it was and what it became (absent: the field did not exist on that side). */
export interface FieldChange {
  before?: unknown;
  after?: unknown;
}

/**
 * One change to a workspace, as the audit log keeps it for 365 days: who, what, on what, which fields moved, and the
 * request that did it. Written in the same DynamoDB transaction as the change itself, so there is never one without
 * the other (see adapters/audit-items.ts).
 */
export interface AuditRecord {
  workspaceId: string;
  id: string;
  at: string;
  actor: Actor;
  /** `<target type>.<past participle>`: `link.updated`, `member.removed`, `key.created`… */
  action: string;
  target: { type: AuditTargetType; id: string };
  changes: Record<string, FieldChange>;
  requestId?: string;
}

/**
 * Fields never written into a record, by name, whatever the target: secrets and what would let one be guessed.
 * A changed one is recorded as `{ changed: true }` so the log still says that it moved.
 */
const SECRET_FIELDS = new Set(['password', 'passwordHash', 'keyHash', 'apiKey', 'secret', 'secrets', 'previousSecret', 'sealedSecret', 'signingSecret', 'tokenHash', 'token', 'clientSecret']);

export const REDACTED = { changed: true } as const;

/** The fields that differ between `before` and `after` (either may be absent: a creation, a deletion), secrets redacted. */
export function fieldChanges(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): Record<string, FieldChange> {
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: Record<string, FieldChange> = {};
  for (const name of [...names].sort()) {
    const was = before?.[name];
    const is = after?.[name];
    if (JSON.stringify(was) === JSON.stringify(is)) continue;
    if (SECRET_FIELDS.has(name)) {
      changes[name] = { after: REDACTED };
      continue;
    }
    changes[name] = { ...(was !== undefined ? { before: was } : {}), ...(is !== undefined ? { after: is } : {}) };
  }
  return changes;
}

export function auditRecord(fields: Omit<AuditRecord, 'id' | 'at'> & { nowMs: number }): AuditRecord {
  const { nowMs, ...rest } = fields;
  return { ...rest, id: randomUUID(), at: new Date(nowMs).toISOString() };
}

/** Records go after 365 days (the table's TTL). */
export const AUDIT_RETENTION_DAYS = 365;
