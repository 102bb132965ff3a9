import { randomBytes } from 'node:crypto';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { LOCAL_REGION } from '../../bin/local/stack';
import { CognitoIdentityProviders } from '../../functions/shared/adapters/cognito-identity-providers';
import { providerNameFor } from '../../functions/shared/domain/sso/sso-connection';
import { claimsOf, createUser, enrollTotp, localCliClientId, localSignInTarget, registerPasskey, signIn, signInWithPasskey } from '../support/sign-in';
import { SoftwarePasskey } from '../support/software-authenticator';

/**
 * Issue 29: signing in with a passkey on the local user pool, end to end over HTTP (the page's challenge, the
 * answer, the code, the tokens). A passkey registered as the dashboard does signs its owner in with no password;
 * the access token's `mfa` claim follows the pool's rule on AWS (sign-in-mfa.ts): only for a person who also has an
 * authenticator app on. Replayed answers and answers made for another page are refused.
 */
async function personWithPasskey() {
  const person = await createUser();
  const { accessToken } = await signIn(person);
  const passkey = new SoftwarePasskey(person.sub);
  await registerPasskey(accessToken, (options, origin) => passkey.register({ challenge: options.challenge, origin, rpId: options.rp.id }));
  return { person, passkey, accessToken };
}

describe('signing in with a passkey on the local user pool', () => {
  it('signs its owner in without a password; the access token claims no MFA for a person without an authenticator app', async () => {
    const { person, passkey } = await personWithPasskey();
    const { tokens, status } = await signInWithPasskey((options, origin) => passkey.assert({ challenge: options.challenge, origin, rpId: options.rpId }));
    expect(status).toBe(303);
    const claims = claimsOf(tokens?.accessToken ?? '');
    expect(claims).toMatchObject({ sub: person.sub, token_use: 'access' });
    // They could as well have signed in with their password alone: the pool on AWS could not tell the two apart.
    expect(claims.mfa).toBeUndefined();
  });

  it('claims MFA for a passkey sign-in of a person with an authenticator app on (every way in for them is two factors)', async () => {
    const { passkey, accessToken } = await personWithPasskey();
    await enrollTotp(accessToken);
    const { tokens } = await signInWithPasskey((options, origin) => passkey.assert({ challenge: options.challenge, origin, rpId: options.rpId }));
    expect(claimsOf(tokens?.accessToken ?? '').mfa).toBe(true);
  });

  it('refuses a replayed answer in a new sign-in, and an answer made for another page\'s origin or without user verification', async () => {
    const { passkey } = await personWithPasskey();
    let captured: unknown;
    const first = await signInWithPasskey((options, origin) => (captured = passkey.assert({ challenge: options.challenge, origin, rpId: options.rpId })));
    expect(first.tokens).toBeDefined();
    expect(await signInWithPasskey(() => captured)).toEqual({ status: 401 });
    expect(await signInWithPasskey((options) => passkey.assert({ challenge: options.challenge, origin: 'https://evil.example', rpId: options.rpId }))).toEqual({ status: 401 });
    expect(await signInWithPasskey((options, origin) => passkey.assert({ challenge: options.challenge, origin, rpId: options.rpId, userVerified: false }))).toEqual({ status: 401 });
    expect(await signInWithPasskey(() => 'not an assertion')).toEqual({ status: 401 });
  });

  it('refuses a passkey of a person whose email domain signs in through its company\'s provider (SSO), even one registered before', async () => {
    const domain = `sso-${randomBytes(4).toString('hex')}.example`;
    const person = await createUser({ email: `dee@${domain}` });
    const { accessToken } = await signIn(person);
    const passkey = new SoftwarePasskey(person.sub);
    await registerPasskey(accessToken, (options, origin) => passkey.register({ challenge: options.challenge, origin, rpId: options.rp.id }));
    const answer = (options: { challenge: string; rpId: string }, origin: string) => passkey.assert({ challenge: options.challenge, origin, rpId: options.rpId });
    // The domain connected as the SSO function does it on AWS (the provider itself is never reached here).
    const target = localSignInTarget();
    const client = new CognitoIdentityProviderClient({ region: LOCAL_REGION, endpoint: new URL(target.issuer).origin, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const providers = new CognitoIdentityProviders(client, target.poolId, [target.clientId, localCliClientId()]);
    const providerName = providerNameFor('acct_e2e', domain);
    await providers.register({ providerName, protocol: 'oidc', oidc: { issuer: 'https://idp.example', clientId: 'client', clientSecret: 'secret' } });
    await providers.enable(providerName, domain);
    expect(await signInWithPasskey(answer)).toEqual({ status: 401 });
    // Disconnected, the same passkey signs them in: the refusal was the domain's.
    await providers.remove(providerName);
    expect((await signInWithPasskey(answer)).tokens).toBeDefined();
  });
});
