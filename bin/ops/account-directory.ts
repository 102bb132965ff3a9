import { type DynamoAccountStore } from '../../functions/shared/adapters/dynamo-account-store';
import { type DynamoKeyStore } from '../../functions/shared/adapters/dynamo-key-store';
import { legacyAccount, openAccount, type AccountRecord } from '../../functions/shared/domain/accounts/accounts';
import { accountOfKey, issueApiKey, type ApiKeyRecord } from '../../functions/shared/domain/accounts/api-keys';
import { keyCreatedRecord } from '../../functions/shared/domain/accounts/key-management';
import { auditRecord, fieldChanges } from '../../functions/shared/domain/audit/audit-record';
import type { Scope } from '../../functions/shared/domain/accounts/permissions';
import type { Plan } from '../../functions/shared/domain/limits/plans';

/** What an operator may give a new key: a label, scopes (every one when absent) and an expiry. */
export interface OperatorKeyOptions {
  label?: string;
  scopes?: readonly Scope[];
  expiresAt?: string;
  nowMs: number;
}

const OPERATOR = { kind: 'operator' } as const;

/**
 * Accounts and their keys as operators see them: the accounts table, plus the accounts that keys issued before
 * accounts stand for (which get a row of their own the first time an operator changes them).
 */
export class AccountDirectory {
  constructor(
    private readonly keys: DynamoKeyStore,
    private readonly accounts: DynamoAccountStore,
  ) {}

  /** A new account with its first key; the key is returned once and only its hash is stored. */
  async open(plan: Plan, options: OperatorKeyOptions & { monthlyLimit?: number }) {
    const { monthlyLimit, ...keyOptions } = options;
    const account = openAccount(plan, { nowMs: options.nowMs, ...(options.label !== undefined ? { label: options.label } : {}), ...(monthlyLimit !== undefined ? { monthlyLimit } : {}) });
    await this.accounts.add(account);
    return { account, ...(await this.issueKey(account, keyOptions)) };
  }

  async addKey(accountId: string, options: OperatorKeyOptions) {
    const account = await this.materialise(accountId);
    return account ? { account, ...(await this.issueKey(account, options)) } : undefined;
  }

  async find(accountId: string): Promise<AccountRecord | undefined> {
    return (await this.accounts.find(accountId)) ?? (await this.legacyAccounts()).find((account) => account.accountId === accountId);
  }

  async list(): Promise<AccountRecord[]> {
    return [...(await this.accounts.list()), ...(await this.legacyAccounts())].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async keysOf(accountId: string): Promise<ApiKeyRecord[]> {
    return (await this.keys.list()).filter((key) => accountOfKey(key).accountId === accountId);
  }

  /** The account first, then each of its keys: the authorizer reads the plan from the key, on the next request. */
  async setPlan(accountId: string, plan: Plan): Promise<AccountRecord | undefined> {
    const account = await this.materialise(accountId);
    if (!account) return undefined;
    await this.accounts.setPlan(accountId, plan);
    const changed = { ...account, plan };
    for (const key of await this.keysOf(accountId)) await this.keys.assignToAccount(key.keyHash, changed);
    return changed;
  }

  /** Revoked by an operator, recorded as the operator's in the key's workspace; false when no live key has this id. */
  async revokeKey(keyId: string, nowMs: number): Promise<boolean> {
    const record = (await this.keys.list()).find((candidate) => candidate.keyId === keyId && candidate.status !== 'revoked');
    if (!record) return false;
    const audit = auditRecord({
      workspaceId: accountOfKey(record).accountId,
      actor: OPERATOR,
      action: 'key.revoked',
      target: { type: 'key', id: record.keyId },
      changes: fieldChanges({ status: record.status }, { status: 'revoked' }),
      nowMs,
    });
    return this.keys.revoke(record, audit);
  }

  /** An operator's key is recorded in its workspace's audit log as the operator's, in the same transaction. */
  private async issueKey(account: AccountRecord, options: OperatorKeyOptions) {
    const { apiKey, record } = issueApiKey(account, { ...options, createdBy: OPERATOR });
    await this.keys.add(record, keyCreatedRecord(record, OPERATOR, options.nowMs));
    return { apiKey, record };
  }

  /** The stored account, or the legacy account of a pre-account key, stored now and stamped on that key. */
  private async materialise(accountId: string): Promise<AccountRecord | undefined> {
    const stored = await this.accounts.find(accountId);
    if (stored) return stored;
    const legacyKey = (await this.keys.list()).find((key) => !key.accountId && legacyAccount(key).accountId === accountId);
    if (!legacyKey) return undefined;
    const account = legacyAccount(legacyKey);
    await this.accounts.add(account);
    await this.keys.assignToAccount(legacyKey.keyHash, account);
    return account;
  }

  private async legacyAccounts(): Promise<AccountRecord[]> {
    return (await this.keys.list()).filter((key) => !key.accountId).map(legacyAccount);
  }
}
