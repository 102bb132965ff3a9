import { REFUSED, userApi, UserApiFailed, type Fetch } from './user-api';

/**
 * Turning on an authenticator app (TOTP) for the signed-in person, as Cognito's own apps do: the pool's user API
 * (user-api.ts) called from the page with the person's access token. Nothing here touches the page: the caller
 * passes the token, so it is unit-tested in Node.
 */

/** A refusal in words for the person: the user API's, or this flow's own (a code that is not 6 digits). */
export class AuthenticatorFailed extends UserApiFailed {}

/** A wrong code is the person's to fix; anything else, their session's. */
const explain = (type: unknown) => (type === 'EnableSoftwareTokenMFAException' || type === 'CodeMismatchException' ? 'That code does not match: type the code the app shows now.' : REFUSED);

/** The new secret to put in the app (base32, as apps take it typed), and the otpauth URI apps take as a QR code. */
export async function startAuthenticator(issuer: string, accessToken: string, email: string, fetcher: Fetch = fetch): Promise<{ secret: string; uri: string }> {
  const { SecretCode } = await userApi(issuer, 'AssociateSoftwareToken', { AccessToken: accessToken }, explain, fetcher);
  if (typeof SecretCode !== 'string' || SecretCode === '') throw new AuthenticatorFailed('The sign-in service sent no secret: try again.');
  const label = encodeURIComponent(`Shortener:${email}`);
  return { secret: SecretCode, uri: `otpauth://totp/${label}?secret=${SecretCode}&issuer=Shortener` };
}

/** The app's first code proves it holds the secret; then MFA is turned on, asked at every sign-in from the next. */
export async function finishAuthenticator(issuer: string, accessToken: string, code: string, fetcher: Fetch = fetch): Promise<void> {
  if (!/^\d{6}$/.test(code)) throw new AuthenticatorFailed('Type the 6 digits the app shows.');
  await userApi(issuer, 'VerifySoftwareToken', { AccessToken: accessToken, UserCode: code, FriendlyDeviceName: 'Authenticator app' }, explain, fetcher);
  await userApi(issuer, 'SetUserMFAPreference', { AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }, explain, fetcher);
}
