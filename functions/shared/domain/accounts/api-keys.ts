import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Messages } from '../messages';
import type { Plan } from '../limits/plans';
import { legacyAccount, type AccountRecord } from './accounts';
import { ALL_SCOPES, type Scope } from './permissions';

/** Recognisable prefix so secret scanners (and people) can tell a leaked key at a glance. */
export const API_KEY_PREFIX = 'shk_';
/** 32 random bytes: 256 bits, well past the 128 a guess-proof secret needs. */
const API_KEY_SECRET_BYTES = 32;

export const KEY_STATUSES = ['active', 'inactive', 'revoked'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/**
 * What is stored for a key: never the key itself, only its SHA-256. Plan, monthly limit and owner are copies of
 * the account's (see accounts.ts); keys issued before accounts have no accountId and stand for their own account.
 */
export interface ApiKeyRecord {
  keyHash: string;
  keyId: string;
  plan: Plan;
  status: KeyStatus;
  createdAt: string;
  label?: string;
  monthlyLimit?: number;
  accountId?: string;
  owner?: string;
  /** What the key may do; keys made before scopes have none stored and hold every scope. */
  scopes?: Scope[];
  /** ISO time after which the key is refused as an inactive one (the spec's 401). */
  expiresAt?: string;
  /** Who made it: a person through the API, or an operator; keys made before this record none (operators made them all). */
  createdBy?: KeyCreator;
  /** When the key last got a request through, to the hour (see lastUseDue). */
  lastUsedAt?: string;
}

/** Keys are made by people (never by keys: keys:create is people-only) or by operators through `npm run ops`. */
export type KeyCreator = { kind: 'user'; userId: string; email: string } | { kind: 'operator' };

/** What a new key may carry beyond its account's plan: a name, scopes (all when absent), an expiry and its maker. */
export interface KeyOptions {
  label?: string;
  scopes?: readonly Scope[];
  expiresAt?: string;
  createdBy?: KeyCreator;
  nowMs: number;
}

/** Every key ever issued: the prefix and 32 bytes in base64url (43 characters, no padding). */
const API_KEY_SHAPE = /^shk_[A-Za-z0-9_-]{43}$/;

/** A token of any other shape cannot be a key: it is refused without a read, so junk tokens cost no DynamoDB call. */
export function couldBeApiKey(token: string): boolean {
  return API_KEY_SHAPE.test(token);
}

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** A new key of `account`, carrying the account's plan, limit and owner so the authorizer needs no second read. */
export function issueApiKey(account: Pick<AccountRecord, 'accountId' | 'owner' | 'plan' | 'monthlyLimit'>, options: KeyOptions): { apiKey: string; record: ApiKeyRecord } {
  const apiKey = API_KEY_PREFIX + randomBytes(API_KEY_SECRET_BYTES).toString('base64url');
  const record: ApiKeyRecord = {
    keyHash: hashApiKey(apiKey),
    keyId: `key_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
    plan: account.plan,
    status: 'active',
    createdAt: new Date(options.nowMs).toISOString(),
    accountId: account.accountId,
    owner: account.owner,
    ...(options.label !== undefined ? { label: options.label } : {}),
    ...(account.monthlyLimit !== undefined ? { monthlyLimit: account.monthlyLimit } : {}),
    ...(options.scopes !== undefined ? { scopes: [...options.scopes] } : {}),
    ...(options.expiresAt !== undefined ? { expiresAt: options.expiresAt } : {}),
    ...(options.createdBy !== undefined ? { createdBy: options.createdBy } : {}),
  };
  return { apiKey, record };
}

/** The account a key belongs to: its own for keys issued before accounts. */
export function accountOfKey(record: ApiKeyRecord): { accountId: string; owner: string } {
  if (record.accountId && record.owner) return { accountId: record.accountId, owner: record.owner };
  const legacy = legacyAccount(record);
  return { accountId: legacy.accountId, owner: legacy.owner };
}

/** The key from `Authorization: Bearer <key>`: scheme case-insensitive, surrounding spaces tolerated. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

export type KeyVerdict =
  | { allowed: true; keyId: string; accountId: string; owner: string; plan: Plan; monthlyLimit?: number; scopes: readonly Scope[]; label?: string }
  | { allowed: false; message: string };

/** The authorizer's decision for an Authorization header: a key-shaped token costs one lookup, anything else none. */
export async function verdictFor(
  header: string | undefined,
  findByHash: (keyHash: string) => Promise<ApiKeyRecord | undefined>,
  nowMs: number,
): Promise<KeyVerdict> {
  const token = bearerToken(header);
  const record = token !== undefined && couldBeApiKey(token) ? await findByHash(hashApiKey(token)) : undefined;
  return judgeKey(header, record, nowMs);
}

/** A key past its expiry is as inactive as a revoked one: the same 401, nothing hinting that it once worked. */
export function isExpired(record: Pick<ApiKeyRecord, 'expiresAt'>, nowMs: number): boolean {
  return record.expiresAt !== undefined && !(Date.parse(record.expiresAt) > nowMs);
}

/** Decides what the authorizer answers for a header and the record (if any) stored under its key's hash. */
export function judgeKey(header: string | undefined, record: ApiKeyRecord | undefined, nowMs: number): KeyVerdict {
  if (bearerToken(header) === undefined) return { allowed: false, message: Messages.apiKeyRequired };
  if (!record || record.status !== 'active' || isExpired(record, nowMs)) return { allowed: false, message: Messages.apiKeyInvalid };
  return {
    allowed: true,
    keyId: record.keyId,
    ...accountOfKey(record),
    plan: record.plan,
    ...(record.monthlyLimit !== undefined ? { monthlyLimit: record.monthlyLimit } : {}),
    scopes: record.scopes ?? ALL_SCOPES,
    ...(record.label !== undefined ? { label: record.label } : {}),
  };
}

/**
 * `lastUsedAt` is kept to the hour: the authorizer writes it only when the stored value is absent or an hour old, so
 * a busy key costs one write an hour rather than one per request (and the write's condition repeats the test, so
 * containers racing on the same key write once).
 */
export const LAST_USE_PRECISION_MS = 3_600_000;

export function lastUseDue(record: Pick<ApiKeyRecord, 'lastUsedAt'>, nowMs: number): boolean {
  return record.lastUsedAt === undefined || !(Date.parse(record.lastUsedAt) > nowMs - LAST_USE_PRECISION_MS);
}
