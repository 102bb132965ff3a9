/**
 * Turning on an authenticator app (TOTP) for the signed-in person, as Cognito's own apps do: the pool's user API
 * called from the page with the person's access token (scope `aws.cognito.signin.user.admin`), at the issuer's
 * origin (Cognito's `https://cognito-idp.<region>.amazonaws.com/`, or the local provider's port). Nothing here
 * touches the page: the caller passes the token, so it is unit-tested in Node.
 */

type Fetch = typeof fetch;

/** A refusal in words for the person (Cognito's `message`, or the network's failure). */
export class AuthenticatorFailed extends Error {}

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService';

async function userApi(issuer: string, operation: string, input: Record<string, unknown>, fetcher: Fetch): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetcher(`${new URL(issuer).origin}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `${TARGET_PREFIX}.${operation}` },
      body: JSON.stringify(input),
    });
  } catch {
    throw new AuthenticatorFailed('The sign-in service could not be reached. Check your connection and try again.');
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const mismatch = body.__type === 'EnableSoftwareTokenMFAException' || body.__type === 'CodeMismatchException';
    throw new AuthenticatorFailed(mismatch ? 'That code does not match: type the code the app shows now.' : 'The sign-in service refused: sign out, sign in again and retry.');
  }
  return body;
}

/** The new secret to put in the app (base32, as apps take it typed), and the otpauth URI apps take as a QR code. */
export async function startAuthenticator(issuer: string, accessToken: string, email: string, fetcher: Fetch = fetch): Promise<{ secret: string; uri: string }> {
  const { SecretCode } = await userApi(issuer, 'AssociateSoftwareToken', { AccessToken: accessToken }, fetcher);
  if (typeof SecretCode !== 'string' || SecretCode === '') throw new AuthenticatorFailed('The sign-in service sent no secret: try again.');
  const label = encodeURIComponent(`Shortener:${email}`);
  return { secret: SecretCode, uri: `otpauth://totp/${label}?secret=${SecretCode}&issuer=Shortener` };
}

/** The app's first code proves it holds the secret; then MFA is turned on, asked at every sign-in from the next. */
export async function finishAuthenticator(issuer: string, accessToken: string, code: string, fetcher: Fetch = fetch): Promise<void> {
  if (!/^\d{6}$/.test(code)) throw new AuthenticatorFailed('Type the 6 digits the app shows.');
  await userApi(issuer, 'VerifySoftwareToken', { AccessToken: accessToken, UserCode: code, FriendlyDeviceName: 'Authenticator app' }, fetcher);
  await userApi(issuer, 'SetUserMFAPreference', { AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }, fetcher);
}
