import type { Click } from './click';
import { dimensionValuesOf, emptyDimensionCounts, type Dimension, type DimensionCounts } from './dimensions';
import { addUpdate, emptySketch } from './visitor-sketch';

/** One link's clicks on one UTC day, by dimension: what the aggregator adds and the stats endpoint reads. */
export interface DayCounts {
  day: string;
  /** People's clicks: bots are never among them (issue 30). */
  clicks: number;
  /** Bots' visits that were redirected (isbot, link-preview fetchers, HEAD requests). */
  bots: number;
  /** People's clicks by dimension (a destination other than the link's url only: see dimensions.ts). */
  dimensions: DimensionCounts;
  /** Bots' visits by dimension: shown only when the caller asks `?bots=include`. */
  botDimensions: DimensionCounts;
  /** The day's unique-visitor sketch of people (visitor-sketch.ts); absent when no click carried an update. */
  sketch?: Uint8Array;
  /** A workspace's day only: people's clicks per link key (its top links). */
  links?: Record<string, number>;
}

/** A batch's clicks on one link: the days they fell on, and how many the link's own counters still lack. */
export interface LinkCounts {
  code: string;
  /** People's clicks the redirect did not count on the link itself (every click but a maxClicks link's). */
  uncounted: number;
  /** Bots' visits, kept on the link beside its clicks (the all-time figure of `?bots=include`). */
  bots: number;
  days: DayCounts[];
}

export const emptyDay = (day: string): DayCounts => ({ day, clicks: 0, bots: 0, dimensions: emptyDimensionCounts(), botDimensions: emptyDimensionCounts() });

function bump(counts: DimensionCounts, click: Click): void {
  const values = dimensionValuesOf(click);
  for (const dimension in values) {
    const value = values[dimension as Dimension] as string;
    const byValue = counts[dimension as Dimension];
    byValue[value] = (byValue[value] ?? 0) + 1;
  }
}

/**
 * Sums a batch per (link, day, dimension): a hot link costs one update per day per batch, not one per click.
 * Sorted by code and day, so the same batch always makes the same updates in the same order. `codeOf` files a
 * click under another item than its link's (a workspace's: rollups.ts), without copying the click.
 */
export function countClicks(clicks: readonly Click[], codeOf: (click: Click) => string = (click) => click.code): LinkCounts[] {
  const links = new Map<string, { uncounted: number; bots: number; days: Map<string, DayCounts> }>();
  for (const click of clicks) {
    const code = codeOf(click);
    const link = links.get(code) ?? { uncounted: 0, bots: 0, days: new Map<string, DayCounts>() };
    links.set(code, link);
    const day = click.at.slice(0, 10);
    const counts = link.days.get(day) ?? emptyDay(day);
    link.days.set(day, counts);
    if (click.bot) {
      link.bots += 1;
      counts.bots += 1;
      bump(counts.botDimensions, click);
      continue;
    }
    if (!click.counted) link.uncounted += 1;
    counts.clicks += 1;
    bump(counts.dimensions, click);
    if (click.visitor) addUpdate((counts.sketch ??= emptySketch()), click.visitor);
  }
  return [...links.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, link]) => ({ code, uncounted: link.uncounted, bots: link.bots, days: [...link.days.values()].sort((a, b) => a.day.localeCompare(b.day)) }));
}
