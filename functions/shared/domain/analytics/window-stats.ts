import { DEVICE_CLASSES, type DeviceClass } from './click';
import type { DayCounts } from './click-counts';
import { addDimensionCounts, emptyDimensionCounts, withDefaultDestination, type Dimension, type DimensionCounts } from './dimensions';
import { emptySketch, estimate, mergeInto } from './visitor-sketch';

/** The top of issue 30's dimensions: the window's 50 most clicked values, the rest summed as `other`. */
export const TOP_VALUES = 50;
/** Countries and referring hosts keep issue 11's top 10. */
const TOP_COUNTRIES_AND_HOSTS = 10;

export interface TopValues {
  top: Array<{ value: string; clicks: number }>;
  /** Clicks of every value below the top. */
  other: number;
}

/** Issue 30's dimensions, each as TopValues in the stats body, named as the body names them. */
export const TOP_DIMENSIONS = {
  browsers: 'browser',
  operatingSystems: 'os',
  regions: 'region',
  cities: 'city',
  utmSources: 'utmSource',
  utmMediums: 'utmMedium',
  utmCampaigns: 'utmCampaign',
} as const satisfies Record<string, Dimension>;
type TopDimensionName = keyof typeof TOP_DIMENSIONS;

/** What a window of days adds up to, for a link or a whole workspace. */
export interface WindowStats extends Record<TopDimensionName, TopValues> {
  /** `unique`: the day's unique visitors (people), an estimate within about 1.6 % (visitor-sketch.ts). */
  days: Array<{ date: string; clicks: number; bots: number; unique: number }>;
  /** The sum of the days' unique visitors: a visitor who comes back on another day counts again (the daily salt's price). */
  unique: number;
  countries: Array<{ country: string; clicks: number }>;
  referrers: Array<{ host: string; clicks: number }>;
  devices: Record<DeviceClass, number>;
  /** Clicks per destination the visitors were sent to (`default`, `rules[i]`, `variants[i]`, `expiredUrl`), those with any. */
  destinations: Record<string, number>;
}

const mostClicked = (counts: Record<string, number>): Array<[string, number]> =>
  Object.entries(counts)
    .filter(([, clicks]) => clicks > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));

function topValues(counts: Record<string, number>): TopValues {
  const sorted = mostClicked(counts);
  return {
    top: sorted.slice(0, TOP_VALUES).map(([value, clicks]) => ({ value, clicks })),
    other: sorted.slice(TOP_VALUES).reduce((total, [, clicks]) => total + clicks, 0),
  };
}

/** A day's clicks and values as the caller asked: people only, or (`?bots=include`) people and bots together. */
export function dayAsAsked(counts: DayCounts, includeBots: boolean): { clicks: number; dimensions: DimensionCounts } {
  if (!includeBots) return { clicks: counts.clicks, dimensions: counts.dimensions };
  const dimensions = emptyDimensionCounts();
  addDimensionCounts(dimensions, counts.dimensions);
  addDimensionCounts(dimensions, counts.botDimensions);
  return { clicks: counts.clicks + counts.bots, dimensions };
}

/**
 * Every day of the window (zeros included) with its clicks and bots, the window's top 10 countries and referring
 * hosts (ties by name), its devices and destinations, and issue 30's dimensions as their top 50 and the rest.
 * `counted` may hold several items per day (a workspace's links): they are added up.
 */
export function windowStats(window: readonly string[], counted: readonly DayCounts[], includeBots: boolean): WindowStats {
  const inWindow = new Set(window);
  const perDay = new Map<string, { clicks: number; bots: number; sketch?: Uint8Array }>();
  const totals = emptyDimensionCounts();
  for (const counts of counted) {
    if (!inWindow.has(counts.day)) continue;
    const asked = dayAsAsked(counts, includeBots);
    const day = perDay.get(counts.day) ?? { clicks: 0, bots: 0 };
    // Several links' sketches of one day merge: a visitor of two links is one of the workspace's visitors that day.
    if (counts.sketch) mergeInto((day.sketch ??= emptySketch()), counts.sketch);
    perDay.set(counts.day, { ...day, clicks: day.clicks + asked.clicks, bots: day.bots + counts.bots });
    addDimensionCounts(totals, { ...asked.dimensions, destination: withDefaultDestination(asked.dimensions.destination, asked.clicks) });
  }
  const devices = Object.fromEntries(DEVICE_CLASSES.map((device) => [device, totals.device[device] ?? 0])) as Record<DeviceClass, number>;
  const tops = Object.fromEntries(Object.entries(TOP_DIMENSIONS).map(([name, dimension]) => [name, topValues(totals[dimension])])) as Record<TopDimensionName, TopValues>;
  const days = window.map((date) => {
    const day = perDay.get(date);
    return { date, clicks: day?.clicks ?? 0, bots: day?.bots ?? 0, unique: day?.sketch ? estimate(day.sketch) : 0 };
  });
  return {
    days,
    unique: days.reduce((total, day) => total + day.unique, 0),
    countries: mostClicked(totals.country).slice(0, TOP_COUNTRIES_AND_HOSTS).map(([country, clicks]) => ({ country, clicks })),
    referrers: mostClicked(totals.referrer).slice(0, TOP_COUNTRIES_AND_HOSTS).map(([host, clicks]) => ({ host, clicks })),
    devices,
    destinations: Object.fromEntries(mostClicked(totals.destination)),
    ...tops,
  };
}
