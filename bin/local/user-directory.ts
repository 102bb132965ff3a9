import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { hashPassword, verifyPassword } from '../../functions/shared/domain/links/password';

/**
 * The local user pool's people: what Cognito keeps about a user that signing in needs. A user made with a temporary
 * password must be given a permanent one first (Cognito's FORCE_CHANGE_PASSWORD, which the local sign-in page does
 * not offer to resolve); people who enrolled an authenticator app and turned MFA on give its code after their password.
 */
export interface LocalUser {
  sub: string;
  email: string;
  emailVerified: boolean;
  status: 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD';
  passwordHash: string;
  createdAt: string;
  /** An authenticator app's secret (base32) offered by AssociateSoftwareToken, until a code from it is verified. */
  pendingTotpSecret?: string;
  /** The verified secret; sign-in asks for its code once `mfaEnabled`. */
  totpSecret?: string;
  mfaEnabled?: boolean;
  /** Passkeys registered with CompleteWebAuthnRegistration (bin/local/passkeys.ts), signed in with on the sign-in page. */
  passkeys?: LocalPasskey[];
}

/** A registered passkey: what verifying its assertions needs, and what ListWebAuthnCredentials shows. */
export interface LocalPasskey {
  /** The credential id (base64url), as the authenticator gives it. */
  id: string;
  /** Its COSE public key, base64url. */
  publicKey: string;
  /** The authenticator's signature counter: an assertion must raise it (when the authenticator keeps one). */
  counter: number;
  transports: string[];
  attachment?: string;
  name: string;
  createdAt: string;
}

/** Emails are user names, compared as Cognito does with case-insensitive sign-in (the pool's setting). */
const nameOf = (email: string) => email.trim().toLowerCase();

/** Kept in a JSON file under the local stack's data directory, or in memory (LOCAL_IN_MEMORY=1). */
export class LocalUserDirectory {
  private readonly users = new Map<string, LocalUser>();

  constructor(private readonly file?: string) {
    const saved = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LocalUser[]) : [];
    for (const user of saved) this.users.set(nameOf(user.email), user);
  }

  find(sub: string): LocalUser | undefined {
    return [...this.users.values()].find((user) => user.sub === sub);
  }

  findByEmail(email: string): LocalUser | undefined {
    return this.users.get(nameOf(email));
  }

  /** The user who registered this passkey, if any (credential ids are the authenticator's random bytes: unique). */
  findByPasskey(credentialId: string): LocalUser | undefined {
    return [...this.users.values()].find((user) => user.passkeys?.some((passkey) => passkey.id === credentialId));
  }

  /** A new user (undefined when the email is taken), confirmed when `permanent`, else waiting for a permanent password. */
  async create(email: string, password: string, options: { permanent: boolean; emailVerified?: boolean }): Promise<LocalUser | undefined> {
    if (this.users.has(nameOf(email))) return undefined;
    const user: LocalUser = {
      sub: randomUUID(),
      email: email.trim(),
      emailVerified: options.emailVerified ?? true,
      status: options.permanent ? 'CONFIRMED' : 'FORCE_CHANGE_PASSWORD',
      passwordHash: await hashPassword(password),
      createdAt: new Date().toISOString(),
    };
    this.users.set(nameOf(email), user);
    this.save();
    return user;
  }

  async setPassword(email: string, password: string, permanent: boolean): Promise<LocalUser | undefined> {
    const user = this.findByEmail(email);
    if (!user) return undefined;
    Object.assign(user, { passwordHash: await hashPassword(password), status: permanent ? 'CONFIRMED' : 'FORCE_CHANGE_PASSWORD' });
    this.save();
    return user;
  }

  /** Changes a user (found by `sub`) and keeps the change; undefined when there is no such user. */
  update(sub: string, change: (user: LocalUser) => void): LocalUser | undefined {
    const user = this.find(sub);
    if (!user) return undefined;
    change(user);
    this.save();
    return user;
  }

  /** The user these credentials sign in, if any: a confirmed user and the right password. */
  async signIn(email: string, password: string): Promise<LocalUser | undefined> {
    const user = this.findByEmail(email);
    // An unknown email costs a hash too, so the answer's timing does not say which emails exist.
    const matches = await verifyPassword(password, user?.passwordHash ?? UNKNOWN_USER_HASH);
    return user && matches && user.status === 'CONFIRMED' ? user : undefined;
  }

  private save(): void {
    if (!this.file) return;
    mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileSync(this.file, JSON.stringify([...this.users.values()], null, 2), { mode: 0o600 });
  }
}

/** A hash no password matches (its salt and key are zeros), checked for unknown emails. */
const UNKNOWN_USER_HASH = `scrypt$32768$8$1$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(32).toString('base64url')}`;
