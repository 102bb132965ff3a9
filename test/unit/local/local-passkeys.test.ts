import { CognitoStandIn, USER_API_SCOPE } from '../../../bin/local/cognito-standin';
import { LocalPasskeys } from '../../../bin/local/passkeys';
import { signInPage } from '../../../bin/local/sign-in-page';
import { LocalUserDirectory, type LocalUser } from '../../../bin/local/user-directory';
import { SoftwarePasskey } from '../../support/software-authenticator';

/**
 * The local user pool's passkeys (issue 29): registered through Cognito's user API with the person's own token, used
 * on the sign-in page. Answers are made by a passkey in software, so every answer an attacker could send is tried.
 */
const rpId = 'localhost';
const dashboard = 'http://localhost:3000';
const signInOrigin = 'http://localhost:4100';

/** A token the fake verifier takes as `sub`'s, with the user API's scope in its payload (as the stand-in reads it). */
const tokenOf = (sub: string) => `header.${Buffer.from(JSON.stringify({ sub, scope: `openid ${USER_API_SCOPE}` })).toString('base64url')}.signature`;

async function pool() {
  let now = Date.parse('2026-11-26T04:00:00Z');
  const users = new LocalUserDirectory();
  const passkeys = new LocalPasskeys({ rpId, registrationOrigins: [dashboard], signInOrigin }, users, () => now);
  // Stands in for the signature check: a token this test made names its person; anything else verifies as nobody.
  const verify = async (token: string) => {
    const sub = token.startsWith('header.') ? String((JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string }).sub) : '';
    return users.find(sub) ? { sub, mfa: false } : undefined;
  };
  const cognito = new CognitoStandIn('Pool1', users, { verify }, () => Promise.resolve(), passkeys);
  const ada = (await users.create('ada@example.com', 'a long password', { permanent: true })) as LocalUser;
  const bob = (await users.create('bob@example.com', 'a long password', { permanent: true })) as LocalUser;
  const call = (operation: string, input: Record<string, unknown>) => Promise.resolve().then(() => cognito.handle(operation, input)) as Promise<Record<string, unknown>>;
  /** Registers a passkey for `user` from the dashboard's page, as the Security page does. */
  const register = async (user: LocalUser, origin = dashboard) => {
    const key = new SoftwarePasskey(user.sub);
    const { CredentialCreationOptions } = await call('StartWebAuthnRegistration', { AccessToken: tokenOf(user.sub) });
    const options = CredentialCreationOptions as { challenge: string; rp: { id: string } };
    await call('CompleteWebAuthnRegistration', { AccessToken: tokenOf(user.sub), Credential: key.register({ challenge: options.challenge, origin, rpId: options.rp.id }) });
    return key;
  };
  const challengeOf = async (interaction: string) => ((await passkeys.startSignIn(interaction)) as { challenge: string }).challenge;
  return { users, passkeys, call, register, challengeOf, ada, bob, later: (ms: number) => (now += ms) };
}

