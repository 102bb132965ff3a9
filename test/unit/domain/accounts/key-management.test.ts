import { hashApiKey, judgeKey } from '../../../../functions/shared/domain/accounts/api-keys';
import { createKey, listKeys, revokeKey, revokeKeysBeyondRole, type KeyContext } from '../../../../functions/shared/domain/accounts/key-management';
import { MAX_KEY_LIFETIME_DAYS, MAX_KEY_NAME_LENGTH, MAX_KEYS_PER_WORKSPACE } from '../../../../functions/shared/domain/accounts/key-request';
import { ROLES, SCOPES, scopesOfRole, type Role, type Scope } from '../../../../functions/shared/domain/accounts/permissions';
import { REDACTED } from '../../../../functions/shared/domain/audit/audit-record';
import { InvalidRequest, KeyNotFound, NotPermitted } from '../../../../functions/shared/domain/errors';
import { Messages, OwnMessages } from '../../../../functions/shared/domain/messages';
import { keyCaller } from '../../../support/callers';
import { MemoryKeyStore } from '../../../support/in-memory-ports';

const NOW = Date.parse('2026-11-25T12:00:00.000Z');
const DAY = 86_400_000;
const workspace = { accountId: 'acct_0000000000000001', owner: 'acct:acct_0000000000000001', plan: 'PRO' } as const;

const asPerson = (role: Role, fields: { accountId?: string } = {}): KeyContext => ({
  caller: keyCaller({ ...workspace, ...fields, keyId: 'user_u1', scopes: scopesOfRole(role), actor: { kind: 'user', userId: 'u1', email: 'ana@example.com', role } }),
  nowMs: NOW,
  requestId: 'req-1',
});
const asOperator: KeyContext = { caller: keyCaller({ ...workspace, keyId: 'key_ops', actor: { kind: 'operator' } }), nowMs: NOW };

async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
}

