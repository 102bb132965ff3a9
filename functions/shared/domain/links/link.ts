import type { SmartFields } from '../destinations/smart-link';
import type { DomainRecord } from '../domains/custom-domain';
import { toHealthView, type HealthView, type LinkHealthRecord } from '../health/link-health';
import type { ImportSource } from '../imports/import-record';

/**
 * A stored link. Dates are ISO 8601 UTC with milliseconds, as the spec returns them. The smart-link fields (issue
 * 18) go with the destination: a tombstone keeps only `expiredUrl`.
 */
export interface LinkRecord extends SmartFields {
  code: string;
  /** The custom domain the link lives on (issue 17); absent on the deployment's shared short domain. */
  domain?: string;
  /** The claim of `domain` the link was made under (its DomainRecord `claimId`); absent on the shared domain and before claim ids. */
  claimId?: string;
  /** Absent once the link is a tombstone. */
  url?: string;
  isAlias: boolean;
  passwordHash?: string;
  createdAt: string;
  expiresAt?: string;
  maxClicks?: number;
  clicks: number;
  /** Bots' visits (issue 30), added by the aggregator beside `clicks`, which counts people only; absent: none yet. */
  bots?: number;
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
  /** Lower-cased, no repeats, at most 10 (issue 20); absent when none. */
  tags?: string[];
  /** Epoch ms until which copies of this plain link may exist in containers and browsers (see cache-lease.ts). */
  cacheLeaseUntil?: number;
  /** Epoch ms until which no new lease may be taken: an edit is waiting for the copies to go. */
  cacheSealedUntil?: number;
  /** Its destinations' latest check (issue 31), written by the health worker only; absent until the first. */
  health?: LinkHealthRecord;
  /** An imported link's clicks at the peer (issue 31): shown apart, "before import"; never in `clicks` nor toward maxClicks. */
  importedClicks?: number;
  /** Where an imported link came from. */
  importedFrom?: ImportOrigin;
  /**
   * When this service made the item, where `createdAt` says something else: an imported link's `createdAt` is the
   * peer's, chosen by whoever wrote the file. Absent: `createdAt` is that instant.
   */
  madeAt?: string;
}

/**
 * The first UTC day whose counts are this link's: a code freed by the TTL and taken again keeps its day counts for
 * 400 days, and a new holder must not read the former one's visitors (analytics/link-stats.ts).
 */
export const firstDayOf = (link: Pick<LinkRecord, 'createdAt' | 'madeAt'>): string => (link.madeAt ?? link.createdAt).slice(0, 10);

/** The peer, the link's id there (the import's idempotency key) and the import that brought it (absent on the first imports). */
export interface ImportOrigin {
  source: ImportSource;
  sourceId: string;
  importId?: string;
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

/**
 * Whether a link on a custom domain belongs to the claim that holds the name now (issue 27): a reclaimed name
 * serves and shows nothing made under an earlier claim. A link made before claim ids carries none: it belongs to
 * whichever claim its own owner holds (no other account's claim can be the one it was made under).
 */
export function madeUnderClaim(link: Pick<LinkRecord, 'owner' | 'claimId'>, holder: Pick<DomainRecord, 'owner' | 'claimId'>): boolean {
  return link.claimId === undefined ? link.owner === holder.owner : link.claimId === holder.claimId;
}

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
  tags?: string[];
  rules?: SmartFields['rules'];
  variants?: SmartFields['variants'];
  /** Shown only when on. */
  forwardQuery?: true;
  utm?: SmartFields['utm'];
  expiredUrl?: string;
  /** Its destinations' latest check (issue 31); absent until the first, and once the link is used up or deleted. */
  health?: HealthView;
  /** Imported links only (issue 31). */
  importedClicks?: number;
  importedFrom?: ImportOrigin;
}

/** The smart-link fields the view shows: the destinations go with `url` when a link is used up or deleted. */
function smartFieldsOf(link: LinkRecord, ended: boolean): Pick<LinkView, keyof SmartFields> {
  return {
    ...(link.rules && !ended ? { rules: link.rules } : {}),
    ...(link.variants && !ended ? { variants: link.variants } : {}),
    ...(link.forwardQuery && !ended ? { forwardQuery: true } : {}),
    ...(link.utm && !ended ? { utm: link.utm } : {}),
    ...(link.expiredUrl ? { expiredUrl: link.expiredUrl } : {}),
  };
}

export function shortUrlOf(code: string, shortBaseUrl: string): string {
  return `${shortBaseUrl.replace(/\/+$/, '')}/${code}`;
}

export function toLinkView(link: LinkRecord, shortBaseUrl: string, nowMs: number): LinkView {
  const status = statusOf(link, nowMs);
  const ended = status === 'used-up' || status === 'deleted';
  return {
    shortUrl: shortUrlOf(link.code, baseUrlOf(link, shortBaseUrl)),
    shortCode: link.code,
    domain: link.domain ?? new URL(shortBaseUrl).host,
    ...(link.url !== undefined && !ended ? { url: link.url } : {}),
    ...(link.isAlias ? { alias: link.code } : {}),
    createdAt: link.createdAt,
    updatedAt: link.updatedAt ?? link.createdAt,
    ...(link.expiresAt ? { expiresAt: link.expiresAt } : {}),
    ...(link.maxClicks !== undefined ? { maxClicks: link.maxClicks } : {}),
    clicks: link.clicks,
    passwordProtected: link.passwordHash !== undefined,
    status,
    ...(link.tags ? { tags: link.tags } : {}),
    ...smartFieldsOf(link, ended),
    ...(link.health && !ended ? { health: toHealthView(link.health) } : {}),
    ...(link.importedClicks === undefined ? {} : { importedClicks: link.importedClicks }),
    ...(link.importedFrom === undefined ? {} : { importedFrom: link.importedFrom }),
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

/**
 * An expired link is kept this long before DynamoDB's TTL removes it: its stats stay readable for their whole window
 * (90 days), its code stays taken, and its visitors still reach its expiredUrl (or its domain's) rather than a 404.
 */
export const EXPIRED_LINK_KEPT_SECONDS = 90 * 86_400;

/** When DynamoDB may remove a link that expires at `expiresAt` (epoch seconds, rounded up: never before it is due). */
export function removableAt(expiresAt: string): number {
  return Math.ceil(Date.parse(expiresAt) / 1000) + EXPIRED_LINK_KEPT_SECONDS;
}

export function isExpired(link: LinkRecord, nowMs: number): boolean {
  return link.expiresAt !== undefined && Date.parse(link.expiresAt) <= nowMs;
}

