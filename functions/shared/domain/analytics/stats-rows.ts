import { DEVICE_CLASSES } from './click';
import type { DayCounts } from './click-counts';

/** The columns of a stats export: one row per day and dimension value. */
export const STATS_ROW_HEADER = ['date', 'dimension', 'value', 'clicks'] as const;
export type StatsRow = [date: string, dimension: 'clicks' | 'country' | 'referrer' | 'device' | 'destination', value: string, clicks: number];

const byClicks = (counts: Partial<Record<string, number>>) =>
  Object.entries(counts)
    .filter((entry): entry is [string, number] => (entry[1] ?? 0) > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));

/**
 * GET …/stats?format=csv: for every day of the window (zeros included) its clicks, then that day's countries,
 * referring hosts, devices and destinations with clicks, most first. Unlike the JSON body nothing is cut to a top 10:
 * the export is for people who add it up themselves.
 */
export function statsRows(window: readonly string[], counted: readonly DayCounts[]): StatsRow[] {
  const byDay = new Map(counted.map((counts) => [counts.day, counts]));
  return window.flatMap((date): StatsRow[] => {
    const counts = byDay.get(date);
    if (!counts) return [[date, 'clicks', '', 0]];
    const elsewhere = Object.values(counts.destinations).reduce<number>((total, clicks) => total + (clicks ?? 0), 0);
    const devices = Object.fromEntries(DEVICE_CLASSES.map((device) => [device, counts.devices[device] ?? 0]));
    return [
      [date, 'clicks', '', counts.clicks],
      ...byClicks(counts.countries).map(([country, clicks]): StatsRow => [date, 'country', country, clicks]),
      ...byClicks(counts.referrers).map(([host, clicks]): StatsRow => [date, 'referrer', host, clicks]),
      ...byClicks(devices).map(([device, clicks]): StatsRow => [date, 'device', device, clicks]),
      ...byClicks({ ...counts.destinations, default: counts.clicks - elsewhere }).map(([label, clicks]): StatsRow => [date, 'destination', label, clicks]),
    ];
  });
}