describe('making a key', () => {
  it('answers the secret once, stores only its hash with the scopes, expiry and maker, and writes key.created without secret or hash', async () => {
    const keys = new MemoryKeyStore();
    const made = await createKey({ name: '  CI – déploiement 🚀 ', scopes: ['links:read', 'stats:read'], expiresAt: '2027-01-01T01:00:00+01:00' }, asPerson('admin'), keys);
    expect(made).toEqual({
      id: expect.stringMatching(/^key_[0-9a-f]{16}$/),
      name: 'CI – déploiement 🚀',
      scopes: ['links:read', 'stats:read'],
      status: 'active',
      createdBy: { kind: 'user', userId: 'u1', email: 'ana@example.com' },
      createdAt: '2026-11-25T12:00:00.000Z',
      expiresAt: '2027-01-01T00:00:00.000Z',
      lastUsedAt: null,
      secret: expect.stringMatching(/^shk_[A-Za-z0-9_-]{43}$/),
    });
    const [stored] = [...keys.keys.values()];
    expect(stored).toMatchObject({ keyHash: hashApiKey(made.secret), ...workspace, label: 'CI – déploiement 🚀', scopes: ['links:read', 'stats:read'] });
    expect(JSON.stringify(stored)).not.toContain(made.secret);

    const [audit] = keys.audit;
    expect(audit).toMatchObject({ workspaceId: workspace.accountId, action: 'key.created', target: { type: 'key', id: made.id }, requestId: 'req-1' });
    expect(audit?.actor).toEqual({ kind: 'user', userId: 'u1', email: 'ana@example.com', role: 'admin' });
    expect(audit?.changes.keyHash).toEqual({ after: REDACTED });
    expect(JSON.stringify(audit)).not.toContain(made.secret);
    expect(JSON.stringify(audit)).not.toContain(stored?.keyHash);
  });

  it('carries the workspace\'s plan and monthly limit, so the authorizer still needs one read', async () => {
    const keys = new MemoryKeyStore();
    const context = asPerson('owner');
    const made = await createKey({ name: 'n', scopes: ['links:write'] }, { ...context, caller: { ...context.caller, plan: 'INDIE', monthlyLimitOverride: 7 } }, keys);
    expect(keys.keys.get(hashApiKey(made.secret))).toMatchObject({ plan: 'INDIE', monthlyLimit: 7, owner: workspace.owner });
  });

  describe('never outranks its maker', () => {
    it.each(ROLES.map((role) => [role]))('a %s may give exactly the scopes of their role', async (role) => {
      const grantable = scopesOfRole(role);
      await expect(createKey({ name: 'all mine', scopes: grantable }, asPerson(role), new MemoryKeyStore())).resolves.toMatchObject({ scopes: grantable });
      for (const scope of SCOPES.filter((candidate) => !grantable.includes(candidate))) {
        const refused = await failure(() => createKey({ name: 'too much', scopes: ['links:read', scope] }, asPerson(role), new MemoryKeyStore()));
        expect(refused).toBeInstanceOf(NotPermitted);
        expect((refused as NotPermitted).permission).toBe(scope);
        expect(refused.message).toBe(OwnMessages.roleForbids(role, scope));
      }
    });

    it('names the first scope missing: a member asking for domains:write and webhooks:write hears of domains:write', async () => {
      const keys = new MemoryKeyStore();
      const refused = await failure(() => createKey({ name: 'x', scopes: ['links:write', 'domains:write', 'webhooks:write'] }, asPerson('member'), keys));
      expect(refused.message).toBe('Your role (member) does not allow domains:write');
      expect(keys.keys.size).toBe(0);
      expect(keys.audit).toHaveLength(0);
    });

    it('lets an operator give any scope, and refuses a key outright (keys cannot mint keys)', async () => {
      await expect(createKey({ name: 'ops', scopes: [...SCOPES] }, asOperator, new MemoryKeyStore())).resolves.toMatchObject({ createdBy: { kind: 'operator' } });
      const asKey: KeyContext = { caller: keyCaller({ ...workspace, keyId: 'key_x' }), nowMs: NOW };
      const refused = await failure(() => createKey({ name: 'k', scopes: ['links:read'] }, asKey, new MemoryKeyStore()));
      expect(refused).toBeInstanceOf(NotPermitted);
      expect(refused.message).toBe(OwnMessages.peopleOnly('keys:create'));
    });
  });

  describe('refuses a bad request with the field named (400)', () => {
    const nameMessage = OwnMessages.keyName(MAX_KEY_NAME_LENGTH);
    const scopesMessage = OwnMessages.keyScopes(SCOPES);
    const expiryMessage = OwnMessages.keyExpiresAt(MAX_KEY_LIFETIME_DAYS);
    it.each([
      [{ scopes: ['links:read'] }, nameMessage],
      [{ name: '', scopes: ['links:read'] }, nameMessage],
      [{ name: '   ', scopes: ['links:read'] }, nameMessage],
      [{ name: 'é'.repeat(MAX_KEY_NAME_LENGTH + 1), scopes: ['links:read'] }, nameMessage],
      [{ name: 'tab\there', scopes: ['links:read'] }, nameMessage],
      [{ name: 42, scopes: ['links:read'] }, nameMessage],
      [{ name: 'n' }, scopesMessage],
      [{ name: 'n', scopes: [] }, scopesMessage],
      [{ name: 'n', scopes: 'links:read' }, scopesMessage],
      [{ name: 'n', scopes: ['links:read', 'links:read'] }, scopesMessage],
      [{ name: 'n', scopes: ['keys:manage'] }, scopesMessage],
      [{ name: 'n', scopes: ['admin'] }, scopesMessage],
      [{ name: 'n', scopes: ['links:read'], expiresAt: 'tomorrow' }, expiryMessage],
      [{ name: 'n', scopes: ['links:read'], expiresAt: '2027-01-01T00:00:00' }, expiryMessage],
      [{ name: 'n', scopes: ['links:read'], expiresAt: 1767225600 }, expiryMessage],
      [{ name: 'n', scopes: ['links:read'], expiresAt: '2026-11-25T12:00:00.000Z' }, expiryMessage],
      [{ name: 'n', scopes: ['links:read'], expiresAt: new Date(NOW + MAX_KEY_LIFETIME_DAYS * DAY + 1000).toISOString() }, expiryMessage],
    ])('%j', async (body, message) => {
      const keys = new MemoryKeyStore();
      const refused = await failure(() => createKey(body, asPerson('owner'), keys));
      expect(refused).toBeInstanceOf(InvalidRequest);
      expect(refused.message).toBe(message);
      expect(keys.keys.size).toBe(0);
    });

    it('takes a name of exactly the longest length in any script, an expiry a year ahead, and a null expiry as none', async () => {
      const keys = new MemoryKeyStore();
      await expect(createKey({ name: '鍵'.repeat(MAX_KEY_NAME_LENGTH), scopes: ['links:read'], expiresAt: new Date(NOW + MAX_KEY_LIFETIME_DAYS * DAY).toISOString() }, asPerson('viewer'), keys)).resolves.toMatchObject({
        name: '鍵'.repeat(MAX_KEY_NAME_LENGTH),
      });
      await expect(createKey({ name: 'forever', scopes: ['links:read'], expiresAt: null }, asPerson('viewer'), keys)).resolves.toMatchObject({ expiresAt: null });
    });
  });

  it(`stops at ${MAX_KEYS_PER_WORKSPACE} live keys in a workspace; a revoked one frees its place`, async () => {
    const keys = new MemoryKeyStore();
    const made = [];
    for (let index = 0; index < MAX_KEYS_PER_WORKSPACE; index++) made.push(await createKey({ name: `k${index}`, scopes: ['links:read'] }, asPerson('admin'), keys));
    const refused = await failure(() => createKey({ name: 'one more', scopes: ['links:read'] }, asPerson('admin'), keys));
    expect(refused.message).toBe(OwnMessages.keyLimit(MAX_KEYS_PER_WORKSPACE));
    await revokeKey(made[0]!.id, asPerson('admin'), keys);
    await expect(createKey({ name: 'one more', scopes: ['links:read'] }, asPerson('admin'), keys)).resolves.toMatchObject({ name: 'one more' });
  });
});

