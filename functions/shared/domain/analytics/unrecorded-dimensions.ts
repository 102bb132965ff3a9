import { workspaceOfOwner } from '../accounts/accounts';
import { Expiring } from '../expiring';
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
const NOTHING: readonly Dimension[] = [];

/**
 * The dimensions each workspace does not record, read once per workspace and container every few seconds, those of
 * a delivery's workspaces in one call, so a workspace that switched nothing off costs a share of one read every
 * SWITCHES_CACHE_MS and nothing per click. v1's anonymous links belong to no workspace and record everything. A failed
 * read is not remembered: it fails the delivery, which is retried.
 */
export class UnrecordedDimensions {
  private readonly remembered = new Expiring<readonly Dimension[]>();

  constructor(private readonly source: AnalyticsSwitchesSource) {}

  /** Each owner's (owners repeat: one per clicked link). */
  async byOwner(owners: Iterable<string>, nowMs: number): Promise<Map<string, readonly Dimension[]>> {
    const workspaces = new Map([...new Set(owners)].map((owner) => [owner, workspaceOfOwner(owner)] as const));
    const toRead = [...new Set([...workspaces.values()].filter((id): id is string => id !== undefined && this.remembered.get(id, nowMs) === undefined))];
    if (toRead.length > 0) {
      for (const [id, switches] of await this.source.switchesOf(toRead)) this.remembered.set(id, unrecordedDimensions(switches), nowMs + SWITCHES_CACHE_MS, nowMs);
    }
    return new Map([...workspaces].map(([owner, id]) => [owner, (id === undefined ? undefined : this.remembered.get(id, nowMs)?.value) ?? NOTHING]));
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
