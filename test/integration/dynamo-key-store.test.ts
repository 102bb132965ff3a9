import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoKeyStore } from '../../functions/shared/adapters/dynamo-key-store';
import { openAccount } from '../../functions/shared/domain/accounts/accounts';
import { issueApiKey, LAST_USE_PRECISION_MS, type ApiKeyRecord } from '../../functions/shared/domain/accounts/api-keys';
import { keyCreatedRecord } from '../../functions/shared/domain/accounts/key-management';
import { auditRecord, REDACTED } from '../../functions/shared/domain/audit/audit-record';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, freshTables } from '../support/local-stack';

const operator = { kind: 'operator' } as const;

async function storeOnFreshTables() {
  const tables = await freshTables();
  const keysTable = tables[StackOutputs.apiKeysTable] as string;
  const auditTable = tables[StackOutputs.auditTable] as string;
  return { store: new DynamoKeyStore(dynamo(), keysTable, auditTable), keysTable, auditTable };
}

const revocation = (record: ApiKeyRecord, nowMs: number) =>
  auditRecord({ workspaceId: record.accountId ?? '', actor: operator, action: 'key.revoked', target: { type: 'key', id: record.keyId }, changes: { status: { before: 'active', after: 'revoked' } }, nowMs });

async function auditItems(auditTable: string, workspaceId: string) {
  const { Items = [] } = await dynamo().send(new QueryCommand({ TableName: auditTable, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `ws#${workspaceId}` } }));
  return Items;
}

/** The authorizer's one read, against DynamoDB Local, with the request it sends recorded on the way out. */
describe('DynamoKeyStore.findByHash', () => {
  it('reads strongly consistently, so a key revoked a moment ago is refused on the very next request', async () => {
    const { store, keysTable } = await storeOnFreshTables();
    const client = dynamo();
    const sent: Array<Record<string, unknown>> = [];
    client.middlewareStack.add(
      (next) => async (args) => {
        sent.push(args.input as Record<string, unknown>);
        return next(args);
      },
      { step: 'initialize', name: 'recordInput' },
    );
    const nowMs = Date.now();
    const { record } = issueApiKey(openAccount('PRO', { nowMs }), { nowMs });
    await store.add(record, keyCreatedRecord(record, operator, nowMs));
    await store.revoke(record, revocation(record, nowMs));
    sent.length = 0;

    expect(await store.findByHash(record.keyHash)).toMatchObject({ status: 'revoked' });
    expect(sent).toEqual([expect.objectContaining({ TableName: keysTable, Key: { keyHash: record.keyHash }, ConsistentRead: true })]);
    client.middlewareStack.remove('recordInput');
  });
});

