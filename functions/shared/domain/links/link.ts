/** A stored link. Dates are ISO 8601 UTC with milliseconds, as the spec returns them. */
export interface LinkRecord {
  code: string;
  /** The custom domain the link lives on (issue 17); absent on the deployment's shared short domain. */
  domain?: string;
  /** Absent once the link is a tombstone. */
  url?: string;
  isAlias: boolean;
  passwordHash?: string;
  createdAt: string;
  expiresAt?: string;
  maxClicks?: number;
  clicks: number;
  owner: string;
  /** Set when maxClicks was reached: the code stays taken and answers 410 forever. */
  retired?: boolean;
  /** Set by DELETE: a tombstone like a retired link, the code taken forever. */
  deleted?: boolean;
  /** Set by an operator's takedown; the reason is for the record, never shown to visitors. */
  disabled?: boolean;
  disabledReason?: string;
  /** Last change by the owner or an operator; links created before edits existed have none (createdAt stands in). */
  updatedAt?: string;
  /** Epoch ms until which copies of this plain link may exist in containers and browsers (see cache-lease.ts). */
  cacheLeaseUntil?: number;
  /** Epoch ms until which no new lease may be taken: an edit is waiting for the copies to go. */
  cacheSealedUntil?: number;
}

export const LINK_STATUSES = ['active', 'expired', 'used-up', 'disabled', 'deleted'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** A takedown outranks everything; a tombstone says how it became one; expiry is read against the clock. */
export function statusOf(link: LinkRecord, nowMs: number): LinkStatus {
  if (link.disabled) return 'disabled';
  if (link.deleted) return 'deleted';
  if (link.retired || (link.maxClicks !== undefined && link.clicks >= link.maxClicks)) return 'used-up';
  return isExpired(link, nowMs) ? 'expired' : 'active';
}

/**
 * Where a link is stored and counted: its code on the shared domain (every link made before custom domains keeps
 * its key), `<domain>/<code>` on a custom domain. `/` occurs in neither a host name nor a code, so keys never meet,
 * and the same code on two domains is two links.
 */
export function linkKey(domain: string | undefined, code: string): string {
  return domain === undefined ? code : `${domain}/${code}`;
}

export const keyOf = (link: Pick<LinkRecord, 'domain' | 'code'>) => linkKey(link.domain, link.code);

/** The base URL a link's short URL starts with: its custom domain's, else the deployment's. */
function baseUrlOf(link: Pick<LinkRecord, 'domain'>, shortBaseUrl: string): string {
  return link.domain === undefined ? shortBaseUrl : `https://${link.domain}`;
}

/** What GET /v2/links/{code} shows the owner. */
export interface LinkView {
  shortUrl: string;
  shortCode: string;
  /** The host the link is served on: its custom domain, or the shared short domain's host. */
  domain: string;
  url?: string;
  alias?: string;
  createdAt: string;
  updatedAt: string;
  expiresAt?: string;
  maxClicks?: number;
  clicks: number;
  passwordProtected: boolean;
  status: LinkStatus;
}

export function shortUrlOf(code: string, shortBaseUrl: string): string {
  return `${shortBaseUrl.replace(/\/+$/, '')}/${code}`;
}

export function toLinkView(link: LinkRecord, shortBaseUrl: string, nowMs: number): LinkView {
  const status = statusOf(link, nowMs);
  return {
    shortUrl: shortUrlOf(link.code, baseUrlOf(link, shortBaseUrl)),
    shortCode: link.code,
    domain: link.domain ?? new URL(shortBaseUrl).host,
    ...(link.url !== undefined && status !== 'used-up' && status !== 'deleted' ? { url: link.url } : {}),
    ...(link.isAlias ? { alias: link.code } : {}),
    createdAt: link.createdAt,
    updatedAt: link.updatedAt ?? link.createdAt,
    ...(link.expiresAt ? { expiresAt: link.expiresAt } : {}),
    ...(link.maxClicks !== undefined ? { maxClicks: link.maxClicks } : {}),
    clicks: link.clicks,
    passwordProtected: link.passwordHash !== undefined,
    status,
  };
}

/** The 201 body of spec 2.2; optional fields appear only when the request set them. */
export interface CreatedLinkView {
  shortUrl: string;
  shortCode: string;
  url: string;
  alias?: string;
  expiresAt?: string;
  maxClicks?: number;
  createdAt: string;
}

export function toCreatedLinkView(link: LinkRecord & { url: string }, shortBaseUrl: string): CreatedLinkView {
  return {
    shortUrl: shortUrlOf(link.code, baseUrlOf(link, shortBaseUrl)),
    shortCode: link.code,
    url: link.url,
    ...(link.isAlias ? { alias: link.code } : {}),
    ...(link.expiresAt ? { expiresAt: link.expiresAt } : {}),
    ...(link.maxClicks !== undefined ? { maxClicks: link.maxClicks } : {}),
    createdAt: link.createdAt,
  };
}

export function isExpired(link: LinkRecord, nowMs: number): boolean {
  return link.expiresAt !== undefined && Date.parse(link.expiresAt) <= nowMs;
}

