import { auditRecord, fieldChanges, type AuditRecord } from '../audit/audit-record';
import { InvalidRequest, KeyNotFound, NotPermitted } from '../errors';
import { OwnMessages } from '../messages';
import type { WorkspaceKeyStore } from '../ports';
import { parseOrRefuse } from '../request-parsing';
import { accountOfKey, isExpired, issueApiKey, type ApiKeyRecord, type KeyCreator } from './api-keys';
import type { Actor, ApiKeyCaller } from './caller';
import { keyExpiry, keyRequestSchema, MAX_KEY_LIFETIME_DAYS, MAX_KEYS_PER_WORKSPACE } from './key-request';
import { ALL_SCOPES, roleAllows, scopesOfRole, type Role, type Scope } from './permissions';
import { mapWithConcurrency } from '../concurrency';

export interface KeyContext {
  caller: ApiKeyCaller;
  nowMs: number;
  /** The API request that made the change, for its audit record. */
  requestId?: string;
}

export const KEY_VIEW_STATUSES = ['active', 'inactive', 'expired'] as const;

/** A key as its workspace's people see it: never the secret (shown once, at creation) nor its hash. */
export interface KeyView {
  id: string;
  /** Empty for keys an operator made without a label. */
  name: string;
  scopes: Scope[];
  status: (typeof KEY_VIEW_STATUSES)[number];
  createdBy: KeyCreator;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

export function toKeyView(record: ApiKeyRecord, nowMs: number): KeyView {
  return {
    id: record.keyId,
    name: record.label ?? '',
    scopes: [...(record.scopes ?? ALL_SCOPES)],
    status: record.status !== 'active' ? 'inactive' : isExpired(record, nowMs) ? 'expired' : 'active',
    // Before people could make keys, only operators did.
    createdBy: record.createdBy ?? { kind: 'operator' },
    createdAt: record.createdAt,
    expiresAt: record.expiresAt ?? null,
    lastUsedAt: record.lastUsedAt ?? null,
  };
}

/**
 * A key never outranks the person who made it: it may hold only scopes their current role allows. Operators (npm
 * run ops) may give any scope; keys cannot make keys at all (keys:create is people-only, refused by the guard already).
 */
function assertGrantable(actor: Actor, requested: readonly Scope[]): void {
  if (actor.kind === 'operator') return;
  if (actor.kind === 'key') throw new NotPermitted('keys:create', OwnMessages.peopleOnly('keys:create'));
  const grantable = scopesOfRole(actor.role);
  const missing = requested.find((scope) => !grantable.includes(scope));
  if (missing) throw new NotPermitted(missing, OwnMessages.roleForbids(actor.role, missing));
}

function creatorOf(actor: Actor): KeyCreator {
  return actor.kind === 'user' ? { kind: 'user', userId: actor.userId, email: actor.email } : { kind: 'operator' };
}

/** POST /v2/keys: the one answer that holds the key itself; the table keeps only its hash. */
export async function createKey(body: object, context: KeyContext, keys: WorkspaceKeyStore): Promise<KeyView & { secret: string }> {
  const request = parseOrRefuse(keyRequestSchema(), body);
  const expiresAt = request.expiresAt === undefined ? undefined : keyExpiry(request.expiresAt, context.nowMs);
  if (request.expiresAt !== undefined && expiresAt === undefined) throw new InvalidRequest(OwnMessages.keyExpiresAt(MAX_KEY_LIFETIME_DAYS));
  const { caller, nowMs } = context;
  assertGrantable(caller.actor, request.scopes);
  if ((await keys.keysOf(caller.accountId)).length >= MAX_KEYS_PER_WORKSPACE) throw new InvalidRequest(OwnMessages.keyLimit(MAX_KEYS_PER_WORKSPACE));
  const { apiKey, record } = issueApiKey(
    { accountId: caller.accountId, owner: caller.owner, plan: caller.plan, ...(caller.monthlyLimitOverride !== undefined ? { monthlyLimit: caller.monthlyLimitOverride } : {}) },
    { label: request.name, scopes: request.scopes, ...(expiresAt !== undefined ? { expiresAt } : {}), createdBy: creatorOf(caller.actor), nowMs },
  );
  await keys.add(record, keyCreatedRecord(record, caller.actor, nowMs, context.requestId));
  return { ...toKeyView(record, nowMs), secret: apiKey };
}

/** The audit record of a new key: the record as stored, its hash redacted by name (audit-record.ts). */
export function keyCreatedRecord(record: ApiKeyRecord, actor: Actor, nowMs: number, requestId?: string) {
  return auditRecord({
    workspaceId: accountOfKey(record).accountId,
    actor,
    action: 'key.created',
    target: { type: 'key', id: record.keyId },
    changes: fieldChanges(undefined, { ...record }),
    ...(requestId !== undefined ? { requestId } : {}),
    nowMs,
  });
}

export async function listKeys(context: KeyContext, keys: WorkspaceKeyStore): Promise<{ keys: KeyView[] }> {
  const records = await keys.keysOf(context.caller.accountId);
  return { keys: records.map((record) => toKeyView(record, context.nowMs)) };
}

const KEY_ID = /^key_[A-Za-z0-9_-]{1,64}$/;

/** DELETE /v2/keys/{id}: refused from the next request on. Another workspace's key and no key at all answer the same. */
export async function revokeKey(id: string, context: KeyContext, keys: WorkspaceKeyStore): Promise<void> {
  const record = KEY_ID.test(id) ? (await keys.keysOf(context.caller.accountId)).find((candidate) => candidate.keyId === id) : undefined;
  if (!record) throw new KeyNotFound(OwnMessages.keyNotFound);
  if (!(await keys.revoke(record, keyRevokedRecord(record, context)))) throw new KeyNotFound(OwnMessages.keyNotFound);
}

function keyRevokedRecord(record: ApiKeyRecord, { caller, nowMs, requestId }: KeyContext): AuditRecord {
  return auditRecord({
    workspaceId: caller.accountId,
    actor: caller.actor,
    action: 'key.revoked',
    target: { type: 'key', id: record.keyId },
    changes: fieldChanges({ status: record.status }, { status: 'revoked' }),
    ...(requestId !== undefined ? { requestId } : {}),
    nowMs,
  });
}

/** Revocations written at once when a person's keys go (each a transaction with its audit record). */
const REVOCATIONS_IN_FLIGHT = 10;

const isMadeBy = (record: ApiKeyRecord, userId: string) => record.createdBy?.kind === 'user' && record.createdBy.userId === userId;

/**
 * A key never outranks the person who made it, after its making too: when a person's role in the workspace changes,
 * the keys they made there holding a scope `role` does not allow are revoked; when they leave (no role, so no scope),
 * every key they made there. Revoked rather than narrowed: a key's scopes are fixed when it is made (nothing else
 * changes them), and a key refused outright is noticed at once where a quietly narrowed one would fail on some calls
 * only; its maker makes a new one within their new role, if that role makes keys. Keys of operators, and keys from
 * before makers were recorded, follow no person and stay. Each revocation is a `key.revoked` of its own, by whoever
 * changed the person, in their request; a key revoked meanwhile is skipped, so running this again changes nothing.
 */
export async function revokeKeysBeyondRole(userId: string, role: Role | undefined, context: KeyContext, keys: WorkspaceKeyStore): Promise<void> {
  const allowed = (scope: Scope) => role !== undefined && roleAllows(role, scope);
  const beyond = (await keys.keysOf(context.caller.accountId)).filter((record) => isMadeBy(record, userId) && !(record.scopes ?? ALL_SCOPES).every(allowed));
  // A few transactions at a time: a person may have made all of a workspace's 100 keys.
  await mapWithConcurrency(beyond, REVOCATIONS_IN_FLIGHT, (record) => keys.revoke(record, keyRevokedRecord(record, context)));
}
