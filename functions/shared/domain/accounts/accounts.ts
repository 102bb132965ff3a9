import { randomUUID } from 'node:crypto';
import type { Plan } from '../limits/plans';

/**
 * An account holds the plan, the monthly limit and the links; its keys are how it calls. The plan and the limit
 * are copied onto each of its keys, so that authorizing a request stays one read (the key); changing them
 * rewrites the account and its keys together (accounts set-plan), which bites on the next request.
 */
export interface AccountRecord {
  accountId: string;
  /** The partition of the links index this account's links live in (see legacyAccount for why it is not the id). */
  owner: string;
  plan: Plan;
  createdAt: string;
  label?: string;
  monthlyLimit?: number;
  /** The workspace's people must sign in with MFA (issue 29: set by an owner, PATCH /v2/workspace `security`). */
  mfaRequired?: boolean;
}

export const ACCOUNT_ID_PREFIX = 'acct_';

export function openAccount(plan: Plan, options: { label?: string; monthlyLimit?: number; nowMs: number }): AccountRecord {
  const accountId = `${ACCOUNT_ID_PREFIX}${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  return {
    accountId,
    owner: `acct:${accountId}`,
    plan,
    createdAt: new Date(options.nowMs).toISOString(),
    ...(options.label !== undefined ? { label: options.label } : {}),
    ...(options.monthlyLimit !== undefined ? { monthlyLimit: options.monthlyLimit } : {}),
  };
}

/**
 * Keys issued before accounts existed each stand for an account of their own, with no migration: its id is
 * derived from the key's, and its links partition is the owner those links were stored with (`key:<keyId>`), so
 * they are listed, viewed and managed as the account's from the first request on.
 */
export function legacyAccount(key: { keyId: string; plan: Plan; createdAt: string; label?: string; monthlyLimit?: number }): AccountRecord {
  return {
    accountId: `${ACCOUNT_ID_PREFIX}${key.keyId.replace(/^key_/, '')}`,
    owner: `key:${key.keyId}`,
    plan: key.plan,
    createdAt: key.createdAt,
    ...(key.label !== undefined ? { label: key.label } : {}),
    ...(key.monthlyLimit !== undefined ? { monthlyLimit: key.monthlyLimit } : {}),
  };
}

/**
 * The workspace (account) whose links partition `owner` is: `acct:<id>` for accounts, `key:<keyId>` for the
 * accounts keys made before accounts stand for (legacyAccount); undefined for v1's anonymous links, which no
 * workspace holds.
 */
export function workspaceOfOwner(owner: string): string | undefined {
  if (owner.startsWith(`acct:${ACCOUNT_ID_PREFIX}`)) return owner.slice('acct:'.length);
  if (owner.startsWith('key:key_')) return `${ACCOUNT_ID_PREFIX}${owner.slice('key:key_'.length)}`;
  return undefined;
}
