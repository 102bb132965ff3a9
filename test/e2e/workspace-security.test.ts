import { OwnMessages } from '../../functions/shared/domain/messages';
import { WORKSPACE_HEADER } from '../../functions/shared/http/headers';
import { memberOf, workspaceWithOwner } from '../support/dashboard';
import { http, jsonHeaders, uniqueLoopbackAddress } from '../support/local-stack';
import { claimsOf, enrollTotp, localSignInTarget, refresh, revoke, signIn, type Credentials } from '../support/sign-in';

/**
 * Issue 29's sign-in security through the local stack: a workspace that requires MFA (its owner's switch, the `mfa`
 * claim the local provider writes after the authenticator step, the 403 for a sign-in without it), and refresh
 * tokens that stop working when their holder is removed or signs out.
 */
const as = (accessToken: string, workspaceId: string) => ({ ...jsonHeaders(accessToken), [WORKSPACE_HEADER]: workspaceId });
const call = (method: string, path: string, headers: Record<string, string>, body?: object) => http(method, path, { headers, ...(body ? { body } : {}), localAddress: uniqueLoopbackAddress() });
const requireMfa = (accessToken: string, workspaceId: string, mfaRequired: boolean) => call('PATCH', '/v2/workspace', as(accessToken, workspaceId), { security: { mfaRequired } });

/** A person who turned on an authenticator app, and their credentials for signing in with its code from then on. */
async function withAuthenticator<T extends Credentials>(person: T): Promise<T & { totpSecret: string }> {
  const { accessToken } = await signIn(person);
  return { ...person, totpSecret: await enrollTotp(accessToken) };
}

const mfaRefusal = { statusCode: 403, message: OwnMessages.mfaRequired, error: 'Forbidden', requirement: 'mfa' };