describe('registering a passkey through the local Cognito user API', () => {
  it('gives creation options for localhost (resident key, user verification required, the person\'s own passkeys excluded), keeps the verified passkey and lists it', async () => {
    const { call, register, ada } = await pool();
    const key = await register(ada);
    const { CredentialCreationOptions } = await call('StartWebAuthnRegistration', { AccessToken: tokenOf(ada.sub) });
    expect(CredentialCreationOptions).toMatchObject({
      rp: { id: rpId },
      user: { name: 'ada@example.com' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: [{ id: key.id, type: 'public-key' }],
    });
    const { Credentials } = await call('ListWebAuthnCredentials', { AccessToken: tokenOf(ada.sub) });
    expect(Credentials).toEqual([
      { CredentialId: key.id, FriendlyCredentialName: 'Passkey 2026-11-26', RelyingPartyId: rpId, AuthenticatorAttachment: 'platform', AuthenticatorTransports: ['internal'], CreatedAt: Date.parse('2026-11-26T04:00:00Z') / 1000 },
    ]);
  });

  it('refuses an answer from another origin, for another relying party, without user verification, to another challenge, or twice', async () => {
    const { call, ada } = await pool();
    const key = new SoftwarePasskey(ada.sub);
    const start = async () => ((await call('StartWebAuthnRegistration', { AccessToken: tokenOf(ada.sub) })).CredentialCreationOptions as { challenge: string }).challenge;
    const complete = (credential: unknown) => call('CompleteWebAuthnRegistration', { AccessToken: tokenOf(ada.sub), Credential: credential });
    await expect(complete(key.register({ challenge: await start(), origin: 'https://evil.example', rpId }))).rejects.toMatchObject({ type: 'WebAuthnOriginNotAllowedException' });
    await expect(complete(key.register({ challenge: await start(), origin: dashboard, rpId: 'evil.example' }))).rejects.toMatchObject({ type: 'WebAuthnRelyingPartyMismatchException' });
    await expect(complete(key.register({ challenge: await start(), origin: dashboard, rpId, userVerified: false }))).rejects.toMatchObject({ type: 'WebAuthnCredentialNotSupportedException' });
    await start();
    await expect(complete(key.register({ challenge: 'bm90LXRoZS1jaGFsbGVuZ2U', origin: dashboard, rpId }))).rejects.toMatchObject({ type: 'WebAuthnChallengeNotFoundException' });
    // Each refusal spent its challenge: a good answer to it is refused too.
    const challenge = await start();
    await expect(complete(key.register({ challenge: 'bm90LXRoZS1jaGFsbGVuZ2U', origin: dashboard, rpId }))).rejects.toBeDefined();
    await expect(complete(key.register({ challenge, origin: dashboard, rpId }))).rejects.toMatchObject({ type: 'WebAuthnChallengeNotFoundException' });
    expect((await call('ListWebAuthnCredentials', { AccessToken: tokenOf(ada.sub) })).Credentials).toEqual([]);
  });

  it('deletes a person\'s own passkey; another person\'s is as unknown as a made-up id; no call without a token with the user API\'s scope', async () => {
    const { call, register, ada, bob } = await pool();
    const adas = await register(ada);
    await expect(call('DeleteWebAuthnCredential', { AccessToken: tokenOf(bob.sub), CredentialId: adas.id })).rejects.toMatchObject({ type: 'ResourceNotFoundException' });
    await expect(call('ListWebAuthnCredentials', { AccessToken: 'not-a-token' })).rejects.toMatchObject({ type: 'NotAuthorizedException' });
    const noScope = `header.${Buffer.from(JSON.stringify({ sub: ada.sub, scope: 'openid' })).toString('base64url')}.signature`;
    await expect(call('DeleteWebAuthnCredential', { AccessToken: noScope, CredentialId: adas.id })).rejects.toMatchObject({ type: 'NotAuthorizedException' });
    expect((await call('ListWebAuthnCredentials', { AccessToken: tokenOf(ada.sub) })).Credentials).toHaveLength(1);
    await call('DeleteWebAuthnCredential', { AccessToken: tokenOf(ada.sub), CredentialId: adas.id });
    expect((await call('ListWebAuthnCredentials', { AccessToken: tokenOf(ada.sub) })).Credentials).toEqual([]);
  });

  it('answers WebAuthnNotEnabledException where the template\'s pool does not allow passkeys', async () => {
    const users = new LocalUserDirectory();
    const ada = (await users.create('ada@example.com', 'a long password', { permanent: true })) as LocalUser;
    const cognito = new CognitoStandIn('Pool1', users, { verify: () => Promise.resolve({ sub: ada.sub, mfa: false }) }, () => Promise.resolve());
    await expect(Promise.resolve().then(() => cognito.handle('StartWebAuthnRegistration', { AccessToken: tokenOf(ada.sub) }))).rejects.toMatchObject({ type: 'WebAuthnNotEnabledException' });
  });
});

describe('signing in with a passkey on the local sign-in page', () => {
  it('signs in the passkey\'s owner, answering this sign-in\'s challenge from the sign-in page, verified', async () => {
    const { register, passkeys, challengeOf, ada } = await pool();
    const key = await register(ada);
    const challenge = await challengeOf('interaction-1');
    expect((await passkeys.finishSignIn('interaction-1', key.assert({ challenge, origin: signInOrigin, rpId })))?.sub).toBe(ada.sub);
  });

  it('refuses a replayed assertion, even to a new challenge of the same sign-in', async () => {
    const { register, passkeys, challengeOf, ada } = await pool();
    const key = await register(ada);
    const assertion = key.assert({ challenge: await challengeOf('interaction-1'), origin: signInOrigin, rpId });
    expect(await passkeys.finishSignIn('interaction-1', assertion)).toBeDefined();
    expect(await passkeys.finishSignIn('interaction-1', assertion)).toBeUndefined();
    await challengeOf('interaction-1');
    expect(await passkeys.finishSignIn('interaction-1', assertion)).toBeUndefined();
  });

  it('refuses an answer to another sign-in\'s challenge (another browser\'s session), and spends this one\'s', async () => {
    const { register, passkeys, challengeOf, ada } = await pool();
    const key = await register(ada);
    const theirs = await challengeOf('interaction-victim');
    await challengeOf('interaction-attacker');
    expect(await passkeys.finishSignIn('interaction-attacker', key.assert({ challenge: theirs, origin: signInOrigin, rpId }))).toBeUndefined();
    expect(await passkeys.finishSignIn('interaction-attacker', key.assert({ challenge: theirs, origin: signInOrigin, rpId }))).toBeUndefined();
  });

  it('refuses a passkey claiming another person (its user handle), one nobody registered, and an answer from another origin or relying party', async () => {
    const { register, passkeys, challengeOf, ada, bob } = await pool();
    const adas = await register(ada);
    await register(bob);
    expect(await passkeys.finishSignIn('i1', adas.assert({ challenge: await challengeOf('i1'), origin: signInOrigin, rpId }, bob.sub))).toBeUndefined();
    expect(await passkeys.finishSignIn('i2', new SoftwarePasskey(ada.sub).assert({ challenge: await challengeOf('i2'), origin: signInOrigin, rpId }))).toBeUndefined();
    expect(await passkeys.finishSignIn('i3', adas.assert({ challenge: await challengeOf('i3'), origin: 'https://evil.example', rpId }))).toBeUndefined();
    // The dashboard may register passkeys, but a sign-in is answered on the sign-in page only.
    expect(await passkeys.finishSignIn('i4', adas.assert({ challenge: await challengeOf('i4'), origin: dashboard, rpId }))).toBeUndefined();
    expect(await passkeys.finishSignIn('i5', adas.assert({ challenge: await challengeOf('i5'), origin: signInOrigin, rpId: 'evil.example' }))).toBeUndefined();
  });

  it('refuses an answer without user verification, after the challenge expired, and anything that is not an assertion', async () => {
    const { register, passkeys, challengeOf, ada, later } = await pool();
    const key = await register(ada);
    expect(await passkeys.finishSignIn('i1', key.assert({ challenge: await challengeOf('i1'), origin: signInOrigin, rpId, userVerified: false }))).toBeUndefined();
    const challenge = await challengeOf('i2');
    later(2 * 60_000 + 1);
    expect(await passkeys.finishSignIn('i2', key.assert({ challenge, origin: signInOrigin, rpId }))).toBeUndefined();
    for (const junk of [undefined, null, 'text', { id: 42 }, { id: key.id }, { id: key.id, response: { userHandle: Buffer.from(ada.sub).toString('base64url') } }]) {
      await challengeOf('i3');
      expect(await passkeys.finishSignIn('i3', junk)).toBeUndefined();
    }
  });

  it('is offered on the page as a button its script reveals, every URL escaped', () => {
    const page = signInPage({ kind: 'password', action: '/p/interaction/1', passkey: { optionsUrl: '/p/interaction/1/passkey-options?"x', action: '/p/interaction/1/passkey', scripts: ['/p/passkey-scripts/webauthn.js'] } });
    expect(page).toContain('<button type="button" id="passkey-sign-in" hidden>Use a passkey</button>');
    expect(page).toContain('data-options="/p/interaction/1/passkey-options?&#34;x"');
    expect(page).toContain('<script src="/p/passkey-scripts/webauthn.js"></script>');
    expect(signInPage({ kind: 'password', action: '/p/interaction/1' })).not.toContain('<script');
  });
});
