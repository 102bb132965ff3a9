import { Expiring } from '../expiring';
import type { LinkPlace } from './rollups';

/**
 * How long the aggregator trusts a clicked link's owner and tags: a tag added or removed reaches the workspace's
 * per-tag figures within this time. Without it every delivery read each of its links again (issue 28: the
 * aggregator's work per batch).
 */
export const LINK_PLACE_MS = 30_000;

/** `placeOf` read at most once per link and LINK_PLACE_MS in a container (a gone link is remembered as gone too). */
export function rememberedPlaces(placeOf: (key: string) => Promise<LinkPlace | undefined>): (key: string, nowMs: number) => Promise<LinkPlace | undefined> {
  const places = new Expiring<LinkPlace | undefined>();
  return async (key, nowMs) => {
    const remembered = places.get(key, nowMs);
    if (remembered) return remembered.value;
    const place = await placeOf(key);
    places.set(key, place, nowMs + LINK_PLACE_MS, nowMs);
    return place;
  };
}
