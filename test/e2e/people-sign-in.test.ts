import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoKeyStore } from '../../functions/shared/adapters/dynamo-key-store';
import { DynamoMemberStore } from '../../functions/shared/adapters/dynamo-member-store';
import { accountOfKey, hashApiKey } from '../../functions/shared/domain/accounts/api-keys';
import type { Role } from '../../functions/shared/domain/accounts/permissions';
import { Messages, OwnMessages } from '../../functions/shared/domain/messages';
import { WORKSPACE_HEADER } from '../../functions/shared/http/headers';
import { StackOutputs } from '../../lib/stack-outputs';
import { startTokenIssuer, unsignedToken } from '../support/access-tokens';
import { createApiKey, devApiKey, dynamo, http, jsonHeaders, stackOutput, uniqueLoopbackAddress } from '../support/local-stack';
import { authorizationCode, authorizationUrl, createUser, devUser, exchangeCode, localSignInTarget, pkcePair, signIn } from '../support/sign-in';

const refused = { statusCode: 401, message: Messages.apiKeyInvalid, error: 'Unauthorized' };
const members = () => new DynamoMemberStore(dynamo(), stackOutput(StackOutputs.membersTable));

async function devWorkspace(): Promise<string> {
  const record = await new DynamoKeyStore(dynamo(), stackOutput(StackOutputs.apiKeysTable)).findByHash(hashApiKey(devApiKey()));
  if (!record) throw new Error('no dev key');
  return accountOfKey(record).accountId;
}

/** A new PRO workspace with a new person in it, signed in. */
async function personIn(role: Role) {
  const { accountId } = await createApiKey('PRO');
  const user = await createUser();
  await members().addMember({ workspaceId: accountId, userId: user.sub, email: user.email, role, joinedAt: new Date().toISOString() });
  const { accessToken } = await signIn(user);
  return { workspaceId: accountId, user, accessToken };
}

const asPerson = (accessToken: string, workspaceId?: string) => ({
  ...jsonHeaders(accessToken),
  ...(workspaceId ? { [WORKSPACE_HEADER]: workspaceId } : {}),
});
// Each person's calls from an address of their own: no other test's per-address limits touch them.
const create = (headers: Record<string, string>) => http('POST', '/v2/shorten', { headers, body: { url: 'https://example.com/signed-in' }, localAddress: uniqueLoopbackAddress() });

