import { createHash } from 'node:crypto';
import type { DnsRecord } from '../domains/custom-domain';

export const SSO_PROTOCOLS = ['oidc', 'saml'] as const;
export type SsoProtocol = (typeof SSO_PROTOCOLS)[number];

/**
 * A workspace's single sign-on for one email domain (issue 29, ENTERPRISE). `pending` until the domain's TXT record
 * proves the workspace controls it; only then does the identity provider take that domain's people at sign-in. The
 * OIDC client secret is handed to the user pool and never stored here.
 */
export interface SsoConnection {
  workspaceId: string;
  /** The email domain, stored as DNS compares it (lower-case ASCII). */
  domain: string;
  protocol: SsoProtocol;
  status: 'pending' | 'active';
  /** The TXT challenge's value: random, shown only to the workspace. */
  claimId: string;
  /** The identity provider's name in the user pool: derived, so a retry after a crash names the same one. */
  providerName: string;
  oidc?: { issuer: string; clientId: string };
  saml?: { metadataUrl: string };
  createdAt: string;
  verifiedAt?: string;
}

/** What the API shows: the connection and the DNS record that proves the domain. */
export interface SsoConnectionView {
  domain: string;
  protocol: SsoProtocol;
  status: SsoConnection['status'];
  dnsRecord: DnsRecord;
  oidc?: { issuer: string; clientId: string };
  saml?: { metadataUrl: string };
  createdAt: string;
  verifiedAt?: string;
}

/**
 * A user pool's provider names are 1–32 characters and unique in the pool: a hash of workspace and domain fits,
 * tells nobody whose it is, and is the same on every retry.
 */
export function providerNameFor(workspaceId: string, domain: string): string {
  return `sso-${createHash('sha256').update(`${workspaceId}\n${domain}`).digest('hex').slice(0, 24)}`;
}

/** Connections a workspace may hold: one per email domain its people use, and few domains per company. */
export const MAX_SSO_CONNECTIONS = 10;
