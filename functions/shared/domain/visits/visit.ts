import { isExpired, linkKey, madeUnderClaim, type LinkRecord } from '../links/link';
import { chooseDestination, type VisitorSignals } from '../destinations/destination-choice';
import { answersPerVisitor, type DestinationLabel } from '../destinations/smart-link';
import type { Flags } from '../limits/flags';
import { browserMayCache } from '../links/cache-lease';
import { verifyPassword } from '../links/password';
import type { DomainStore, FlagSource, LinkStore, UsageCounter } from '../ports';
import type { DomainRecord } from '../domains/custom-domain';
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
  /**
   * Another bot isbot recognises from the User-Agent (issue 30): answered as a person would be, except that it never
   * uses up a maxClicks link's click and so gets that link's card, not its redirect. Absent: not known to be one.
   */
  bot?: boolean;
  /** What the visitor typed into the password form (POST only). */
  submittedPassword?: string;
  /** What a smart link's rules and variants read (issue 18). */
  signals: VisitorSignals;
}

export type VisitOutcome =
  /**
   * `counted`: the link's counter must not count this click again (a maxClicks link's conditional click, or a visit
   * of an ended link sent to its expiredUrl); `perVisitor`: the answer depends on who asked (rules or variants), so
   * nobody may keep it; `drawnVariant`: the variant to remember in the visitor's cookie.
   */
  | { kind: 'redirect'; url: string; cacheable: boolean; counted: boolean; destination: DestinationLabel; perVisitor: boolean; drawnVariant?: number }
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
 * the last click retires the link; once a container has read it, that update is the visit's only round trip
 * (see `countedStraightAway`). Bots, preview fetchers and HEAD requests never use up a click, nor get its redirect.
 */
export async function resolveVisit(visit: Visit, deps: VisitDeps, nowMs: number): Promise<VisitOutcome> {
  const flags = await deps.flags.current();
  if (flags.maintenance) return { kind: 'maintenance' };
  return visit.host === undefined ? visitLink(visit, visit.code, deps, flags, nowMs) : visitOnDomain(visit, visit.host, deps, flags, nowMs);
}

/**
 * A custom domain serves only while active (a disabled one answers 410 for everything on it) and only its own
 * links: the code is looked up under the domain's key, so a code never resolves on a host it was not made on, and
 * a link made under an earlier claim of the name is unknown here (compared with the record already read: no read).
 * Its root, unknown codes and links that ran out go to the owner's URLs when set, else get the usual answers.
 */
async function visitOnDomain(visit: Visit, host: string, deps: VisitDeps, flags: Flags, nowMs: number): Promise<VisitOutcome> {
  const domain = host === '' ? undefined : await deps.domains.find(host);
  if (domain?.status === 'disabled') return { kind: 'gone', reason: 'disabled' };
  if (domain?.status !== 'active') return { kind: 'notFound' };
  if (visit.code === '') return domain.rootUrl ? { kind: 'fallback', url: domain.rootUrl } : { kind: 'notFound' };
  const outcome = await visitLink(visit, linkKey(domain.domain, visit.code), deps, flags, nowMs, domain);
  const ranOut = (outcome.kind === 'notFound' && outcome.expired === true) || (outcome.kind === 'gone' && outcome.reason !== 'disabled');
  if (ranOut && domain.expiredUrl) return { kind: 'fallback', url: domain.expiredUrl };
  if (outcome.kind === 'notFound' && !ranOut && domain.notFoundUrl) return { kind: 'fallback', url: domain.notFoundUrl };
  return outcome;
}

const hasDestination = (link: LinkRecord): link is LinkRecord & { url: string } => link.url !== undefined;

/** A link that ran out sends its visitors to its own expiredUrl when it has one (counted as such, never again on the link). */
function ended(expiredUrl: string | undefined, outcome: VisitOutcome): VisitOutcome {
  if (expiredUrl === undefined) return outcome;
  return { kind: 'redirect', url: expiredUrl, cacheable: false, counted: true, destination: 'expiredUrl', perVisitor: false };
}

/** Where this visitor goes among the link's destinations (rules and variants only while the operator's flag allows them). */
function redirectTo(link: LinkRecord & { url: string }, visit: Visit, smartLinks: boolean, nowMs: number): Extract<VisitOutcome, { kind: 'redirect' }> {
  const { url, label, drawnVariant } = chooseDestination(link, visit.signals, nowMs, { smart: smartLinks });
  const perVisitor = smartLinks && answersPerVisitor(link);
  return {
    kind: 'redirect',
    url,
    cacheable: !perVisitor && browserMayCache(link, nowMs),
    counted: false,
    destination: label,
    perVisitor,
    ...(drawnVariant === undefined ? {} : { drawnVariant }),
  };
}

/** The visit of a counted link that used a click: the last click retires the link. */
async function countedRedirect(link: LinkRecord & { url: string }, key: string, visit: Visit, deps: VisitDeps, flags: Flags, nowMs: number): Promise<VisitOutcome> {
  if (link.clicks >= (link.maxClicks ?? Number.POSITIVE_INFINITY)) await deps.links.retire(key);
  return { ...redirectTo(link, visit, flags.smartLinks, nowMs), cacheable: false, counted: true };
}

