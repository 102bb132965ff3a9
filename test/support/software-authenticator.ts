import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** WebAuthn's authenticator data flags: user present, user verified, attested credential data included. */
const USER_PRESENT = 0x01;
const USER_VERIFIED = 0x04;
const ATTESTED = 0x40;

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');
const counterBytes = (counter: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
};

interface Ceremony {
  challenge: string;
  origin: string;
  rpId: string;
  /** Whether the authenticator says it verified the person (PIN or biometric); true unless a test says otherwise. */
  userVerified?: boolean;
}

/**
 * A passkey in software for unit tests: an ES256 key pair that answers WebAuthn registrations (attestation `none`)
 * and sign-ins exactly as a browser hands them over (the JSON @simplewebauthn/browser makes), for any challenge,
 * origin and relying party a test names, so a test can make every answer an attacker could.
 */
export class SoftwarePasskey {
  readonly id = b64url(randomBytes(16));
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private counter = 0;

  constructor(readonly userHandle: string) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    this.publicJwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  }

  /** A RegistrationResponseJSON for `ceremony`. */
  register(ceremony: Ceremony): unknown {
    const cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(this.publicJwk.x, 'base64url')],
        [-3, Buffer.from(this.publicJwk.y, 'base64url')],
      ]),
    );
    const credentialId = Buffer.from(this.id, 'base64url');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([sha256(ceremony.rpId), Buffer.of(this.flags(ceremony) | ATTESTED), counterBytes(this.counter), Buffer.alloc(16), length, credentialId, Buffer.from(cosePublicKey)]);
    const attestationObject = isoCBOR.encode(new Map<string, string | Map<string, string> | Uint8Array>([['fmt', 'none'], ['attStmt', new Map<string, string>()], ['authData', authData]]));
    return this.credentialJson({ clientDataJSON: this.clientData('webauthn.create', ceremony), attestationObject: b64url(attestationObject), transports: ['internal'] });
  }

  /** An AuthenticationResponseJSON for `ceremony`, its counter one higher than the last. */
  assert(ceremony: Ceremony, userHandle = this.userHandle): unknown {
    this.counter += 1;
    const authData = Buffer.concat([sha256(ceremony.rpId), Buffer.of(this.flags(ceremony)), counterBytes(this.counter)]);
    const clientDataJSON = this.clientData('webauthn.get', ceremony);
    const signature = sign('sha256', Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), this.privateKey);
    return this.credentialJson({ clientDataJSON, authenticatorData: b64url(authData), signature: b64url(signature), userHandle: b64url(Buffer.from(userHandle)) });
  }

  /** This passkey's answer as WebAuthn's JSON spells it, around the ceremony's own response. */
  private credentialJson(response: Record<string, unknown>): unknown {
    return { id: this.id, rawId: this.id, type: 'public-key', clientExtensionResults: {}, authenticatorAttachment: 'platform', response };
  }

  private flags(ceremony: Ceremony): number {
    return USER_PRESENT | (ceremony.userVerified === false ? 0 : USER_VERIFIED);
  }

  private clientData(type: string, ceremony: Ceremony): string {
    return b64url(Buffer.from(JSON.stringify({ type, challenge: ceremony.challenge, origin: ceremony.origin, crossOrigin: false })));
  }
}
