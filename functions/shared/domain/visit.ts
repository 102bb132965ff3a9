import type { FlagSource, LinkStore } from './ports';
import { isExpired } from './link';
import { looksLikeShortCode } from './short-code';

export type VisitOutcome =
  | { kind: 'redirect'; url: string; cacheable: boolean }
  | { kind: 'notFound' }
  | { kind: 'gone' }
  | { kind: 'maintenance' };

interface VisitDeps {
  links: LinkStore;
  flags: FlagSource;
}

/**
 * Where a visit to `code` leads (spec section 3). A maxClicks link is counted by one conditional update, which
 * also decides 404 versus 410; the visit that uses up the last click retires the link.
 */
export async function resolveVisit(code: string, deps: VisitDeps, nowMs: number): Promise<VisitOutcome> {
  if ((await deps.flags.current()).maintenance) return { kind: 'maintenance' };
  if (!looksLikeShortCode(code)) return { kind: 'notFound' };
  const link = await deps.links.find(code);
  if (!link) return { kind: 'notFound' };
  if (link.retired) return { kind: 'gone' };
  if (isExpired(link, nowMs) || link.url === undefined) return { kind: 'notFound' };
  if (link.maxClicks === undefined) return { kind: 'redirect', url: link.url, cacheable: link.expiresAt === undefined };

  const click = await deps.links.consumeClick(code, nowMs);
  if (click.kind === 'usedUp') return { kind: 'gone' };
  if (click.kind !== 'counted' || click.link.url === undefined) return { kind: 'notFound' };
  if (click.link.clicks >= (click.link.maxClicks ?? Infinity)) await deps.links.retire(code);
  return { kind: 'redirect', url: click.link.url, cacheable: false };
}
