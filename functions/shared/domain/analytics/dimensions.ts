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
  // Built field by field, not with spreads: the aggregator calls this for every click of a delivery, several times.
  const values: Partial<Record<Dimension, string>> = { country: click.country, referrer: click.referrer, device: click.device };
  if (click.destination !== undefined) values.destination = click.destination;
  values.browser = click.browser ?? 'unknown';
  values.os = click.os ?? 'unknown';
  values.region = click.region ?? 'unknown';
  values.city = click.city ?? 'unknown';
  if (click.utmSource !== undefined) values.utmSource = click.utmSource;
  if (click.utmMedium !== undefined) values.utmMedium = click.utmMedium;
  if (click.utmCampaign !== undefined) values.utmCampaign = click.utmCampaign;
  return values;
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
