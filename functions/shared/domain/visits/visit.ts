import { isExpired, linkKey } from '../links/link';
import { browserMayCache } from '../links/cache-lease';
import { verifyPassword } from '../links/password';
import type { DomainStore, FlagSource, LinkStore, UsageCounter } from '../ports';
import { admitPasswordAttempt, forgivePasswordAttempt } from '../limits/rate-limits';
import { looksLikeShortCode } from '../links/short-code';

export interface Visit {
  /** Empty for the root path, which only a custom domain answers (its rootUrl). */
  code: string;
  /**
   * The custom domain the visitor asked (lower-case ASCII; empty when not a host name), proven to have come through
   * CloudFront; absent on the shared domain.
   */
  host?: string;
  method: 'GET' | 'HEAD' | 'POST';
  /**
   * The visitor's address as far as it can be proven (see http/visitor-request.ts), as a keyed hash: password
   * attempts count per address without any address being stored. Empty unless a password was posted, its one use.
   */
  client: string;
  /** A chat or social app fetching a preview card, not a person. */
  previewBot: boolean;
  /** What the visitor typed into the password form (POST only). */
  submittedPassword?: string;
}

export type VisitOutcome =
  /** `counted`: the click was already counted on the link (a maxClicks link's conditional click). */
  | { kind: 'redirect'; url: string; cacheable: boolean; counted: boolean }
  | { kind: 'passwordRequired'; wrongPassword: boolean }
  | { kind: 'preview' }
  /** `expired`: the code existed and its time ran out (a custom domain's expiredUrl applies). */
  | { kind: 'notFound'; expired?: boolean }
  | { kind: 'gone'; reason: GoneReason }
  /** A custom domain's own redirect for its root, an unknown code or an expired link: never a click. */
  | { kind: 'fallback'; url: string }
  | { kind: 'tooManyAttempts'; retryAfterSeconds: number }
  | { kind: 'maintenance' };

/** Why a code answers 410: its clicks are used up, its owner deleted it, or the platform took it down. */
export type GoneReason = 'usedUp' | 'deleted' | 'disabled';

/** The custom domains visitors arrive on (a short-lived copy in the redirect: see CachedDomainLookup). */
export type DomainLookup = Pick<DomainStore, 'find'>;

export interface VisitDeps {
  links: LinkStore;
  domains: DomainLookup;
  flags: FlagSource;
  usage: UsageCounter;
}

/**
 * Where a visit leads (spec section 3). A plain link costs one read (none when cached). A maxClicks link is
 * counted by one conditional update, which is also what decides between redirect and 410; the visit that uses
 * the last click retires the link. Preview bots and HEAD requests never use up a click.
 */
export async function resolveVisit(visit: Visit, deps: VisitDeps, nowMs: number): Promise<VisitOutcome> {
  if ((await deps.flags.current()).maintenance) return { kind: 'maintenance' };
  return visit.host === undefined ? visitLink(visit, visit.code, deps, nowMs) : visitOnDomain(visit, visit.host, deps, nowMs);
}

/**
 * A custom domain serves only while active (a disabled one answers 410 for everything on it) and only its own
 * links: the code is looked up under the domain's key, so a code never resolves on a host it was not made on.
 * Its root, unknown codes and links that ran out go to the owner's URLs when set, else get the usual answers.
 */
async function visitOnDomain(visit: Visit, host: string, deps: VisitDeps, nowMs: number): Promise<VisitOutcome> {
  const domain = host === '' ? undefined : await deps.domains.find(host);
  if (domain?.status === 'disabled') return { kind: 'gone', reason: 'disabled' };
  if (domain?.status !== 'active') return { kind: 'notFound' };
  if (visit.code === '') return domain.rootUrl ? { kind: 'fallback', url: domain.rootUrl } : { kind: 'notFound' };
  const outcome = await visitLink(visit, linkKey(domain.domain, visit.code), deps, nowMs);
  const ranOut = (outcome.kind === 'notFound' && outcome.expired === true) || (outcome.kind === 'gone' && outcome.reason !== 'disabled');
  if (ranOut && domain.expiredUrl) return { kind: 'fallback', url: domain.expiredUrl };
  if (outcome.kind === 'notFound' && !ranOut && domain.notFoundUrl) return { kind: 'fallback', url: domain.notFoundUrl };
  return outcome;
}

async function visitLink(visit: Visit, key: string, deps: VisitDeps, nowMs: number): Promise<VisitOutcome> {
  if (!looksLikeShortCode(visit.code)) return { kind: 'notFound' };
  const link = await deps.links.find(key);
  if (!link) return { kind: 'notFound' };
  if (link.disabled) return { kind: 'gone', reason: 'disabled' };
  if (link.deleted) return { kind: 'gone', reason: 'deleted' };
  if (link.retired) return { kind: 'gone', reason: 'usedUp' };
  if (isExpired(link, nowMs) || link.url === undefined) return { kind: 'notFound', expired: true };

  const guarded = link.passwordHash !== undefined || link.maxClicks !== undefined;
  if (guarded && visit.previewBot) return { kind: 'preview' };

  if (link.passwordHash !== undefined) {
    if (visit.method !== 'POST' || visit.submittedPassword === undefined) return { kind: 'passwordRequired', wrongPassword: false };
    const retryAfterSeconds = await admitPasswordAttempt(visit.code, visit.client, deps.usage, nowMs);
    if (retryAfterSeconds !== undefined) return { kind: 'tooManyAttempts', retryAfterSeconds };
    if (!(await verifyPassword(visit.submittedPassword, link.passwordHash))) return { kind: 'passwordRequired', wrongPassword: true };
    await forgivePasswordAttempt(visit.code, deps.usage, nowMs);
  }

  if (link.maxClicks === undefined) return { kind: 'redirect', url: link.url, cacheable: browserMayCache(link, nowMs), counted: false };
  if (visit.method === 'HEAD') return { kind: 'preview' };

  const click = await deps.links.consumeClick(key, nowMs);
  if (click.kind === 'usedUp' || click.kind === 'deleted' || click.kind === 'disabled') return { kind: 'gone', reason: click.kind };
  if (click.kind === 'unlimited' && click.link.url !== undefined) return { kind: 'redirect', url: click.link.url, cacheable: false, counted: false };
  if (click.kind === 'expired') return { kind: 'notFound', expired: true };
  if (click.kind !== 'counted' || click.link.url === undefined) return { kind: 'notFound' };
  if (click.link.clicks >= (click.link.maxClicks ?? Number.POSITIVE_INFINITY)) await deps.links.retire(key);
  return { kind: 'redirect', url: click.link.url, cacheable: false, counted: true };
}
