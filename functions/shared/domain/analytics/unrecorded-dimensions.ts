import { workspaceOfOwner } from '../accounts/accounts';
import type { AnalyticsSwitchesSource } from '../ports';
import { forgetUnrecorded, unrecordedDimensions } from './analytics-switches';
import type { LinkCounts } from './click-counts';
import type { Dimension } from './dimensions';
import { ownerOfWorkspaceCode, type LinkPlace, type WorkspaceDay } from './rollups';

/**
 * How long an aggregator container trusts the switches it read: a switch turned off (or on) applies to deliveries
 * folded from this long after the change at the latest.
 */
export const SWITCHES_CACHE_MS = 5_000;
/** Beyond this many remembered workspaces the expired ones are dropped, and all of them if none expired. */
const MAX_REMEMBERED = 10_000;
const NOTHING: readonly Dimension[] = [];

/**
 * The dimensions each workspace does not record, read once per workspace and container every few seconds (one read
 * shared by the links of a delivery, whatever their number), so a workspace that switched nothing off costs a read
 * every SWITCHES_CACHE_MS and nothing per click. v1's anonymous links belong to no workspace and record everything.
 * A failed read is not remembered: it fails the delivery, which is retried.
 */
export class UnrecordedDimensions {
  private readonly remembered = new Map<string, { until: number; dimensions: Promise<readonly Dimension[]> }>();

  constructor(private readonly source: AnalyticsSwitchesSource) {}

  of(owner: string, nowMs: number): Promise<readonly Dimension[]> {
    const workspaceId = workspaceOfOwner(owner);
    if (workspaceId === undefined) return Promise.resolve(NOTHING);
    const entry = this.remembered.get(workspaceId);
    if (entry && entry.until > nowMs) return entry.dimensions;
    const dimensions = this.source.switchesOf(workspaceId).then(unrecordedDimensions);
    this.remember(workspaceId, { until: nowMs + SWITCHES_CACHE_MS, dimensions }, nowMs);
    dimensions.catch(() => {
      if (this.remembered.get(workspaceId)?.dimensions === dimensions) this.remembered.delete(workspaceId);
    });
    return dimensions;
  }

  private remember(workspaceId: string, entry: { until: number; dimensions: Promise<readonly Dimension[]> }, nowMs: number): void {
    if (this.remembered.size >= MAX_REMEMBERED) {
      for (const [id, { until }] of this.remembered) if (until <= nowMs) this.remembered.delete(id);
      if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
    }
    this.remembered.set(workspaceId, entry);
  }
}

/**
 * A delivery's sums without the dimensions their workspace does not record: each link's days (by its owner) and each
 * workspace item's days. Totals, bots, unique visitors and the live hour are kept: a switch silences a trait, not a
 * click. Links of workspaces that switched nothing off are left as they are.
 */
export function forgetUnrecordedDimensions(
  links: readonly LinkCounts[],
  workspaces: readonly WorkspaceDay[],
  places: ReadonlyMap<string, LinkPlace | undefined>,
  unrecordedByOwner: ReadonlyMap<string, readonly Dimension[]>,
): void {
  const forget = (owner: string | undefined, days: readonly WorkspaceDay['counts'][]) => {
    const unrecorded = owner === undefined ? undefined : unrecordedByOwner.get(owner);
    if (unrecorded?.length) for (const counts of days) forgetUnrecorded(counts, unrecorded);
  };
  for (const link of links) forget(places.get(link.code)?.owner, link.days);
  for (const day of workspaces) forget(ownerOfWorkspaceCode(day.code), [day.counts]);
}
