import { emptyDay, type DayCounts } from '../../functions/shared/domain/analytics/click-counts';
import type { DimensionCounts } from '../../functions/shared/domain/analytics/dimensions';

/** A day's counts of people's clicks with the given values (every other dimension empty, no bots). */
export function dayOf(day: string, clicks: number, dimensions: Partial<DimensionCounts> = {}): DayCounts {
  const counts = emptyDay(day);
  return { ...counts, clicks, dimensions: { ...counts.dimensions, ...dimensions } };
}
