import { API_KEY_PREFIX, bearerToken, couldBeApiKey, hashApiKey, isExpired, issueApiKey, judgeKey, LAST_USE_PRECISION_MS, lastUseDue, verdictFor, type ApiKeyRecord } from '../../../../functions/shared/domain/accounts/api-keys';
import { ALL_SCOPES } from '../../../../functions/shared/domain/accounts/permissions';
import { Messages } from '../../../../functions/shared/domain/messages';
import { legacyAccount, openAccount } from '../../../../functions/shared/domain/accounts/accounts';

const nowMs = Date.parse('2026-11-22T10:00:00.000Z');

describe('issued API keys', () => {
  it('are 256-bit random secrets with a recognisable prefix, stored only as their SHA-256', () => {
    const account = openAccount('PRO', { nowMs, monthlyLimit: 10 });
    const { apiKey, record } = issueApiKey(account, { nowMs, label: 'ci' });
    expect(apiKey.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(Buffer.from(apiKey.slice(API_KEY_PREFIX.length), 'base64url')).toHaveLength(32);
    expect(record).toEqual({
      keyHash: hashApiKey(apiKey),
      keyId: expect.stringMatching(/^key_[0-9a-f]{16}$/),
      plan: 'PRO',
      status: 'active',
      createdAt: '2026-11-22T10:00:00.000Z',
      label: 'ci',
      monthlyLimit: 10,
      accountId: account.accountId,
      owner: `acct:${account.accountId}`,
    });
    expect(account.accountId).toMatch(/^acct_[0-9a-f]{16}$/);
    expect(JSON.stringify(record)).not.toContain(apiKey);
    expect(record.keyHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('never repeat', () => {
    const account = openAccount('FREE', { nowMs });
    const keys = new Set(Array.from({ length: 200 }, () => issueApiKey(account, { nowMs }).apiKey));
    expect(keys.size).toBe(200);
  });
});

describe('the Authorization header', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER   abc  ', 'abc'],
    ['  Bearer abc', 'abc'],
  ])('%j carries the key', (header, key) => {
    expect(bearerToken(header)).toBe(key);
  });

  it.each([undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'abc', 'Bearer a b', 'Token abc'])('%j carries none', (header) => {
    expect(bearerToken(header)).toBeUndefined();
  });
});

const NOW = Date.parse('2026-06-01T00:00:00.000Z');

describe('judging a key', () => {
  const record: ApiKeyRecord = { keyHash: 'h', keyId: 'key_1', plan: 'INDIE', status: 'active', createdAt: '2026-01-01T00:00:00.000Z' };

  it('allows an active key and passes its account, plan and limit on', () => {
    expect(judgeKey('Bearer k', { ...record, monthlyLimit: 7, accountId: 'acct_9', owner: 'acct:acct_9' }, NOW)).toEqual({
      allowed: true,
      keyId: 'key_1',
      accountId: 'acct_9',
      owner: 'acct:acct_9',
      plan: 'INDIE',
      monthlyLimit: 7,
      scopes: ALL_SCOPES,
    });
  });

  it('gives a key issued before accounts an account of its own, owning the links it made', () => {
    expect(judgeKey('Bearer k', record, NOW)).toEqual({ allowed: true, keyId: 'key_1', accountId: 'acct_1', owner: 'key:key_1', plan: 'INDIE', scopes: ALL_SCOPES });
    expect(legacyAccount(record)).toMatchObject({ accountId: 'acct_1', owner: 'key:key_1', plan: 'INDIE' });
  });

  it('carries a scoped key\'s scopes and name, and refuses it once expired like a revoked one', () => {
    const scoped: ApiKeyRecord = { ...record, scopes: ['links:read'], label: 'reporting', expiresAt: new Date(NOW + 1000).toISOString() };
    expect(judgeKey('Bearer k', scoped, NOW)).toMatchObject({ allowed: true, scopes: ['links:read'], label: 'reporting' });
    expect(judgeKey('Bearer k', scoped, NOW + 1000)).toEqual({ allowed: false, message: Messages.apiKeyInvalid });
    expect(isExpired({ expiresAt: 'not a time' }, NOW)).toBe(true);
  });

  it('asks for a key when there is no Bearer token', () => {
    expect(judgeKey(undefined, undefined, NOW)).toEqual({ allowed: false, message: Messages.apiKeyRequired });
    expect(judgeKey('Basic x', record, NOW)).toEqual({ allowed: false, message: Messages.apiKeyRequired });
  });

  it.each(['inactive', 'revoked'] as const)('refuses a %s key like an unknown one', (status) => {
    expect(judgeKey('Bearer k', { ...record, status }, NOW)).toEqual({ allowed: false, message: Messages.apiKeyInvalid });
    expect(judgeKey('Bearer k', undefined, NOW)).toEqual({ allowed: false, message: Messages.apiKeyInvalid });
  });

  it.each([
    ['a short token', 'Bearer shk_abc'],
    ['another prefix', `Bearer sk_${'a'.repeat(43)}`],
    ['one character too many', `Bearer shk_${'a'.repeat(44)}`],
    ['a character outside base64url', `Bearer shk_${'a'.repeat(42)}+`],
    ['non-ASCII', `Bearer shk_${'é'.repeat(43)}`],
  ])('refuses %s without reading the key table', async (_why, header) => {
    const lookups: string[] = [];
    const verdict = await verdictFor(header, async (keyHash) => {
      lookups.push(keyHash);
      return undefined;
    }, NOW);
    expect(verdict).toEqual({ allowed: false, message: Messages.apiKeyInvalid });
    expect(lookups).toEqual([]);
  });

  it('reads the table once, under the hash, for a token shaped like a key', async () => {
    const { apiKey, record: issued } = issueApiKey({ accountId: 'acct_1', owner: 'acct:acct_1', plan: 'PRO' }, { nowMs: 0 });
    expect(couldBeApiKey(apiKey)).toBe(true);
    const lookups: string[] = [];
    const verdict = await verdictFor(`Bearer ${apiKey}`, async (keyHash) => {
      lookups.push(keyHash);
      return issued;
    }, NOW);
    expect(lookups).toEqual([hashApiKey(apiKey)]);
    expect(verdict).toMatchObject({ allowed: true, keyId: issued.keyId });
  });
});

describe('a key\'s last use', () => {
  const at = Date.parse('2026-11-25T10:00:00.000Z');
  it('is due for writing when never noted, or noted an hour ago or more; not within the hour', () => {
    expect(lastUseDue({}, at)).toBe(true);
    expect(lastUseDue({ lastUsedAt: '2026-11-25T09:00:00.000Z' }, at)).toBe(true);
    expect(lastUseDue({ lastUsedAt: '2026-11-25T09:00:00.001Z' }, at)).toBe(false);
    expect(lastUseDue({ lastUsedAt: '2026-11-25T10:00:00.000Z' }, at + LAST_USE_PRECISION_MS - 1)).toBe(false);
  });
});