describe('a workspace that requires MFA', () => {
  it('is switched on by its owner signed in with their code; then a member without MFA is refused saying what to do, the same member with MFA and every key are let in', async () => {
    const { accountId, apiKey, owner } = await workspaceWithOwner('PRO');
    const ownerWithCode = await withAuthenticator(owner);
    const ownerTokens = await signIn(ownerWithCode);
    expect(claimsOf(ownerTokens.accessToken).mfa).toBe(true);
    const switched = await requireMfa(ownerTokens.accessToken, accountId, true);
    expect(switched.status).toBe(200);
    expect(switched.json()).toMatchObject({ security: { mfaRequired: true } });

    const member = await memberOf(accountId, 'member');
    const withoutMfa = await signIn(member);
    expect(claimsOf(withoutMfa.accessToken)).not.toHaveProperty('mfa');
    for (const [method, path] of [['GET', '/v2/links'], ['GET', '/v2/workspace'], ['POST', '/v2/shorten']] as const) {
      const refused = await call(method, path, as(withoutMfa.accessToken, accountId), method === 'POST' ? { url: 'https://example.com/no-mfa' } : undefined);
      expect(refused.status).toBe(403);
      expect(refused.json()).toEqual(mfaRefusal);
    }
    // Their own route names no workspace: they can still see where they belong.
    expect((await call('GET', '/v2/me', jsonHeaders(withoutMfa.accessToken))).status).toBe(200);
    // Keys are machines' and unaffected.
    expect((await call('GET', '/v2/links', jsonHeaders(apiKey))).status).toBe(200);

    const memberWithCode = await withAuthenticator(member);
    const withMfa = await signIn(memberWithCode);
    expect((await call('GET', '/v2/links', as(withMfa.accessToken, accountId))).status).toBe(200);
    // A renewed access token keeps what its sign-in was.
    const renewed = await refresh(withMfa.refreshToken ?? '');
    expect(claimsOf(renewed.accessToken ?? '')).toMatchObject({ mfa: true });
    expect((await call('GET', '/v2/links', as(renewed.accessToken ?? '', accountId))).status).toBe(200);
    const renewedWithout = await refresh(withoutMfa.refreshToken ?? '');
    expect((await call('GET', '/v2/links', as(renewedWithout.accessToken ?? '', accountId))).status).toBe(403);

    const audit = await call('GET', '/v2/audit-log?action=workspace.updated', as(ownerTokens.accessToken, accountId));
    expect(audit.json()).toMatchObject({ records: [expect.objectContaining({ actor: expect.objectContaining({ userId: owner.sub }), changes: { mfaRequired: { before: false, after: true } } })] });

    // Switched off again, the member without MFA is back.
    expect((await requireMfa(ownerTokens.accessToken, accountId, false)).status).toBe(200);
    expect((await call('GET', '/v2/links', as(withoutMfa.accessToken, accountId))).status).toBe(200);
  });

  it('cannot be switched on by an owner signed in without MFA (they would lock themselves out), nor by an admin (403 naming security:manage)', async () => {
    const { accountId, owner } = await workspaceWithOwner('PRO');
    const { accessToken } = await signIn(owner);
    const refused = await requireMfa(accessToken, accountId, true);
    expect(refused.status).toBe(403);
    expect(refused.json()).toEqual({ statusCode: 403, message: OwnMessages.mfaBeforeRequiring, error: 'Forbidden', requirement: 'mfa' });

    const admin = await withAuthenticator(await memberOf(accountId, 'admin'));
    const adminTokens = await signIn(admin);
    const forbidden = await requireMfa(adminTokens.accessToken, accountId, true);
    expect(forbidden.status).toBe(403);
    expect(forbidden.json()).toEqual({ statusCode: 403, message: OwnMessages.roleForbids('admin', 'security:manage'), error: 'Forbidden', permission: 'security:manage' });
    expect((await call('GET', '/v2/workspace', as(accessToken, accountId))).json()).toMatchObject({ security: { mfaRequired: false } });
  });

  it('is set with a name and analytics switches in one PATCH, one audit record; an admin sending it among theirs changes nothing', async () => {
    const { accountId, owner } = await workspaceWithOwner('PRO');
    const ownerTokens = await signIn(await withAuthenticator(owner));
    const admin = await withAuthenticator(await memberOf(accountId, 'admin'));
    const adminTokens = await signIn(admin);
    const mixed = await call('PATCH', '/v2/workspace', as(adminTokens.accessToken, accountId), { name: 'Not theirs', analytics: { city: false }, security: { mfaRequired: true } });
    expect(mixed.status).toBe(403);
    expect(mixed.json()).toMatchObject({ permission: 'security:manage' });

    const all = await call('PATCH', '/v2/workspace', as(ownerTokens.accessToken, accountId), { name: 'Ensemble', analytics: { city: false }, security: { mfaRequired: true } });
    expect(all.status).toBe(200);
    expect(all.json()).toMatchObject({ name: 'Ensemble', analytics: { city: false, country: true }, security: { mfaRequired: true } });
    const audit = await call('GET', '/v2/audit-log?action=workspace.updated', as(ownerTokens.accessToken, accountId));
    expect(audit.json()).toMatchObject({
      records: [expect.objectContaining({ changes: { name: { after: 'Ensemble' }, analytics: expect.objectContaining({ after: expect.objectContaining({ city: false }) }), mfaRequired: { before: false, after: true } } })],
    });
    expect((audit.json() as { records: unknown[] }).records).toHaveLength(1);
  });

  it('refuses a token altered to claim MFA: its signature no longer holds (401)', async () => {
    const { accountId, owner } = await workspaceWithOwner('PRO');
    const ownerTokens = await signIn(await withAuthenticator(owner));
    expect((await requireMfa(ownerTokens.accessToken, accountId, true)).status).toBe(200);
    const member = await memberOf(accountId, 'member');
    const { accessToken } = await signIn(member);
    const [header, , signature] = accessToken.split('.');
    const claims = claimsOf(accessToken);
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, mfa: true })).toString('base64url')}.${signature}`;
    expect((await call('GET', '/v2/links', as(accessToken, accountId))).status).toBe(403);
    expect((await call('GET', '/v2/links', as(forged, accountId))).status).toBe(401);
  });
});

describe('refresh tokens', () => {
  it('of a removed member stop working at once; someone who leaves keeps theirs (their other workspaces\' sessions)', async () => {
    const { accountId, owner } = await workspaceWithOwner('PRO');
    const ownerTokens = await signIn(owner);
    const removed = await memberOf(accountId, 'member');
    const removedTokens = await signIn(removed);
    expect((await refresh(removedTokens.refreshToken ?? '')).status).toBe(200);
    expect((await call('DELETE', `/v2/members/${removed.sub}`, as(ownerTokens.accessToken, accountId))).status).toBe(204);
    expect(await refresh(removedTokens.refreshToken ?? '')).toMatchObject({ status: 400, error: 'invalid_grant' });
    // They may sign in again (the pool still knows them), but the workspace no longer lets them in.
    const again = await signIn(removed);
    expect((await call('GET', '/v2/links', as(again.accessToken, accountId))).status).toBe(401);

    const leaving = await memberOf(accountId, 'viewer');
    const leavingTokens = await signIn(leaving);
    expect((await call('DELETE', `/v2/members/${leaving.sub}`, as(leavingTokens.accessToken, accountId))).status).toBe(204);
    expect((await refresh(leavingTokens.refreshToken ?? '')).status).toBe(200);
  });

  it('stop working once revoked, as the dashboard\'s sign-out does', async () => {
    const { owner } = await workspaceWithOwner('PRO');
    const { refreshToken = '' } = await signIn(owner);
    expect(await revoke(refreshToken)).toBe(200);
    expect(await refresh(refreshToken)).toMatchObject({ status: 400, error: 'invalid_grant' });
  });
});

describe('the pool\'s user API called from a page (turning on an authenticator app on the dashboard)', () => {
  const target = () => localSignInTarget();
  const post = (origin: string, operation: string, input: object) =>
    fetch(`${new URL(target().issuer).origin}/`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${operation}` },
      body: JSON.stringify(input),
    });

  it('answers the dashboard\'s origin for the person\'s own calls, and nothing else: no admin call, no other site', async () => {
    const dashboard = new URL(target().redirectUri).origin;
    const { owner } = await workspaceWithOwner('PRO');
    const { accessToken } = await signIn(owner);
    const preflight = await fetch(`${new URL(target().issuer).origin}/`, { method: 'OPTIONS', headers: { origin: dashboard, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-amz-target' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(dashboard);
    const own = await post(dashboard, 'AssociateSoftwareToken', { AccessToken: accessToken });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(dashboard);
    expect((await post(dashboard, 'AdminCreateUser', { UserPoolId: target().poolId, Username: 'made-by-a-page@example.com' })).status).toBe(403);
    expect((await post('https://elsewhere.example', 'AssociateSoftwareToken', { AccessToken: accessToken })).status).toBe(403);
    // A token without the user API's scope is refused, as Cognito refuses it.
    const narrow = await signIn(owner, target(), { scope: 'openid email' });
    const refused = await post(dashboard, 'AssociateSoftwareToken', { AccessToken: narrow.accessToken });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ __type: 'NotAuthorizedException', message: 'Access Token does not have required scopes' });
    const foreignPreflight = await fetch(`${new URL(target().issuer).origin}/`, { method: 'OPTIONS', headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' } });
    expect(foreignPreflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
