import { isExpired } from '../links/link';
import { browserMayCache } from '../links/cache-lease';
import { verifyPassword } from '../links/password';
import type { FlagSource, LinkStore, UsageCounter } from '../ports';
import { admitPasswordAttempt, forgivePasswordAttempt } from '../limits/rate-limits';
import { looksLikeShortCode } from '../links/short-code';

export interface Visit {
  code: string;
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
  | { kind: 'notFound' }
  | { kind: 'gone'; reason: GoneReason }
  | { kind: 'tooManyAttempts'; retryAfterSeconds: number }
  | { kind: 'maintenance' };

/** Why a code answers 410: its clicks are used up, its owner deleted it, or the platform took it down. */
export type GoneReason = 'usedUp' | 'deleted' | 'disabled';

export interface VisitDeps {
  links: LinkStore;
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
  if (!looksLikeShortCode(visit.code)) return { kind: 'notFound' };
  const link = await deps.links.find(visit.code);
  if (!link) return { kind: 'notFound' };
  if (link.disabled) return { kind: 'gone', reason: 'disabled' };
  if (link.deleted) return { kind: 'gone', reason: 'deleted' };
  if (link.retired) return { kind: 'gone', reason: 'usedUp' };
  if (isExpired(link, nowMs) || link.url === undefined) return { kind: 'notFound' };

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

  const click = await deps.links.consumeClick(visit.code, nowMs);
  if (click.kind === 'usedUp' || click.kind === 'deleted' || click.kind === 'disabled') return { kind: 'gone', reason: click.kind };
  if (click.kind === 'unlimited' && click.link.url !== undefined) return { kind: 'redirect', url: click.link.url, cacheable: false, counted: false };
  if (click.kind !== 'counted' || click.link.url === undefined) return { kind: 'notFound' };
  if (click.link.clicks >= (click.link.maxClicks ?? Number.POSITIVE_INFINITY)) await deps.links.retire(visit.code);
  return { kind: 'redirect', url: click.link.url, cacheable: false, counted: true };
}
