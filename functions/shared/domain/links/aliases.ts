import reserved from './reserved-aliases.json';

export const ALIAS_MIN_LENGTH = 3;
export const ALIAS_MAX_LENGTH = 50;
/** Letters, digits and hyphens: the batch rule of the spec, applied to single creation too. */
export const ALIAS_PATTERN = /^[A-Za-z0-9-]+$/;

/** Built on first use, so bundles that only need the alias rules (the redirect) leave the list out. */
let reservedList: { exact: Set<string>; patterns: RegExp[] } | undefined;

export function isReservedAlias(alias: string): boolean {
  reservedList ??= { exact: new Set(reserved.exact.map((word) => word.toLowerCase())), patterns: reserved.patterns.map((pattern) => new RegExp(pattern)) };
  const lower = alias.toLowerCase();
  return reservedList.exact.has(lower) || reservedList.patterns.some((pattern) => pattern.test(lower));
}

/** Overrides are stored under this form so that "Google" and "google" share one. */
export function aliasOverrideKey(alias: string): string {
  return alias.toLowerCase();
}
