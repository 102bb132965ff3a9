import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '../accounts/permissions';

/** An invitation is good for 7 days: TTL removes it afterwards, and every read checks the time too (TTL lags). */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60_000;

/** 32 random bytes, base64url: 43 characters, 256 bits nobody guesses. */
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const INVITATION_ID_SHAPE = /^inv_[A-Za-z0-9_-]{16}$/;

/**
 * A pending invitation, as stored: who is invited (the email as typed, and its lower-case form it is bound to), to
 * which role, by whom, until when. The token itself is never stored, only its SHA-256, under which it is found.
 */
export interface Invitation {
  id: string;
  workspaceId: string;
  email: string;
  /** The email compared on acceptance: case-insensitively, as mail systems treat addresses in practice. */
  emailKey: string;
  role: Role;
  invitedBy: { userId: string; email: string };
  createdAt: string;
  expiresAt: string;
}

/** What the API shows of an invitation: never its token nor its hash. */
export type InvitationView = Pick<Invitation, 'id' | 'email' | 'role' | 'invitedBy' | 'createdAt' | 'expiresAt'>;

export function toInvitationView({ id, email, role, invitedBy, createdAt, expiresAt }: Invitation): InvitationView {
  return { id, email, role, invitedBy, createdAt, expiresAt };
}

export function emailKeyOf(email: string): string {
  return email.trim().toLowerCase();
}

/** A fresh single-use token and the hash it is stored under. */
export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, tokenHash: hashInvitationToken(token) };
}

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Anything else than a token's shape is no token: refused without a read. */
export function isTokenShaped(candidate: string): boolean {
  return TOKEN_SHAPE.test(candidate);
}

export function newInvitationId(): string {
  return `inv_${randomBytes(12).toString('base64url')}`;
}

export function isInvitationIdShaped(candidate: string): boolean {
  return INVITATION_ID_SHAPE.test(candidate);
}

export function isExpired(invitation: Pick<Invitation, 'expiresAt'>, nowMs: number): boolean {
  return Date.parse(invitation.expiresAt) <= nowMs;
}
