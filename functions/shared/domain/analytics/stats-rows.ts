import type { DayCounts } from './click-counts';
import { DIMENSIONS, withDefaultDestination, type Dimension } from './dimensions';
import { dayAsAsked } from './window-stats';
import { estimate } from './visitor-sketch';

/** The columns of a stats export: one row per day and dimension value. */
export const STATS_ROW_HEADER = ['date', 'dimension', 'value', 'clicks'] as const;
export type StatsRow = [date: string, dimension: 'clicks' | 'bots' | 'unique' | Dimension, value: string, clicks: number];

const byClicks = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, clicks]) => clicks > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));

/**
 * GET …/stats?format=csv: for every day of the window (zeros included) its clicks and bots, then that day's values
 * of every dimension with clicks, most first. Unlike the JSON body nothing is cut to a top: the export is for people
 * who add it up themselves. Values go out as stored; csv.ts keeps spreadsheets from running them.
 */
export function statsRows(window: readonly string[], counted: readonly DayCounts[], includeBots = false): StatsRow[] {
  const byDay = new Map(counted.map((counts) => [counts.day, counts]));
  return window.flatMap((date): StatsRow[] => {
    const counts = byDay.get(date);
    if (!counts) return [[date, 'clicks', '', 0], [date, 'bots', '', 0], [date, 'unique', '', 0]];
    const { clicks, dimensions } = dayAsAsked(counts, includeBots);
    const valuesOf = (dimension: Dimension) => (dimension === 'destination' ? withDefaultDestination(dimensions.destination, clicks) : dimensions[dimension]);
    return [
      [date, 'clicks', '', clicks],
      [date, 'bots', '', counts.bots],
      [date, 'unique', '', counts.sketch ? estimate(counts.sketch) : 0],
      ...DIMENSIONS.flatMap((dimension) => byClicks(valuesOf(dimension)).map(([value, count]): StatsRow => [date, dimension, value, count])),
    ];
  });
}
