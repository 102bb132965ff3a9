import type { LinkRecord } from './link';

/**
 * Who may hold a copy of a link, and for how long. A plain link's redirect is kept by the redirect function's memory
 * (LINK_MEMORY_SECONDS) and by the visitor's browser (PLAIN_REDIRECT_MAX_AGE_SECONDS), where no later edit reaches
 * it. So copies are taken only under a lease written on the link itself (`cacheLeaseUntil`): a container caches a
 * link, and answers with a browser max-age, only while the lease covers every copy it hands out. An edit that adds a
 * click limit or a password checks the lease in its conditional write: while copies may exist it is refused (409,
 * with Retry-After) and the link is sealed (`cacheSealedUntil`: no new leases), so the retry after that wait
 * succeeds and from its 200 on no visitor is redirected without the new limit or password.
 */
export const LINK_MEMORY_SECONDS = 30;
export const PLAIN_REDIRECT_MAX_AGE_SECONDS = 30;
export const CACHE_LEASE_MS = (LINK_MEMORY_SECONDS + PLAIN_REDIRECT_MAX_AGE_SECONDS) * 1000;
/** A refused edit stops new leases this long: enough for its retry, short enough that popular links cache again. */
export const CACHE_SEAL_MS = 5 * 60_000;
/** Renew a lease when a container's copy would live less than this: about one renewal per link per container and 20 s. */
export const LEASE_RENEWAL_MARGIN_MS = 10_000;

/** Only links whose answer no visit can change may be copied: no click limit, no password, not a tombstone. */
export function isLeasable(link: LinkRecord): boolean {
  return link.maxClicks === undefined && link.passwordHash === undefined && !link.retired && !link.deleted && !link.disabled;
}

/** How long a container may serve `link` from memory from `nowMs`, leaving a browser's full max-age inside the lease. */
export function memoryLifetimeMs(link: LinkRecord, nowMs: number): number {
  const leaseLeft = (link.cacheLeaseUntil ?? 0) - PLAIN_REDIRECT_MAX_AGE_SECONDS * 1000 - nowMs;
  return Math.min(LINK_MEMORY_SECONDS * 1000, leaseLeft);
}

/** A browser may keep the redirect only when the lease outlasts its max-age (and the link never changes by visits). */
export function browserMayCache(link: LinkRecord, nowMs: number): boolean {
  const volatile = link.expiresAt !== undefined || !isLeasable(link);
  return !volatile && memoryLifetimeMs(link, nowMs) >= 0;
}

/** Seconds until every copy taken under the link's lease is gone; 0 when none can be left. */
export function secondsUntilLeaseEnds(link: LinkRecord, nowMs: number): number {
  return Math.max(0, Math.ceil(((link.cacheLeaseUntil ?? 0) - nowMs) / 1000));
}