/**
 * A link the container last saw with a click limit and no password is counted before anything is read: the
 * conditional update holds every rule that could refuse the click (a password added since among them) and hands
 * back the link, or on refusal the item as it was, which answers a used-up, deleted, disabled or expired link
 * too. A limit removed or a password added since is left to the visit as if nothing were remembered, which reads
 * the link as it is now.
 */
async function countedStraightAway(visit: Visit, key: string, deps: VisitDeps, flags: Flags, nowMs: number): Promise<VisitOutcome | undefined> {
  if (visit.method === 'HEAD' || visit.previewBot || visit.bot === true || deps.links.countsClicks?.(key) !== true) return undefined;
  const click = await deps.links.consumeClick(key, nowMs, { passwordless: true });
  switch (click.kind) {
    case 'counted':
      return hasDestination(click.link) ? countedRedirect(click.link, key, visit, deps, flags, nowMs) : undefined;
    case 'disabled':
      return { kind: 'gone', reason: 'disabled' };
    case 'usedUp':
    case 'deleted':
      return ended(click.expiredUrl, { kind: 'gone', reason: click.kind });
    case 'expired':
      return ended(click.expiredUrl, { kind: 'notFound', expired: true });
    default:
      return undefined;
  }
}

/** `holder`: the custom domain's record, whose claim the link must have been made under; absent on the shared domain. */
async function visitLink(visit: Visit, key: string, deps: VisitDeps, flags: Flags, nowMs: number, holder?: DomainRecord): Promise<VisitOutcome> {
  if (!looksLikeShortCode(visit.code)) return { kind: 'notFound' };
  // On a custom domain the link's claim is checked on the link read first: a click is never spent before it.
  const counted = holder === undefined ? await countedStraightAway(visit, key, deps, flags, nowMs) : undefined;
  if (counted) return counted;
  // Until a password is posted, a password link's visit ends at its form (or a preview card), which shows
  // nothing of the link: a copy read seconds ago answers it. Its submission always reads the link as it is.
  const submitted = visit.method === 'POST' && visit.submittedPassword !== undefined;
  const link = (!submitted && deps.links.recentPasswordLink?.(key)) || (await deps.links.find(key));
  if (!link || (holder !== undefined && !madeUnderClaim(link, holder))) return { kind: 'notFound' };
  if (link.disabled) return { kind: 'gone', reason: 'disabled' };
  if (link.deleted) return ended(link.expiredUrl, { kind: 'gone', reason: 'deleted' });
  if (link.retired) return ended(link.expiredUrl, { kind: 'gone', reason: 'usedUp' });
  if (isExpired(link, nowMs) || !hasDestination(link)) return ended(link.expiredUrl, { kind: 'notFound', expired: true });

  const guarded = link.passwordHash !== undefined || link.maxClicks !== undefined;
  if (guarded && visit.previewBot) return { kind: 'preview' };

  if (link.passwordHash !== undefined) {
    if (visit.method !== 'POST' || visit.submittedPassword === undefined) return { kind: 'passwordRequired', wrongPassword: false };
    // Counted per link (its key): the same code on two domains is two links, guessed at separately.
    const retryAfterSeconds = await admitPasswordAttempt(key, visit.client, deps.usage, nowMs);
    if (retryAfterSeconds !== undefined) return { kind: 'tooManyAttempts', retryAfterSeconds };
    if (!(await verifyPassword(visit.submittedPassword, link.passwordHash))) return { kind: 'passwordRequired', wrongPassword: true };
    await forgivePasswordAttempt(key, deps.usage, nowMs);
  }

  if (link.maxClicks === undefined) return redirectTo(link, visit, flags.smartLinks, nowMs);
  if (visit.method === 'HEAD') return { kind: 'preview' };
  // A bot leaves the clicks to people, and a redirect it was given would be one past the spec's "maximum redirects
  // allowed" (a one-time link fetched by curl as often as wanted): it gets the card a preview fetcher gets.
  if (visit.bot === true) return link.clicks >= link.maxClicks ? ended(link.expiredUrl, { kind: 'gone', reason: 'usedUp' }) : { kind: 'preview' };

  const click = await deps.links.consumeClick(key, nowMs);
  if (click.kind === 'disabled') return { kind: 'gone', reason: 'disabled' };
  if (click.kind === 'usedUp' || click.kind === 'deleted') return ended(link.expiredUrl, { kind: 'gone', reason: click.kind });
  if (click.kind === 'unlimited' && hasDestination(click.link)) return { ...redirectTo(click.link, visit, flags.smartLinks, nowMs), cacheable: false };
  if (click.kind === 'expired') return ended(link.expiredUrl, { kind: 'notFound', expired: true });
  if (click.kind !== 'counted' || !hasDestination(click.link)) return { kind: 'notFound' };
  return countedRedirect(click.link, key, visit, deps, flags, nowMs);
}
