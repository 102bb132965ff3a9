import { hashApiKey, issueApiKey, type ApiKeyRecord } from '../../../../functions/shared/domain/accounts/api-keys';
import { openAccount, type AccountRecord } from '../../../../functions/shared/domain/accounts/accounts';
import { ALL_SCOPES, ROLES, scopesOfRole, type Role } from '../../../../functions/shared/domain/accounts/permissions';
import { authorizeCaller, couldBeAccessToken, type PeopleAccess } from '../../../../functions/shared/domain/accounts/request-authorization';
import { Messages } from '../../../../functions/shared/domain/messages';
import type { Membership, PersonIdentity } from '../../../../functions/shared/domain/ports';

const nowMs = Date.parse('2026-11-25T10:00:00.000Z');
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJl';
const account = openAccount('PRO', { nowMs, monthlyLimit: 5000 });

/** People's sources in memory, counting what each request reads. */
function people(options: { person?: PersonIdentity; role?: Role; account?: AccountRecord } = {}) {
  const reads = { tokens: 0, memberships: 0, accounts: 0 };
  const person = 'person' in options ? options.person : { sub: 'user-1', email: 'ada@example.com', mfa: false };
  const members = new Map<string, Membership>();
  const found = 'account' in options ? options.account : account;
  if (person && options.role) members.set(`${account.accountId}/${person.sub}`, { workspaceId: account.accountId, userId: person.sub, email: 'ada@members.example', role: options.role, joinedAt: '2026-11-01T00:00:00.000Z' });
  const access: PeopleAccess = {
    tokens: { verify: (token) => ((reads.tokens += 1), Promise.resolve(token === TOKEN ? person : undefined)) },
    memberships: { membership: (workspaceId, userId) => ((reads.memberships += 1), Promise.resolve(members.get(`${workspaceId}/${userId}`))) },
    account: (accountId) => ((reads.accounts += 1), Promise.resolve(found?.accountId === accountId ? found : undefined)),
  };
  return { access, reads, members };
}

function keys(record?: ApiKeyRecord) {
  const reads: string[] = [];
  return { reads, findKeyByHash: (keyHash: string) => (reads.push(keyHash), Promise.resolve(record?.keyHash === keyHash ? record : undefined)) };
}

const asPerson = (token = TOKEN, workspace: string | undefined = account.accountId) => ({ authorization: `Bearer ${token}`, workspace, personalRoute: false });

describe('a person\'s request', () => {
  it.each(ROLES)('as %s, acts in the workspace with the role\'s scopes, limited per person', async (role) => {
    const { access } = people({ role });
    const verdict = await authorizeCaller(asPerson(), { ...keys(), people: access }, nowMs);
    expect(verdict).toEqual({
      allowed: true,
      kind: 'workspace',
      keyId: 'user_user-1',
      accountId: account.accountId,
      owner: account.owner,
      plan: 'PRO',
      monthlyLimit: 5000,
      scopes: scopesOfRole(role),
      actor: { kind: 'user', userId: 'user-1', email: 'ada@example.com', role },
      mfa: { used: false, required: false },
    });
  });

  it.each([
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ])('passes on whether the sign-in used MFA (%s) and whether the workspace requires it (%s), for the guard to decide', async (used, required) => {
    const { access } = people({ person: { sub: 'user-1', mfa: used }, role: 'member', account: { ...account, mfaRequired: required } });
    const verdict = await authorizeCaller(asPerson(), { ...keys(), people: access }, nowMs);
    expect(verdict.allowed && verdict.kind === 'workspace' && verdict.mfa).toEqual({ used, required });
  });

  it('takes the email from the membership when the token carries none (Cognito\'s access tokens)', async () => {
    const { access } = people({ person: { sub: 'user-1', mfa: false }, role: 'member' });
    const verdict = await authorizeCaller(asPerson(), { ...keys(), people: access }, nowMs);
    expect(verdict.allowed && verdict.kind === 'workspace' && verdict.actor).toEqual({ kind: 'user', userId: 'user-1', email: 'ada@members.example', role: 'member' });
  });

  it('reads the membership and the account on every request: a removed member is refused on the next one', async () => {
    const { access, reads, members } = people({ role: 'admin' });
    const sources = { ...keys(), people: access };
    expect((await authorizeCaller(asPerson(), sources, nowMs)).allowed).toBe(true);
    members.clear();
    expect(await authorizeCaller(asPerson(), sources, nowMs)).toEqual({ allowed: false, message: Messages.apiKeyInvalid });
    expect(reads).toEqual({ tokens: 2, memberships: 2, accounts: 2 });
  });

  it.each([
    ['no workspace header', undefined],
    ['an empty one', '  '],
    ['one that is not a workspace id', 'ws#acct_x'],
    ['a very long one', `acct_${'a'.repeat(65)}`],
  ])('with %s is refused as an invalid key, without reading any membership', async (_case, workspace) => {
    const { access, reads } = people({ role: 'owner' });
    expect(await authorizeCaller({ authorization: `Bearer ${TOKEN}`, workspace, personalRoute: false }, { ...keys(), people: access }, nowMs)).toEqual({ allowed: false, message: Messages.apiKeyInvalid });
    expect(reads.memberships + reads.accounts).toBe(0);
  });

  it('naming a workspace the person is not in gets the same 401 as one that does not exist: no hint', async () => {
    const { access } = people({ role: 'owner' });
    const elsewhere = await authorizeCaller(asPerson(TOKEN, 'acct_0123456789abcdef'), { ...keys(), people: access }, nowMs);
    const { access: noAccount } = people({ role: 'owner', account: undefined });
    const missing = await authorizeCaller(asPerson(), { ...keys(), people: noAccount }, nowMs);
    expect(elsewhere).toEqual({ allowed: false, message: Messages.apiKeyInvalid });
    expect(missing).toEqual(elsewhere);
  });

  it('with a token that does not verify is refused before any membership is read', async () => {
    const { access, reads } = people({ role: 'owner' });
    const forged = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c2VyLTEifQ.';
    expect(await authorizeCaller(asPerson(forged), { ...keys(), people: access }, nowMs)).toEqual({ allowed: false, message: Messages.apiKeyInvalid });
    expect(reads).toEqual({ tokens: 1, memberships: 0, accounts: 0 });
  });

  it('is refused as an invalid key where no user pool is configured, with no read at all', async () => {
    const store = keys();
    expect(await authorizeCaller(asPerson(), store, nowMs)).toEqual({ allowed: false, message: Messages.apiKeyInvalid });
    expect(store.reads).toEqual([]);
  });
});