describe('the local user pool', () => {
  it('answers OpenID discovery at its Cognito-shaped issuer, PKCE S256 only, JWKS where Cognito keeps it', async () => {
    const { issuer } = localSignInTarget();
    expect(issuer).toMatch(/^http:\/\/localhost:\d+\/[A-Za-z0-9]+$/);
    const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(discovery).toMatchObject({ issuer, jwks_uri: `${issuer}/.well-known/jwks.json`, code_challenge_methods_supported: ['S256'] });
  });

  it('issues 15-minute JWT access tokens with Cognito\'s claims to the development user', async () => {
    const tokens = await signIn(devUser());
    const claims = JSON.parse(Buffer.from(tokens.accessToken.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    const { issuer, clientId } = localSignInTarget();
    expect(claims).toMatchObject({ iss: issuer, client_id: clientId, token_use: 'access', email: devUser().email, email_verified: true });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(15 * 60);
    expect(tokens.expiresIn).toBe(15 * 60);
  });

  it('refuses a wrong password with the same words as an unknown email', async () => {
    await expect(signIn({ ...devUser(), password: 'not-the-password' })).rejects.toThrow('was refused');
    await expect(signIn({ email: 'nobody-here@example.com', password: 'whatever' })).rejects.toThrow('was refused');
  });

  it.each([
    ['a longer path', (uri: string) => `${uri}/x`],
    ['another host', () => 'http://evil.example/app/signed-in'],
    ['another scheme', (uri: string) => uri.replace(/^http:/, 'https:')],
  ])('sends nothing to a redirect URI that is not an exact match (%s)', async (_case, redirect) => {
    const target = localSignInTarget();
    const response = await fetch(authorizationUrl(target, pkcePair().challenge, { redirect_uri: redirect(target.redirectUri) }), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('requires PKCE with S256', async () => {
    const target = localSignInTarget();
    for (const overrides of [{ code_challenge: undefined, code_challenge_method: undefined }, { code_challenge_method: 'plain' }]) {
      const response = await fetch(authorizationUrl(target, pkcePair().challenge, overrides), { redirect: 'manual' });
      const location = new URL(response.headers.get('location') ?? '');
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  it('does not redeem a code without its PKCE verifier, nor twice', async () => {
    const target = localSignInTarget();
    const { code, verifier } = await authorizationCode(devUser(), target);
    await expect(exchangeCode(target, code, pkcePair().verifier)).rejects.toThrow('invalid_grant');
    const second = await authorizationCode(devUser(), target);
    await exchangeCode(target, second.code, second.verifier);
    await expect(exchangeCode(target, second.code, second.verifier)).rejects.toThrow('invalid_grant');
    expect(verifier).not.toBe(second.verifier);
  });
});

describe('a signed-in person calling the API', () => {
  it('the development user owns the dev key\'s workspace: GET /v2/me says so, and they create links in it', async () => {
    const workspaceId = await devWorkspace();
    const { accessToken } = await signIn(devUser());
    const me = await http('GET', '/v2/me', { headers: asPerson(accessToken) });
    expect(me.status).toBe(200);
    expect(me.json()).toMatchObject({ user: { email: devUser().email }, workspaces: expect.arrayContaining([expect.objectContaining({ workspaceId, role: 'owner' })]) });
    const created = await create(asPerson(accessToken, workspaceId));
    expect(created.status).toBe(201);
  });

  it('is refused without the workspace header, or naming a workspace they are not in, with the same 401 and no hint', async () => {
    const { accessToken } = await signIn(devUser());
    const { accountId: elsewhere } = await createApiKey('PRO');
    for (const headers of [asPerson(accessToken), asPerson(accessToken, elsewhere), asPerson(accessToken, 'acct_doesnotexist000'), asPerson(accessToken, '../../etc')]) {
      const response = await create(headers);
      expect(response.status).toBe(401);
      expect(response.json()).toEqual(refused);
    }
  });

  it('acts with their role: a member creates links but may not add a domain (403 naming the permission)', async () => {
    const { workspaceId, accessToken } = await personIn('member');
    expect((await create(asPerson(accessToken, workspaceId))).status).toBe(201);
    const domain = await http('POST', '/v2/domains', { headers: asPerson(accessToken, workspaceId), body: { domain: 'links.example.com' } });
    expect(domain.status).toBe(403);
    expect(domain.json()).toEqual({ statusCode: 403, message: OwnMessages.roleForbids('member', 'domains:write'), error: 'Forbidden', permission: 'domains:write' });
  });

  it('is refused on the very next request once their membership is removed, with a token still valid', async () => {
    const { workspaceId, user, accessToken } = await personIn('admin');
    expect((await create(asPerson(accessToken, workspaceId))).status).toBe(201);
    await dynamo().send(new DeleteCommand({ TableName: stackOutput(StackOutputs.membersTable), Key: { pk: `ws#${workspaceId}`, sk: `member#${user.sub}` } }));
    const after = await create(asPerson(accessToken, workspaceId));
    expect(after.status).toBe(401);
    expect(after.json()).toEqual(refused);
    const me = await http('GET', '/v2/me', { headers: asPerson(accessToken) });
    expect(me.json()).toEqual({ user: { sub: user.sub, email: user.email }, workspaces: [] });
  });

  it('GET /v2/me is for people: a key is refused with a 403 naming the permission', async () => {
    const response = await http('GET', '/v2/me', { headers: jsonHeaders(devApiKey()) });
    expect(response.status).toBe(403);
    expect(response.json()).toEqual({ statusCode: 403, message: OwnMessages.peopleOnly('profile:read'), error: 'Forbidden', permission: 'profile:read' });
  });

  it('refuses tokens of another issuer, unsigned ones, and garbage, on workspace routes and on /v2/me alike', async () => {
    const workspaceId = await devWorkspace();
    const { issuer, clientId } = localSignInTarget();
    const foreign = await startTokenIssuer(clientId);
    try {
      const now = Math.floor(Date.now() / 1000);
      const claims = { sub: 'intruder', iss: issuer, client_id: clientId, token_use: 'access', exp: now + 900 };
      for (const token of [foreign.accessToken(), foreign.accessToken({ iss: issuer }), unsignedToken({ alg: 'none' }, claims), 'e30.e30.e30']) {
        const response = await create(asPerson(token, workspaceId));
        expect(response.status).toBe(401);
        expect(response.json()).toEqual(refused);
        const me = await http('GET', '/v2/me', { headers: asPerson(token) });
        expect(me.status).toBe(401);
      }
    } finally {
      await foreign.close();
    }
  });
});
