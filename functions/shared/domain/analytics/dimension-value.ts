/**
 * How a dimension's value is stored, apart from how a User-Agent is classified (visitor-traits.ts): the stats
 * readers and the aggregator need this and not ua-parser-js or isbot, whose import costs a cold start about 6 ms.
 */

/** Longest stored value of any dimension (a city, a campaign): attribute names and CSV cells stay small. */
export const MAX_DIMENSION_VALUE_LENGTH = 100;

/**
 * A dimension value as given, without control characters and cut to MAX_DIMENSION_VALUE_LENGTH characters
 * (whole code points: a cut never splits a character), or `fallback` when nothing is left.
 */
export function dimensionValue(raw: string | undefined, fallback: string): string {
  const cleaned = (raw ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return cleaned ? Array.from(cleaned).slice(0, MAX_DIMENSION_VALUE_LENGTH).join('') : fallback;
}
