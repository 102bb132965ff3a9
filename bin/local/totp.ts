import { Secret, TOTP } from 'otpauth';

/** Authenticator apps' codes as Cognito's software-token MFA takes them: RFC 6238, SHA-1, 6 digits, 30 s. */
const totpOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The current code, or the one before or after it (a clock a little off, a code typed at the turn of a period). */
export function totpMatches(secret: string, code: string): boolean {
  return /^\d{6}$/.test(code) && totpOf(secret).validate({ token: code, window: 1 }) !== null;
}

export function totpCode(secret: string): string {
  return totpOf(secret).generate();
}
