import { type DynamoAccountStore } from '../../functions/shared/adapters/dynamo-account-store';
import { type DynamoKeyStore } from '../../functions/shared/adapters/dynamo-key-store';
import { legacyAccount, openAccount, type AccountRecord } from '../../functions/shared/domain/accounts/accounts';
import { accountOfKey, issueApiKey, type ApiKeyRecord } from '../../functions/shared/domain/accounts/api-keys';
import type { Plan } from '../../functions/shared/domain/limits/plans';
import { OPERATOR } from '../../functions/shared/domain/audit/audit-stamp';
import { changeRecord } from '../../functions/shared/domain/audit/change-record';

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
  async open(plan: Plan, options: { label?: string; monthlyLimit?: number; nowMs: number }) {
    const account = openAccount(plan, options);
    await this.accounts.add(account);
    return { account, ...(await this.issueKey(account, options)) };
  }

  async addKey(accountId: string, options: { label?: string; nowMs: number }) {
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

  /**
   * The account first (with its audit record, in one transaction), then each of its keys: the authorizer reads the
   * plan from the key, on the next request.
   */
  async setPlan(accountId: string, plan: Plan, nowMs = Date.now()): Promise<AccountRecord | undefined> {
    const account = await this.materialise(accountId);
    if (!account) return undefined;
    const audit = changeRecord({ workspaceId: accountId, author: OPERATOR, action: 'workspace.updated', target: { type: 'workspace', id: accountId }, before: { plan: account.plan }, after: { plan }, nowMs });
    await this.accounts.setPlan(accountId, plan, audit);
    const changed = { ...account, plan };
    for (const key of await this.keysOf(accountId)) await this.keys.assignToAccount(key.keyHash, changed);
    return changed;
  }

  private async issueKey(account: AccountRecord, options: { label?: string; nowMs: number }) {
    const { apiKey, record } = issueApiKey(account, options);
    await this.keys.add(record);
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