describe('a workspace\'s keys and their audit records', () => {
  it('writes a new key and its key.created record together, the record holding neither the key nor its hash', async () => {
    const { store, auditTable } = await storeOnFreshTables();
    const nowMs = Date.now();
    const account = openAccount('PRO', { nowMs });
    const { apiKey, record } = issueApiKey(account, { nowMs, label: 'ci 日本', scopes: ['links:read'] });
    await store.add(record, keyCreatedRecord(record, operator, nowMs, 'req-1'));

    const [item] = await auditItems(auditTable, account.accountId);
    expect(item).toMatchObject({ action: 'key.created', actor: operator, target: { type: 'key', id: record.keyId }, requestId: 'req-1' });
    expect(item?.changes.keyHash).toEqual({ after: REDACTED });
    expect(item?.changes.scopes).toEqual({ after: ['links:read'] });
    expect(JSON.stringify(item)).not.toContain(record.keyHash);
    expect(JSON.stringify(item)).not.toContain(apiKey);
  });

  it('writes no audit record when the key cannot be written (the same hash twice)', async () => {
    const { store, auditTable } = await storeOnFreshTables();
    const nowMs = Date.now();
    const account = openAccount('PRO', { nowMs });
    const { record } = issueApiKey(account, { nowMs });
    await store.add(record, keyCreatedRecord(record, operator, nowMs));
    await expect(store.add(record, keyCreatedRecord(record, operator, nowMs + 1))).rejects.toThrow();
    expect(await auditItems(auditTable, account.accountId)).toHaveLength(1);
  });

  it('lists a workspace\'s live keys from its index, oldest first: not revoked ones, not another workspace\'s, not keys from before accounts', async () => {
    const { store, keysTable } = await storeOnFreshTables();
    const nowMs = Date.now();
    const account = openAccount('PRO', { nowMs });
    const other = openAccount('PRO', { nowMs });
    const second = issueApiKey(account, { nowMs: nowMs + 1000, label: 'second' }).record;
    const first = issueApiKey(account, { nowMs, label: 'first' }).record;
    const revoked = issueApiKey(account, { nowMs: nowMs + 2000, label: 'revoked' }).record;
    const elsewhere = issueApiKey(other, { nowMs }).record;
    for (const record of [second, first, revoked, elsewhere]) await store.add(record, keyCreatedRecord(record, operator, nowMs));
    await store.revoke(revoked, revocation(revoked, nowMs));
    // A key issued before accounts: no accountId, so it is not in the sparse index.
    const { accountId: _none, owner: _owner, ...legacy } = issueApiKey(account, { nowMs }).record;
    await dynamo().send(new PutCommand({ TableName: keysTable, Item: legacy }));

    expect((await store.keysOf(account.accountId)).map((record) => record.label)).toEqual(['first', 'second']);
    expect((await store.keysOf(other.accountId)).map((record) => record.keyId)).toEqual([elsewhere.keyId]);
  });

  it('revokes a key only once, and only as its own workspace\'s: a refused revocation writes no audit record', async () => {
    const { store, auditTable } = await storeOnFreshTables();
    const nowMs = Date.now();
    const account = openAccount('PRO', { nowMs });
    const { record } = issueApiKey(account, { nowMs });
    await store.add(record, keyCreatedRecord(record, operator, nowMs));

    expect(await store.revoke({ ...record, accountId: 'acct_someoneelse0000' }, revocation(record, nowMs + 1))).toBe(false);
    expect(await store.revoke(record, revocation(record, nowMs + 2))).toBe(true);
    expect(await store.revoke(record, revocation(record, nowMs + 3))).toBe(false);
    expect((await auditItems(auditTable, account.accountId)).map((item) => item.action)).toEqual(['key.created', 'key.revoked']);
  });
});

describe('DynamoKeyStore.recordUse', () => {
  it('writes the last use when there is none or it is an hour old, and not again within the hour', async () => {
    const { store, keysTable } = await storeOnFreshTables();
    const nowMs = Date.parse('2026-11-25T10:00:00.000Z');
    const { record } = issueApiKey(openAccount('PRO', { nowMs }), { nowMs });
    await store.add(record, keyCreatedRecord(record, operator, nowMs));
    const lastUsed = async () => (await dynamo().send(new GetCommand({ TableName: keysTable, Key: { keyHash: record.keyHash }, ConsistentRead: true }))).Item?.lastUsedAt;

    expect(await store.recordUse(record.keyHash, nowMs)).toBe(true);
    expect(await lastUsed()).toBe('2026-11-25T10:00:00.000Z');
    expect(await store.recordUse(record.keyHash, nowMs + LAST_USE_PRECISION_MS - 1)).toBe(false);
    expect(await lastUsed()).toBe('2026-11-25T10:00:00.000Z');
    expect(await store.recordUse(record.keyHash, nowMs + LAST_USE_PRECISION_MS)).toBe(true);
    expect(await lastUsed()).toBe('2026-11-25T11:00:00.000Z');
  });

  it('creates nothing for a hash no key has', async () => {
    const { store, keysTable } = await storeOnFreshTables();
    expect(await store.recordUse('0'.repeat(64), Date.now())).toBe(false);
    expect((await dynamo().send(new GetCommand({ TableName: keysTable, Key: { keyHash: '0'.repeat(64) } }))).Item).toBeUndefined();
  });
});
