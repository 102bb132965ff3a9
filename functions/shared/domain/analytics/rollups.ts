import type { Click } from './click';
import { countClicks, type DayCounts } from './click-counts';

/**
 * The workspace at a glance and the live hour (issue 30), written by the aggregator beside each link's days so that
 * reads stay bounded: a workspace's day is one item (and one per custom domain, per tag and per both), a link's or
 * a workspace's hour is one item of per-minute counters. Writes grow with the distinct (item, day or hour) pairs of
 * a delivery, never with its clicks.
 */

/** What the aggregator reads of a clicked link: whose it is and its tags (nothing else of it). */
export interface LinkPlace {
  owner: string;
  tags: readonly string[];
}

/** The stats item of a workspace's days, optionally narrowed to one custom domain and/or one tag. */
export function workspaceCode(owner: string, filter: { domain?: string; tag?: string } = {}): string {
  return `ws#${owner}${filter.domain ? `#d#${filter.domain}` : ''}${filter.tag ? `#t#${filter.tag}` : ''}`;
}

/** The owner whose workspace item `code` (workspaceCode's) is: an owner never holds a `#`. */
export const ownerOfWorkspaceCode = (code: string): string => code.slice('ws#'.length).split('#', 1)[0] ?? '';

/** The stats item of a link's or a workspace's last hours, minute by minute. */
export const liveCode = (of: string): string => `live#${of}`;

/** A workspace's (or its domain's or tag's) day: the day's counts, and the people's clicks per link key. */
export interface WorkspaceDay {
  code: string;
  counts: DayCounts;
  links: Record<string, number>;
}

/** A link's or workspace's hour (`YYYY-MM-DDTHH`, UTC): people's clicks and bots per minute (`00`–`59`). */
export interface LiveHour {
  code: string;
  hour: string;
  minutes: Record<string, { clicks: number; bots: number }>;
}

const domainOf = (key: string): string | undefined => (key.includes('/') ? key.slice(0, key.indexOf('/')) : undefined);

/** The workspace items a click of a link adds to: the workspace, its domain (custom domains only), each tag, each tag on that domain. */
function workspaceCodesOf(key: string, place: LinkPlace): string[] {
  const domain = domainOf(key);
  const domains = domain === undefined ? [undefined] : [undefined, domain];
  const tags = [undefined, ...place.tags];
  return domains.flatMap((onDomain) => tags.map((tag) => workspaceCode(place.owner, { ...(onDomain ? { domain: onDomain } : {}), ...(tag ? { tag } : {}) })));
}

/**
 * A delivery's clicks added up per workspace item and day (the same sums as a link's: countClicks), with each
 * link's share of people's clicks, and per link and workspace per minute. Clicks of links gone since (no place) and
 * of anonymous links count on the link only.
 */
export function rollupClicks(clicks: readonly Click[], places: ReadonlyMap<string, LinkPlace | undefined>): { workspaces: WorkspaceDay[]; live: LiveHour[] } {
  const byWorkspace = new Map<string, Click[]>();
  const links = new Map<string, Record<string, Record<string, number>>>();
  const live = new Map<string, LiveHour>();
  const tick = (code: string, click: Click) => {
    const hour = click.at.slice(0, 13);
    const minute = click.at.slice(14, 16);
    const entry = live.get(`${code}\n${hour}`) ?? { code, hour, minutes: {} };
    live.set(`${code}\n${hour}`, entry);
    const counts = (entry.minutes[minute] ??= { clicks: 0, bots: 0 });
    if (click.bot) counts.bots += 1;
    else counts.clicks += 1;
  };
  // What a link's clicks add to, worked out once per link of the delivery rather than once per click.
  const targets = new Map<string, { live: string[]; workspaces: string[] }>();
  const targetsOf = (key: string) => {
    const place = places.get(key);
    const target = place && place.owner !== 'anonymous' ? { live: [liveCode(key), liveCode(workspaceCode(place.owner))], workspaces: workspaceCodesOf(key, place) } : { live: [liveCode(key)], workspaces: [] };
    targets.set(key, target);
    return target;
  };
  for (const click of clicks) {
    const target = targets.get(click.code) ?? targetsOf(click.code);
    for (const code of target.live) tick(code, click);
    for (const code of target.workspaces) {
      const list = byWorkspace.get(code) ?? [];
      list.push(click);
      byWorkspace.set(code, list);
      if (click.bot) continue;
      const perDay = links.get(code) ?? {};
      links.set(code, perDay);
      const day = click.at.slice(0, 10);
      const shares = (perDay[day] ??= {});
      shares[click.code] = (shares[click.code] ?? 0) + 1;
    }
  }
  const workspaces = [...byWorkspace.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([code, list]) => countClicks(list, () => code).flatMap((counted) => counted.days.map((counts) => ({ code, counts, links: links.get(code)?.[counts.day] ?? {} }))));
  return { workspaces, live: [...live.values()].sort((a, b) => (a.code + a.hour < b.code + b.hour ? -1 : 1)) };
}
