import { AUTHENTICATOR_APP, SignInMethods, signInMethodsGiveMfa, signInUsedMfa } from '../../../../functions/shared/domain/accounts/sign-in-mfa';

const { password, authenticatorCode, passkey } = SignInMethods;

describe('the mfa claim of a sign-in', () => {
  it('on AWS (factor unknown): a person with an authenticator app, whose every way in is two factors; nobody else, whatever passkeys they have', () => {
    expect(signInUsedMfa({ federated: false, mfaMethods: [AUTHENTICATOR_APP] })).toBe(true);
    // A person with a passkey and no authenticator app may have signed in with their password alone.
    expect(signInUsedMfa({ federated: false, mfaMethods: [] })).toBe(false);
    expect(signInUsedMfa({ federated: true, mfaMethods: [AUTHENTICATOR_APP] })).toBe(false);
  });

  it('locally (methods known): a password and a code is MFA, a password alone never', () => {
    expect(signInMethodsGiveMfa([password, authenticatorCode], { mfaMethods: [AUTHENTICATOR_APP] })).toBe(true);
    expect(signInMethodsGiveMfa([password], { mfaMethods: [AUTHENTICATOR_APP] })).toBe(false);
    expect(signInMethodsGiveMfa([password], { mfaMethods: [] })).toBe(false);
  });

  it('locally, a passkey sign-in gets what the pool on AWS would give the same person: MFA with an authenticator app turned on, none without', () => {
    expect(signInMethodsGiveMfa([passkey], { mfaMethods: [AUTHENTICATOR_APP] })).toBe(true);
    expect(signInMethodsGiveMfa([passkey], { mfaMethods: [] })).toBe(false);
  });
});
