/** The access-token claim that says the sign-in used MFA (PersonIdentity.mfa); only the literal `true` counts. */
export const MFA_CLAIM = 'mfa';

/** Cognito's name for an authenticator app (TOTP) among the MFA methods a person turned on. */
export const AUTHENTICATOR_APP = 'SOFTWARE_TOKEN_MFA';

/** RFC 8176's names for the methods a local sign-in records: a password, an authenticator's code, a passkey. */
export const SignInMethods = { password: 'pwd', authenticatorCode: 'otp', passkey: 'hwk' } as const;

/**
 * Whether the tokens the user pool is about to issue come from a sign-in that used MFA, for the access token's `mfa`
 * claim (functions/pre-token-generation). Cognito tells the trigger nothing of how the person signed in (the V2
 * event carries the person's attributes, groups and scopes, not the factor), so the rule reads what the person has
 * turned on, and is true only where every way in for that person is multi-factor:
 * - a person with an authenticator app (TOTP) turned on: a password sign-in asks for its code every time (the pool
 *   remembers no devices, and adaptive authentication never skips MFA a person has turned on); a passkey sign-in is
 *   possession of the passkey plus its PIN or biometric, because the pool requires user verification of passkeys
 *   (lib/user-pool.ts). Either way two factors.
 * - a person without one gets no claim, passkey or not: they may sign in with their password alone, and nothing in
 *   the event tells that sign-in from a passkey's. A workspace that requires MFA asks them for an authenticator app.
 * - people of a company's identity provider (SSO) are never asked by Cognito, whatever their provider did: never.
 * A renewal (refresh) is judged the same way, with what the person has turned on now: someone who turned it on
 * during a session could have signed in with it anyway, and someone who turned it off loses the claim at the next
 * renewal.
 */
export function signInUsedMfa(person: { federated: boolean; mfaMethods: readonly string[] }): boolean {
  return !person.federated && person.mfaMethods.includes(AUTHENTICATOR_APP);
}

/**
 * The same claim where the sign-in's methods are known (the local provider records them): a password with an
 * authenticator's code is MFA; a passkey sign-in gets what Cognito's trigger would give the same person
 * (`signInUsedMfa`), so that a local run never lets in someone the pool on AWS would refuse; a password alone never.
 */
export function signInMethodsGiveMfa(methods: readonly string[], person: { mfaMethods: readonly string[] }): boolean {
  if (methods.includes(SignInMethods.authenticatorCode)) return true;
  return methods.includes(SignInMethods.passkey) && signInUsedMfa({ federated: false, mfaMethods: person.mfaMethods });
}
