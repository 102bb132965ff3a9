import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { AwsJsonError } from './aws-json-server';
import type { LocalPasskey, LocalUser, LocalUserDirectory } from './user-directory';

/** How long a ceremony's challenge may be answered: once, within this, or never. */
const CHALLENGE_MS = 2 * 60_000;
/** What the browser is told to wait for the person (WebAuthn's timeout), well inside the challenge's life. */
const CEREMONY_TIMEOUT_MS = 60_000;
/** Passkeys one person may keep (Cognito keeps 20). */
const MAX_PASSKEYS = 20;

export interface PasskeySettings {
  /** The relying party: `localhost` for a local run, whose pages (the dashboard's, the sign-in page's) all live there. */
  rpId: string;
  /** Pages that may register a passkey: the dashboard's origins (as Cognito's user API takes it from an app's page). */
  registrationOrigins: string[];
  /** The page that signs in with one: the local provider's origin (Cognito's managed login domain on AWS). */
  signInOrigin: string;
}

/** A challenge waiting for its one answer. */
interface Pending {
  challenge: string;
  expiresAtMs: number;
}

/**
 * The local user pool's passkeys, as Cognito plays them with user verification required (the template's setting):
 * a person registers one with their access token (StartWebAuthnRegistration, CompleteWebAuthnRegistration), lists and
 * deletes theirs (ListWebAuthnCredentials, DeleteWebAuthnCredential), and signs in with one on the sign-in page
 * (a discoverable credential: no email typed). Every challenge is random, answered once (taken before it is checked)
 * and short-lived; every answer is verified with @simplewebauthn/server against the challenge, the relying party id,
 * the origin of the page that may make it, user verification, the registered public key and its counter.
 */
export class LocalPasskeys {
  private readonly registrations = new Map<string, Pending>();
  private readonly signIns = new Map<string, Pending>();

  constructor(
    private readonly settings: PasskeySettings,
    private readonly users: LocalUserDirectory,
    private readonly now: () => number = Date.now,
  ) {}

