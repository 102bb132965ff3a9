/** The access-token claim that says the sign-in used MFA (PersonIdentity.mfa); only the literal `true` counts. */
export const MFA_CLAIM = 'mfa';

/** Cognito's name for an authenticator app (TOTP) among the MFA methods a person turned on. */
export const AUTHENTICATOR_APP = 'SOFTWARE_TOKEN_MFA';

/**
 * Whether the tokens the user pool is about to issue come from a sign-in that used MFA, for the access token's `mfa`
 * claim (functions/pre-token-generation). Cognito tells the trigger nothing of how the person signed in, but it asks
 * a person who turned on an authenticator app for its code at every sign-in (the pool offers no remembered devices,
 * no passwordless first factor, and adaptive authentication never skips MFA a person has turned on): so, at sign-in,
 * "has turned it on" is "used it". People of a company's identity provider (SSO) are never asked by Cognito, whatever
 * their provider did: never MFA here. A renewal (refresh) is judged the same way, with what the person has turned
 * on now: someone who turned it on during a session could have signed in with it anyway, and someone who turned it
 * off loses the claim at the next renewal.
 */
export function signInUsedMfa(person: { federated: boolean; mfaMethods: readonly string[] }): boolean {
  return !person.federated && person.mfaMethods.includes(AUTHENTICATOR_APP);
}
