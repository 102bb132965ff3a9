import type { APIGatewayProxyEvent } from 'aws-lambda';
import { callerFrom } from '../../../functions/shared/http/request-info';

/** The callers the guard builds from what the authorizer vouched for (its context: strings only). */
const noAnonymousRoutes = () => Promise.reject(new Error('not a v1 route'));
const trustNoViewer = async () => [];

function v2(authorizer: Record<string, string>): APIGatewayProxyEvent {
  return { resource: '/v2/invitations/{id}/accept', path: '/v2/invitations/t/accept', httpMethod: 'POST', headers: {}, requestContext: { authorizer } } as unknown as APIGatewayProxyEvent;
}

describe('a v2 caller', () => {
  it('is a person in no workspace when the authorizer vouched for who (a personal route), not where', async () => {
    expect(await callerFrom(v2({ keyId: 'user_sub-1', userId: 'sub-1', email: 'zoë@example.com' }), noAnonymousRoutes, trustNoViewer)).toEqual({
      kind: 'person',
      keyId: 'user_sub-1',
      userId: 'sub-1',
      email: 'zoë@example.com',
    });
  });

  it('is a workspace\'s caller whenever the context names a workspace, whatever else it holds', async () => {
    const caller = await callerFrom(
      v2({ keyId: 'key_1', accountId: 'acct_1', owner: 'acct:acct_1', plan: 'PRO', scopes: 'links:read', actor: '{"kind":"key","keyId":"key_1"}', userId: 'sub-1', email: 'a@example.com' }),
      noAnonymousRoutes,
      trustNoViewer,
    );
    expect(caller).toMatchObject({ kind: 'apiKey', accountId: 'acct_1', scopes: ['links:read'], actor: { kind: 'key', keyId: 'key_1' } });
  });

  it('carries a person\'s sign-in MFA and the workspace\'s requirement as the authorizer said; a key has none', async () => {
    const person = { keyId: 'user_sub-1', accountId: 'acct_1', owner: 'acct:acct_1', plan: 'PRO', scopes: 'links:read', actor: '{"kind":"user","userId":"sub-1","email":"a@example.com","role":"viewer"}' };
    expect(await callerFrom(v2({ ...person, mfaUsed: 'false', mfaRequired: 'true' }), noAnonymousRoutes, trustNoViewer)).toMatchObject({ mfa: { used: false, required: true } });
    expect(await callerFrom(v2({ ...person, mfaUsed: 'true', mfaRequired: 'true' }), noAnonymousRoutes, trustNoViewer)).toMatchObject({ mfa: { used: true, required: true } });
    const key = await callerFrom(v2({ keyId: 'key_1', accountId: 'acct_1', owner: 'acct:acct_1', plan: 'PRO', scopes: 'links:read' }), noAnonymousRoutes, trustNoViewer);
    expect(key).not.toHaveProperty('mfa');
  });

  it('is a wiring bug (500) without either', async () => {
    await expect(callerFrom(v2({ keyId: 'user_sub-1', userId: 'sub-1' }), noAnonymousRoutes, trustNoViewer)).rejects.toThrow('v2 request without authorizer context');
  });
});
