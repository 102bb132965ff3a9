import * as z from 'zod/mini';
import { builtOnFirstUse, parseOrRefuse, wholeNumberParameter } from '../request-parsing';
import { OwnMessages } from '../messages';
import { TAG_PATTERN } from '../links/link-request';
import { asciiDomain } from '../domains/host-name';
import type { ClickStatsStore } from '../ports';
import { STATS_BOTS, STATS_DAYS, statsWindow } from './link-stats';
import { workspaceCode } from './rollups';
import { windowStats, type WindowStats } from './window-stats';

/** How many links the workspace view names. */
export const TOP_LINKS = 10;

/** GET /v2/stats query parameters. */
export const workspaceStatsQuerySchema = builtOnFirstUse(() =>
  z.object({
    days: z.optional(wholeNumberParameter(STATS_DAYS.min, STATS_DAYS.max, OwnMessages.daysParameter)),
    bots: z.optional(z.enum(STATS_BOTS, { error: OwnMessages.botsParameter })),
    domain: z.optional(z.string().check(z.refine((value) => asciiDomain(value) !== undefined, OwnMessages.statsDomainParameter))),
    tag: z.optional(z.string().check(z.regex(TAG_PATTERN, OwnMessages.tagParameter))),
  }),
);

export interface WorkspaceStatsQuery {
  days: number;
  includeBots: boolean;
  /** A custom domain (lower-case ASCII): only its links' clicks. */
  domain?: string;
  /** Only the clicks of links carrying this tag (lower case, as tags are stored). */
  tag?: string;
}

export function parseWorkspaceStatsQuery(parameters: Record<string, string | undefined> | null): WorkspaceStatsQuery {
  const query = parseOrRefuse(workspaceStatsQuerySchema(), parameters ?? {});
  const domain = query.domain === undefined ? undefined : asciiDomain(query.domain);
  return { days: query.days ?? STATS_DAYS.default, includeBots: query.bots === 'include', ...(domain ? { domain } : {}), ...(query.tag ? { tag: query.tag.toLowerCase() } : {}) };
}

export interface WorkspaceStats extends WindowStats {
  /** The window's clicks (people's; bots' too under `?bots=include`). */
  total: number;
  /** The window's bots' visits, counted apart. */
  bots: number;
  /** The window's most clicked links (people's clicks), most first. */
  topLinks: Array<{ shortCode: string; domain?: string; clicks: number }>;
}

/**
 * GET /v2/stats: the workspace's window from its own day items (one per day, written by the aggregator; one per
 * domain, tag or both when filtered): one Query however many links the workspace has.
 */
export async function statsOfWorkspace(owner: string, query: WorkspaceStatsQuery, nowMs: number, stats: Pick<ClickStatsStore, 'days'>): Promise<WorkspaceStats> {
  const window = statsWindow(query.days, nowMs);
  const code = workspaceCode(owner, { ...(query.domain ? { domain: query.domain } : {}), ...(query.tag ? { tag: query.tag } : {}) });
  const counted = await stats.days(code, window[0] ?? '', window[window.length - 1] ?? '');
  const summed = windowStats(window, counted, query.includeBots);
  const links = new Map<string, number>();
  for (const day of counted) for (const [key, clicks] of Object.entries(day.links ?? {})) links.set(key, (links.get(key) ?? 0) + clicks);
  const topLinks = [...links.entries()]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, TOP_LINKS)
    .map(([key, clicks]) => {
      const slash = key.indexOf('/');
      return slash === -1 ? { shortCode: key, clicks } : { shortCode: key.slice(slash + 1), domain: key.slice(0, slash), clicks };
    });
  return {
    total: summed.days.reduce((sum, day) => sum + day.clicks, 0),
    bots: summed.days.reduce((sum, day) => sum + day.bots, 0),
    topLinks,
    ...summed,
  };
}
