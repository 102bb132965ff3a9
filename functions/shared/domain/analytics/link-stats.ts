import * as z from 'zod/mini';
import { parseOrRefuse, wholeNumberParameter } from '../request-parsing';
import { OwnMessages } from '../messages';
import { DEVICE_CLASSES, type DeviceClass } from './click';
import type { DayCounts } from './click-counts';
import { linkKey } from '../links/link';
import { viewLink, type ManagementContext, type ManagementDeps } from '../links/link-viewing';
import type { ClickStatsStore } from '../ports';
import { statsRows, type StatsRow } from './stats-rows';

export const STATS_DAYS = { min: 1, max: 90, default: 30 } as const;
const TOP = 10;

export const STATS_FORMATS = ['json', 'csv'] as const;

/** GET /v2/links/{code}/stats query parameters. */
export const statsQuerySchema = z.object({
  days: z.optional(wholeNumberParameter(STATS_DAYS.min, STATS_DAYS.max, OwnMessages.daysParameter)),
  format: z.optional(z.enum(STATS_FORMATS, { error: OwnMessages.statsFormatParameter })),
});

export function parseStatsQuery(parameters: Record<string, string | undefined> | null): { days: number; format: (typeof STATS_FORMATS)[number] } {
  const query = parseOrRefuse(statsQuerySchema, parameters ?? {});
  return { days: query.days ?? STATS_DAYS.default, format: query.format ?? 'json' };
}

export interface LinkStats {
  shortCode: string;
  total: number;
  days: Array<{ date: string; clicks: number }>;
  countries: Array<{ country: string; clicks: number }>;
  referrers: Array<{ host: string; clicks: number }>;
  devices: Record<DeviceClass, number>;
  /** Clicks per destination the visitors were sent to (`default`, `rules[i]`, `variants[i]`, `expiredUrl`), those with any. */
  destinations: Record<string, number>;
}

/** The UTC days of a window of `days` ending today, oldest first. */
export function statsWindow(days: number, nowMs: number): string[] {
  const today = Math.floor(nowMs / 86_400_000) * 86_400_000;
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

function top(totals: Map<string, number>): Array<[string, number]> {
  return [...totals.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)).slice(0, TOP);
}

function sum(target: Map<string, number>, counts: Partial<Record<string, number>>): void {
  for (const [key, value] of Object.entries(counts)) target.set(key, (target.get(key) ?? 0) + (value ?? 0));
}

/**
 * The stats body: every day of the window (zeros included), the window's top 10 countries and referring hosts by
 * clicks (ties by name), its devices and destinations, and `total`, the link's all-time clicks (the link view's `clicks`).
 */
export function linkStats(code: string, total: number, window: readonly string[], counted: readonly DayCounts[]): LinkStats {
  const byDay = new Map(counted.map((counts) => [counts.day, counts]));
  const countries = new Map<string, number>();
  const referrers = new Map<string, number>();
  const devices = Object.fromEntries(DEVICE_CLASSES.map((device) => [device, 0])) as Record<DeviceClass, number>;
  const destinations = new Map<string, number>();
  for (const day of window) {
    const counts = byDay.get(day);
    if (!counts) continue;
    sum(countries, counts.countries);
    sum(referrers, counts.referrers);
    for (const device of DEVICE_CLASSES) devices[device] += counts.devices[device] ?? 0;
    const elsewhere = Object.values(counts.destinations).reduce<number>((total, clicks) => total + (clicks ?? 0), 0);
    sum(destinations, { ...counts.destinations, default: counts.clicks - elsewhere });
  }
  return {
    shortCode: code,
    total,
    days: window.map((date) => ({ date, clicks: byDay.get(date)?.clicks ?? 0 })),
    countries: top(countries).map(([country, clicks]) => ({ country, clicks })),
    referrers: top(referrers).map(([host, clicks]) => ({ host, clicks })),
    devices,
    destinations: Object.fromEntries([...destinations].filter(([, clicks]) => clicks > 0)),
  };
}

type StatsDeps = { links: ManagementDeps['links']; stats: Pick<ClickStatsStore, 'days'> };

/** The owner's link (the same 404 as its view) and its counted days over the window. */
async function countedWindow(code: string, days: number, context: ManagementContext, deps: StatsDeps) {
  const link = await viewLink(code, context, deps);
  const window = statsWindow(days, context.nowMs);
  const counted = await deps.stats.days(linkKey(context.domain, link.shortCode), window[0] ?? '', window[window.length - 1] ?? '');
  return { link, window, counted };
}

/** GET /v2/links/{code}/stats: the link's all-time total and its window. */
export async function statsOfLink(code: string, days: number, context: ManagementContext, deps: StatsDeps): Promise<LinkStats> {
  const { link, window, counted } = await countedWindow(code, days, context, deps);
  return linkStats(link.shortCode, link.clicks, window, counted);
}

/** GET /v2/links/{code}/stats?format=csv: the window's rows, one per day and dimension value (stats-rows.ts). */
export async function statsRowsOfLink(code: string, days: number, context: ManagementContext, deps: StatsDeps): Promise<{ shortCode: string; rows: StatsRow[] }> {
  const { link, window, counted } = await countedWindow(code, days, context, deps);
  return { shortCode: link.shortCode, rows: statsRows(window, counted) };
}
