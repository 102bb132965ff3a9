import * as z from 'zod/mini';
import { builtOnFirstUse, parseOrRefuse, wholeNumberParameter } from '../request-parsing';
import { OwnMessages } from '../messages';
import { firstDayOf, keyOf } from '../links/link';
import { ownedLink, type ManagementContext, type ManagementDeps } from '../links/link-viewing';
import type { ClickStatsStore } from '../ports';
import { statsRows, type StatsRow } from './stats-rows';
import { windowStats, type WindowStats } from './window-stats';

export const STATS_DAYS = { min: 1, max: 90, default: 30 } as const;

export const STATS_FORMATS = ['json', 'csv'] as const;
/** `?bots=include` adds bots' visits to every figure; by default they are only counted apart, as `bots`. */
export const STATS_BOTS = ['include', 'exclude'] as const;

/** GET /v2/links/{code}/stats query parameters. */
export const statsQuerySchema = builtOnFirstUse(() =>
  z.object({
    days: z.optional(wholeNumberParameter(STATS_DAYS.min, STATS_DAYS.max, OwnMessages.daysParameter)),
    format: z.optional(z.enum(STATS_FORMATS, { error: OwnMessages.statsFormatParameter })),
    bots: z.optional(z.enum(STATS_BOTS, { error: OwnMessages.botsParameter })),
  }),
);

export interface StatsQuery {
  days: number;
  format: (typeof STATS_FORMATS)[number];
  includeBots: boolean;
}

export function parseStatsQuery(parameters: Record<string, string | undefined> | null): StatsQuery {
  const query = parseOrRefuse(statsQuerySchema(), parameters ?? {});
  return { days: query.days ?? STATS_DAYS.default, format: query.format ?? 'json', includeBots: query.bots === 'include' };
}

export interface LinkStats extends WindowStats {
  shortCode: string;
  /** The link's all-time clicks (the link view's `clicks`), bots' visits added under `?bots=include`. */
  total: number;
  /** The link's all-time bots' visits, counted apart. */
  bots: number;
  /** An imported link's clicks at the peer, "before import" (issue 31): never in `total` or the days. */
  importedClicks?: number;
}

/** The UTC days of a window of `days` ending today, oldest first. */
export function statsWindow(days: number, nowMs: number): string[] {
  const today = Math.floor(nowMs / 86_400_000) * 86_400_000;
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

type StatsDeps = { links: ManagementDeps['links']; stats: Pick<ClickStatsStore, 'days'> };

/**
 * The owner's link (the same 404 as its view) and its counted days over the window, none from before the link was
 * made: its code may have been another's (firstDayOf).
 */
async function countedWindow(code: string, days: number, context: ManagementContext, deps: StatsDeps) {
  const link = await ownedLink(code, context, deps.links);
  const window = statsWindow(days, context.nowMs);
  const [start = '', end = ''] = [window[0], window[window.length - 1]];
  const first = firstDayOf(link);
  const counted = await deps.stats.days(keyOf(link), first > start ? first : start, end);
  return { link, window, counted };
}

/** GET /v2/links/{code}/stats: the link's all-time totals and its window. */
export async function statsOfLink(code: string, query: StatsQuery, context: ManagementContext, deps: StatsDeps): Promise<LinkStats> {
  const { link, window, counted } = await countedWindow(code, query.days, context, deps);
  const bots = link.bots ?? 0;
  return {
    shortCode: link.code,
    total: link.clicks + (query.includeBots ? bots : 0),
    bots,
    ...(link.importedClicks === undefined ? {} : { importedClicks: link.importedClicks }),
    ...windowStats(window, counted, query.includeBots),
  };
}

/** GET /v2/links/{code}/stats?format=csv: the window's rows, one per day and dimension value (stats-rows.ts). */
export async function statsRowsOfLink(code: string, query: StatsQuery, context: ManagementContext, deps: StatsDeps): Promise<{ shortCode: string; rows: StatsRow[] }> {
  const { link, window, counted } = await countedWindow(code, query.days, context, deps);
  return { shortCode: link.code, rows: statsRows(window, counted, query.includeBots) };
}