describe('an expiring key', () => {
  it('works until its expiry and is refused as inactive from that instant', async () => {
    const keys = new MemoryKeyStore();
    const expiresAt = new Date(NOW + DAY).toISOString();
    const made = await createKey({ name: 'day', scopes: ['links:read'], expiresAt }, asPerson('member'), keys);
    const record = keys.keys.get(hashApiKey(made.secret));
    const header = `Bearer ${made.secret}`;
    expect(judgeKey(header, record, NOW + DAY - 1)).toMatchObject({ allowed: true, scopes: ['links:read'] });
    expect(judgeKey(header, record, NOW + DAY)).toEqual({ allowed: false, message: Messages.apiKeyInvalid });
    expect((await listKeys({ ...asPerson('member'), nowMs: NOW + DAY }, keys)).keys[0]?.status).toBe('expired');
  });
});

describe('listing and revoking', () => {
  it('lists the workspace\'s live keys oldest first, without secrets or hashes; keys made before scopes show every scope', async () => {
    const keys = new MemoryKeyStore();
    const first = await createKey({ name: 'first', scopes: ['links:read'] }, asPerson('owner'), keys);
    await createKey({ name: 'second', scopes: ['stats:read'] }, { ...asPerson('owner'), nowMs: NOW + 1 }, keys);
    await createKey({ name: 'elsewhere', scopes: ['stats:read'] }, asPerson('owner', { accountId: 'acct_0000000000000002' }), keys);
    const legacy = [...keys.keys.values()].find((key) => key.keyId === first.id);
    delete legacy?.scopes;
    delete legacy?.createdBy;

    const listed = await listKeys(asPerson('owner'), keys);
    expect(listed.keys.map((key) => key.name)).toEqual(['first', 'second']);
    expect(listed.keys[0]).toMatchObject({ scopes: [...SCOPES], createdBy: { kind: 'operator' } });
    expect(JSON.stringify(listed)).not.toMatch(/shk_|keyHash|[0-9a-f]{64}/);
  });

  it('revokes with key.revoked; the same id again, an unknown id, a malformed one and another workspace\'s key all answer Key not found', async () => {
    const keys = new MemoryKeyStore();
    const mine = await createKey({ name: 'mine', scopes: ['links:read'] }, asPerson('admin'), keys);
    const theirs = await createKey({ name: 'theirs', scopes: ['links:read'] }, asPerson('admin', { accountId: 'acct_0000000000000002' }), keys);

    await revokeKey(mine.id, asPerson('admin'), keys);
    expect(keys.keys.get(hashApiKey(mine.secret))?.status).toBe('revoked');
    expect(keys.audit.at(-1)).toMatchObject({ action: 'key.revoked', target: { type: 'key', id: mine.id }, changes: { status: { before: 'active', after: 'revoked' } } });

    for (const id of [mine.id, theirs.id, 'key_0000000000000000', '../key', '']) {
      const refused = await failure(() => revokeKey(id, asPerson('admin'), keys));
      expect(refused).toBeInstanceOf(KeyNotFound);
      expect(refused.message).toBe('Key not found');
    }
    expect(keys.keys.get(hashApiKey(theirs.secret))?.status).toBe('active');
    expect(keys.audit.filter((record) => record.action === 'key.revoked')).toHaveLength(1);
  });
});