  /** StartWebAuthnRegistration's `CredentialCreationOptions`: a resident key, verified, none of the person's own again. */
  async startRegistration(user: LocalUser): Promise<unknown> {
    const options = await generateRegistrationOptions({
      rpName: 'Shortener (local)',
      rpID: this.settings.rpId,
      userName: user.email,
      userID: new TextEncoder().encode(user.sub),
      timeout: CEREMONY_TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: (user.passkeys ?? []).map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    this.registrations.set(user.sub, { challenge: options.challenge, expiresAtMs: this.now() + CHALLENGE_MS });
    return options;
  }

  /** CompleteWebAuthnRegistration: the authenticator's answer to this person's pending challenge, kept once verified. */
  async completeRegistration(user: LocalUser, credential: unknown): Promise<void> {
    const pending = this.take(this.registrations, user.sub);
    if (!pending) throw new AwsJsonError('WebAuthnChallengeNotFoundException', 'No passkey registration was started, or it expired.');
    if ((user.passkeys?.length ?? 0) >= MAX_PASSKEYS) throw new AwsJsonError('LimitExceededException', 'Too many passkeys for this user.');
    const verified = await verifyRegistrationResponse({
      response: credential as RegistrationResponseJSON,
      expectedChallenge: pending.challenge,
      expectedOrigin: this.settings.registrationOrigins,
      expectedRPID: this.settings.rpId,
      requireUserVerification: true,
    }).catch((error: unknown) => {
      throw cognitoError(error);
    });
    if (!verified.verified) throw new AwsJsonError('WebAuthnCredentialNotSupportedException', 'The passkey could not be verified.');
    const made = verified.registrationInfo.credential;
    const attachment = (credential as RegistrationResponseJSON).authenticatorAttachment;
    if (this.users.findByPasskey(made.id)) throw new AwsJsonError('WebAuthnCredentialNotSupportedException', 'This passkey is already registered.');
    const passkey: LocalPasskey = {
      id: made.id,
      publicKey: Buffer.from(made.publicKey).toString('base64url'),
      counter: made.counter,
      transports: made.transports ?? [],
      ...(attachment ? { attachment } : {}),
      name: `Passkey ${new Date(this.now()).toISOString().slice(0, 10)}`,
      createdAt: new Date(this.now()).toISOString(),
    };
    this.users.update(user.sub, (found) => (found.passkeys = [...(found.passkeys ?? []), passkey]));
  }

  /** ListWebAuthnCredentials' descriptions of the person's passkeys (CreatedAt in epoch seconds, as the API sends it). */
  list(user: LocalUser): unknown[] {
    return (user.passkeys ?? []).map((passkey) => ({
      CredentialId: passkey.id,
      FriendlyCredentialName: passkey.name,
      RelyingPartyId: this.settings.rpId,
      ...(passkey.attachment ? { AuthenticatorAttachment: passkey.attachment } : {}),
      AuthenticatorTransports: passkey.transports,
      CreatedAt: Date.parse(passkey.createdAt) / 1000,
    }));
  }

  /** DeleteWebAuthnCredential: one of the person's own passkeys; anyone else's is as unknown as a made-up id. */
  delete(user: LocalUser, credentialId: unknown): void {
    if (typeof credentialId !== 'string' || !user.passkeys?.some((passkey) => passkey.id === credentialId)) throw new AwsJsonError('ResourceNotFoundException', 'Credential not found.');
    this.users.update(user.sub, (found) => (found.passkeys = (found.passkeys ?? []).filter((passkey) => passkey.id !== credentialId)));
  }

  /** A sign-in's request options, bound to its interaction: any of the pool's passkeys, verified. */
  async startSignIn(interactionId: string): Promise<unknown> {
    const options = await generateAuthenticationOptions({ rpID: this.settings.rpId, userVerification: 'required', timeout: CEREMONY_TIMEOUT_MS });
    this.signIns.set(interactionId, { challenge: options.challenge, expiresAtMs: this.now() + CHALLENGE_MS });
    return options;
  }

  /**
   * The person an assertion signs in, or undefined: it must answer this interaction's challenge (once), come from the
   * sign-in page's origin for this relying party, verify the person, be signed by a registered passkey whose counter
   * it raises, and name that passkey's own owner (its user handle).
   */
  async finishSignIn(interactionId: string, assertion: unknown): Promise<LocalUser | undefined> {
    const pending = this.take(this.signIns, interactionId);
    const response = assertion as AuthenticationResponseJSON | undefined;
    if (!pending || typeof response?.id !== 'string') return undefined;
    const user = this.users.findByPasskey(response.id);
    const passkey = user?.passkeys?.find((candidate) => candidate.id === response.id);
    if (!user || !passkey) return undefined;
    if (response.response?.userHandle !== Buffer.from(user.sub).toString('base64url')) return undefined;
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: pending.challenge,
      expectedOrigin: this.settings.signInOrigin,
      expectedRPID: this.settings.rpId,
      credential: { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter, transports: passkey.transports },
      requireUserVerification: true,
    }).catch(() => undefined);
    if (!verified?.verified) return undefined;
    this.users.update(user.sub, (found) => {
      const kept = found.passkeys?.find((candidate) => candidate.id === passkey.id);
      if (kept) kept.counter = verified.authenticationInfo.newCounter;
    });
    return user;
  }

  /** A pending challenge, removed whatever follows (answered once), if it has not expired. */
  private take(pendings: Map<string, Pending>, key: string): Pending | undefined {
    const pending = pendings.get(key);
    pendings.delete(key);
    return pending && pending.expiresAtMs > this.now() ? pending : undefined;
  }
}

/** Cognito's exception for a registration answer that does not verify, by what @simplewebauthn/server found wrong. */
function cognitoError(error: unknown): AwsJsonError {
  const message = error instanceof Error ? error.message : '';
  if (/origin/i.test(message)) return new AwsJsonError('WebAuthnOriginNotAllowedException', 'The passkey was made on a page this pool does not allow.');
  if (/RP ID/i.test(message)) return new AwsJsonError('WebAuthnRelyingPartyMismatchException', 'The passkey is for another relying party.');
  if (/challenge/i.test(message)) return new AwsJsonError('WebAuthnChallengeNotFoundException', 'The passkey answers another challenge.');
  return new AwsJsonError('WebAuthnCredentialNotSupportedException', 'The passkey could not be verified.');
}