describe('a person on their own route (GET /v2/me)', () => {
  const personal = (token = TOKEN) => ({ authorization: `Bearer ${token}`, workspace: undefined, personalRoute: true });

  it('needs no workspace: their token names them, and nothing else is read', async () => {
    const { access, reads } = people();
    expect(await authorizeCaller(personal(), { ...keys(), people: access }, nowMs)).toEqual({ allowed: true, kind: 'personal', keyId: 'user_user-1', userId: 'user-1', email: 'ada@example.com' });
    expect(reads).toEqual({ tokens: 1, memberships: 0, accounts: 0 });
  });

  it('refuses a token that does not verify with the same 401', async () => {
    const { access } = people();
    expect(await authorizeCaller(personal('eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1In0.'), { ...keys(), people: access }, nowMs)).toEqual({ allowed: false, message: Messages.apiKeyInvalid });
  });

  it('lets a key through as a key (the route\'s people-only permission refuses it with a 403)', async () => {
    const issued = issueApiKey(account, { nowMs });
    const verdict = await authorizeCaller({ authorization: `Bearer ${issued.apiKey}`, workspace: undefined, personalRoute: true }, { ...keys(issued.record), people: people().access }, nowMs);
    expect(verdict.allowed && verdict.kind).toBe('workspace');
  });
});

describe('a key\'s request', () => {
  const issued = issueApiKey(account, { nowMs, label: 'ci' });

  it('is decided as before, by one key read, with the key as the actor; the token verifier is never asked', async () => {
    const { access, reads } = people({ role: 'owner' });
    const store = keys(issued.record);
    const verdict = await authorizeCaller({ authorization: `Bearer ${issued.apiKey}`, workspace: 'acct_whatever', personalRoute: false }, { ...store, people: access }, nowMs);
    expect(verdict).toEqual({
      allowed: true,
      kind: 'workspace',
      keyId: issued.record.keyId,
      accountId: account.accountId,
      owner: account.owner,
      plan: 'PRO',
      monthlyLimit: 5000,
      scopes: ALL_SCOPES,
      actor: { kind: 'key', keyId: issued.record.keyId, name: 'ci' },
    });
    expect(store.reads).toEqual([hashApiKey(issued.apiKey)]);
    expect(reads).toEqual({ tokens: 0, memberships: 0, accounts: 0 });
  });

  it('keeps the spec\'s two 401 messages: no Authorization header, and an unknown token of any other shape', async () => {
    const { access, reads } = people({ role: 'owner' });
    const store = keys(issued.record);
    expect(await authorizeCaller({ authorization: undefined, workspace: undefined, personalRoute: false }, { ...store, people: access }, nowMs)).toEqual({ allowed: false, message: Messages.apiKeyRequired });
    expect(await authorizeCaller({ authorization: 'Bearer not-a-key', workspace: undefined, personalRoute: false }, { ...store, people: access }, nowMs)).toEqual({ allowed: false, message: Messages.apiKeyInvalid });
    expect(store.reads).toEqual([]);
    expect(reads.tokens).toBe(0);
  });
});

describe('the shape of an access token', () => {
  it.each([
    [TOKEN, true],
    ['eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1In0.', true],
    ['shk_abc.def.ghi', true],
    ['a.b', false],
    ['a.b.c.d', false],
    ['a b.c.d', false],
    [`${'a'.repeat(8190)}.b.c`, false],
  ])('case %#', (token, expected) => {
    expect(couldBeAccessToken(token)).toBe(expected);
  });
});
