import type { DayCounts } from './click-counts';
import type { Dimension } from './dimensions';

/**
 * What a workspace may stop recording (issue 30): each trait of a visitor the stats break clicks down by, the city
 * apart from its region, and the three campaign parameters as one. The destination is not a visitor's trait (it is
 * the link's own rule that chose it), so it has no switch. Free of zod: the dashboard bundles this list.
 */
export const ANALYTICS_SWITCHES = ['country', 'region', 'city', 'referrer', 'device', 'browser', 'os', 'campaign'] as const;
export type AnalyticsSwitch = (typeof ANALYTICS_SWITCHES)[number];

/** A workspace's switches: true records the dimension, false does not. A workspace that never set one records all. */
export type AnalyticsSwitches = Record<AnalyticsSwitch, boolean>;

export const RECORD_EVERYTHING: AnalyticsSwitches = Object.freeze(Object.fromEntries(ANALYTICS_SWITCHES.map((name) => [name, true])) as AnalyticsSwitches);

const DIMENSIONS_OF: Readonly<Record<AnalyticsSwitch, readonly Dimension[]>> = {
  country: ['country'],
  region: ['region'],
  city: ['city'],
  referrer: ['referrer'],
  device: ['device'],
  browser: ['browser'],
  os: ['os'],
  campaign: ['utmSource', 'utmMedium', 'utmCampaign'],
};

/**
 * A stored record's switches, every one named: what is not a boolean false records (a record written before the
 * switches, or damaged, never silences a dimension by accident).
 */
export function switchesOf(stored: unknown): AnalyticsSwitches {
  if (typeof stored !== 'object' || stored === null) return RECORD_EVERYTHING;
  const values = stored as Record<string, unknown>;
  return Object.fromEntries(ANALYTICS_SWITCHES.map((name) => [name, values[name] !== false])) as AnalyticsSwitches;
}

/** The dimensions a workspace does not record: none for most, so the aggregator's work for them stays as it was. */
export function unrecordedDimensions(switches: AnalyticsSwitches): readonly Dimension[] {
  return ANALYTICS_SWITCHES.filter((name) => !switches[name]).flatMap((name) => DIMENSIONS_OF[name]);
}

/** Drops a day's counts of the dimensions not recorded, people's and bots' alike, before anything is written. */
export function forgetUnrecorded(counts: DayCounts, unrecorded: readonly Dimension[]): void {
  for (const dimension of unrecorded) {
    counts.dimensions[dimension] = {};
    counts.botDimensions[dimension] = {};
  }
}
