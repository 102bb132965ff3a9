import { startRegistration, type PublicKeyCredentialCreationOptionsJSON, type RegistrationResponseJSON } from '@simplewebauthn/browser';
import { REFUSED, userApi, UserApiFailed, type Fetch } from './user-api';

/**
 * The signed-in person's passkeys, through the pool's user API with their access token (user-api.ts): listed,
 * added (the pool's creation options, the browser's authenticator, the pool verifies the answer) and deleted.
 * The browser is passed in (`register`), so this is unit-tested in Node.
 */

export interface Passkey {
  id: string;
  name: string;
  /** When it was registered (Cognito sends epoch seconds). */
  createdAt: Date;
}

type Register = (options: { optionsJSON: PublicKeyCredentialCreationOptionsJSON }) => Promise<RegistrationResponseJSON>;

const explain = (type: unknown) => (type === 'WebAuthnNotEnabledException' ? 'Passkeys are not turned on for this sign-in service.' : type === 'LimitExceededException' ? 'You have as many passkeys as you may keep: delete one first.' : REFUSED);

export async function listPasskeys(issuer: string, accessToken: string, fetcher: Fetch = fetch): Promise<Passkey[]> {
  const { Credentials } = await userApi(issuer, 'ListWebAuthnCredentials', { AccessToken: accessToken }, explain, fetcher);
  return (Array.isArray(Credentials) ? (Credentials as Array<Record<string, unknown>>) : []).map((credential) => ({
    id: String(credential.CredentialId),
    name: typeof credential.FriendlyCredentialName === 'string' && credential.FriendlyCredentialName !== '' ? credential.FriendlyCredentialName : 'Passkey',
    createdAt: new Date(Number(credential.CreatedAt) * 1000),
  }));
}

/**
 * Whether a page on `host` may make a passkey for relying party `rpId`: the same host or one below it (WebAuthn's
 * rule, which the browser enforces anyway). On AWS the pool's relying party is its managed login domain, whose pages
 * make passkeys, not the dashboard's: the page says so instead of letting the browser fail.
 */
export function hostMayUse(rpId: string, host: string): boolean {
  return host === rpId || host.endsWith(`.${rpId}`);
}

/** Registers a passkey: the pool's options, the browser's authenticator (the person verified), the pool's check. */
export async function addPasskey(issuer: string, accessToken: string, host: string, register: Register = startRegistration, fetcher: Fetch = fetch): Promise<void> {
  const { CredentialCreationOptions } = await userApi(issuer, 'StartWebAuthnRegistration', { AccessToken: accessToken }, explain, fetcher);
  const options = CredentialCreationOptions as PublicKeyCredentialCreationOptionsJSON | undefined;
  const rpId = options?.rp?.id ?? host;
  if (!options?.challenge) throw new UserApiFailed('The sign-in service sent no passkey request: try again.');
  if (!hostMayUse(rpId, host)) throw new UserApiFailed(`Passkeys for this account belong to ${rpId}: add one on its sign-in pages when you next sign in.`);
  let credential: RegistrationResponseJSON;
  try {
    credential = await register({ optionsJSON: options });
  } catch {
    throw new UserApiFailed('No passkey was made: the browser or the person cancelled it. Try again.');
  }
  const refusal = (type: unknown) => (typeof type === 'string' && type.startsWith('WebAuthn') ? 'The sign-in service did not accept that passkey: try again, or use another one.' : explain(type));
  await userApi(issuer, 'CompleteWebAuthnRegistration', { AccessToken: accessToken, Credential: credential }, refusal, fetcher);
}

export async function deletePasskey(issuer: string, accessToken: string, id: string, fetcher: Fetch = fetch): Promise<void> {
  await userApi(issuer, 'DeleteWebAuthnCredential', { AccessToken: accessToken, CredentialId: id }, (type) => (type === 'ResourceNotFoundException' ? 'That passkey is already gone.' : explain(type)), fetcher);
}
