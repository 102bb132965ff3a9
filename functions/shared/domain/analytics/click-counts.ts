import type { Click, DeviceClass } from './click';
import type { DestinationLabel } from '../destinations/smart-link';

/** One link's clicks on one UTC day, by dimension: what the aggregator adds and the stats endpoint reads. */
export interface DayCounts {
  day: string;
  clicks: number;
  countries: Record<string, number>;
  referrers: Record<string, number>;
  devices: Partial<Record<DeviceClass, number>>;
  /** Clicks sent elsewhere than the link's url (smart links); the rest of `clicks` went to its url. */
  destinations: Partial<Record<DestinationLabel, number>>;
}

/** A batch's clicks on one link: the days they fell on, and how many the link's own counter still lacks. */
export interface LinkCounts {
  code: string;
  /** Clicks the redirect did not count on the link itself (every click but a maxClicks link's). */
  uncounted: number;
  days: DayCounts[];
}

const bump = <K extends string>(counts: Partial<Record<K, number>>, key: K) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/**
 * Sums a batch per (link, day, dimension): a hot link costs one update per day per batch, not one per click.
 * Sorted by code and day, so the same batch always makes the same updates in the same order.
 */
export function countClicks(clicks: readonly Click[]): LinkCounts[] {
  const links = new Map<string, { uncounted: number; days: Map<string, DayCounts> }>();
  for (const click of clicks) {
    const link = links.get(click.code) ?? { uncounted: 0, days: new Map<string, DayCounts>() };
    links.set(click.code, link);
    if (!click.counted) link.uncounted += 1;
    const day = click.at.slice(0, 10);
    const counts = link.days.get(day) ?? { day, clicks: 0, countries: {}, referrers: {}, devices: {}, destinations: {} };
    link.days.set(day, counts);
    counts.clicks += 1;
    bump(counts.countries, click.country);
    bump(counts.referrers, click.referrer);
    bump(counts.devices, click.device);
    if (click.destination !== undefined) bump(counts.destinations, click.destination);
  }
  return [...links.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, link]) => ({ code, uncounted: link.uncounted, days: [...link.days.values()].sort((a, b) => a.day.localeCompare(b.day)) }));
}