describe('keys following their maker\'s role', () => {
  /** `userId`, a person of the workspace with `role` (or of another workspace), making keys or changing people. */
  const as = (userId: string, role: Role, accountId: string = workspace.accountId): KeyContext => ({
    caller: keyCaller({ ...workspace, accountId, keyId: `user_${userId}`, scopes: scopesOfRole(role), actor: { kind: 'user', userId, email: `${userId}@example.com`, role } }),
    nowMs: NOW,
    requestId: 'req-change',
  });

  /** Ana's keys (an admin), Bea's, an operator's, one from before makers and scopes, and Ana's key in another workspace. */
  async function workspaceKeys() {
    const keys = new MemoryKeyStore();
    const make = async (context: KeyContext, scopes: Scope[]) => (await createKey({ name: scopes.join(' '), scopes }, context, keys)).secret;
    const made = {
      anaWide: await make(as('ana', 'admin'), ['links:read', 'domains:write']),
      anaNarrow: await make(as('ana', 'admin'), ['links:read', 'links:write']),
      anaAudit: await make(as('ana', 'admin'), ['audit:read']),
      bea: await make(as('bea', 'member'), ['links:write']),
      operator: await make(asOperator, [...SCOPES]),
      legacy: await make(asOperator, ['links:read']),
      anaElsewhere: await make(as('ana', 'admin', 'acct_0000000000000002'), ['domains:write']),
    };
    const legacy = keys.keys.get(hashApiKey(made.legacy));
    delete legacy?.scopes;
    delete legacy?.createdBy;
    keys.audit.length = 0;
    const live = (secret: string) => judgeKey(`Bearer ${secret}`, keys.keys.get(hashApiKey(secret)), NOW).allowed;
    const liveOnes = () => Object.entries(made).filter(([, secret]) => live(secret)).map(([name]) => name);
    return { keys, made, liveOnes };
  }

  it('a demotion revokes the keys the person made holding a scope the new role lacks, each with key.revoked by whoever demoted them', async () => {
    const { keys, made, liveOnes } = await workspaceKeys();
    await revokeKeysBeyondRole('ana', 'member', as('olga', 'owner'), keys);
    expect(liveOnes()).toEqual(['anaNarrow', 'bea', 'operator', 'legacy', 'anaElsewhere']);
    const revokedIds = ['anaWide', 'anaAudit'].map((name) => keys.keys.get(hashApiKey(made[name as keyof typeof made]))?.keyId);
    expect(keys.audit.map((record) => record.target.id).sort()).toEqual(revokedIds.sort());
    for (const record of keys.audit) {
      expect(record).toMatchObject({ workspaceId: workspace.accountId, action: 'key.revoked', changes: { status: { before: 'active', after: 'revoked' } }, requestId: 'req-change' });
      expect(record.actor).toEqual({ kind: 'user', userId: 'olga', email: 'olga@example.com', role: 'owner' });
    }
  });

  it('a demotion to viewer revokes every key the person made holding a write; one within the viewer\'s scopes stays', async () => {
    const { keys, liveOnes } = await workspaceKeys();
    const reader = (await createKey({ name: 'reader', scopes: ['links:read', 'stats:read'] }, as('ana', 'admin'), keys)).secret;
    await revokeKeysBeyondRole('ana', 'viewer', as('olga', 'owner'), keys);
    expect(liveOnes()).toEqual(['bea', 'operator', 'legacy', 'anaElsewhere']);
    expect(judgeKey(`Bearer ${reader}`, keys.keys.get(hashApiKey(reader)), NOW).allowed).toBe(true);
  });

  it('a removal (no role) revokes every key the person made in this workspace; other people\'s, operators\' and older keys stay', async () => {
    const { keys, liveOnes } = await workspaceKeys();
    await revokeKeysBeyondRole('ana', undefined, as('olga', 'owner'), keys);
    expect(liveOnes()).toEqual(['bea', 'operator', 'legacy', 'anaElsewhere']);
    expect(keys.audit).toHaveLength(3);
  });

  it('changes nothing when run again, nor for a role that allows every scope the keys hold', async () => {
    const { keys, liveOnes } = await workspaceKeys();
    await revokeKeysBeyondRole('ana', 'owner', as('olga', 'owner'), keys);
    expect(keys.audit).toHaveLength(0);
    await revokeKeysBeyondRole('ana', undefined, as('olga', 'owner'), keys);
    await revokeKeysBeyondRole('ana', undefined, as('olga', 'owner'), keys);
    expect(keys.audit).toHaveLength(3);
    expect(liveOnes()).toEqual(['bea', 'operator', 'legacy', 'anaElsewhere']);
  });
});
