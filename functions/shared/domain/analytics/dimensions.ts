import type { Click } from './click';

/**
 * What a click is broken down by. The first four came with issue 11 (destination with issue 18); browser, os,
 * region, city and the three campaign parameters with issue 30.
 */
export const DIMENSIONS = ['country', 'referrer', 'device', 'destination', 'browser', 'os', 'region', 'city', 'utmSource', 'utmMedium', 'utmCampaign'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** Clicks per value, per dimension. */
export type DimensionCounts = Record<Dimension, Record<string, number>>;

export const emptyDimensionCounts = (): DimensionCounts => Object.fromEntries(DIMENSIONS.map((dimension) => [dimension, {}])) as unknown as DimensionCounts;

/**
 * The value a click gives each dimension. Left out: the destination when it is the link's url (derived from the
 * day's clicks: see `withDefaultDestination`), and a campaign parameter the visit did not carry. Lines written before
 * issue 30 carry no browser, os, region or city: "unknown".
 */
export function dimensionValuesOf(click: Click): Partial<Record<Dimension, string>> {
  return {
    country: click.country,
    referrer: click.referrer,
    device: click.device,
    ...(click.destination === undefined ? {} : { destination: click.destination }),
    browser: click.browser ?? 'unknown',
    os: click.os ?? 'unknown',
    region: click.region ?? 'unknown',
    city: click.city ?? 'unknown',
    ...(click.utmSource === undefined ? {} : { utmSource: click.utmSource }),
    ...(click.utmMedium === undefined ? {} : { utmMedium: click.utmMedium }),
    ...(click.utmCampaign === undefined ? {} : { utmCampaign: click.utmCampaign }),
  };
}

/** Adds `from` into `into`, dimension by dimension. */
export function addDimensionCounts(into: DimensionCounts, from: DimensionCounts): void {
  for (const dimension of DIMENSIONS) {
    for (const [value, clicks] of Object.entries(from[dimension])) into[dimension][value] = (into[dimension][value] ?? 0) + clicks;
  }
}

/** Destinations with the link's own url's share (`default`) made explicit: what is left of `clicks` once the others are counted. */
export function withDefaultDestination(destinations: Record<string, number>, clicks: number): Record<string, number> {
  const elsewhere = Object.values(destinations).reduce((total, count) => total + count, 0);
  return { ...destinations, default: clicks - elsewhere };
}
