import reserved from './reserved-aliases.json';

export const ALIAS_MIN_LENGTH = 3;
export const ALIAS_MAX_LENGTH = 50;
/** Letters, digits and hyphens: the batch rule of the spec, applied to single creation too. */
export const ALIAS_PATTERN = /^[A-Za-z0-9-]+$/;

const reservedExact = new Set(reserved.exact.map((word) => word.toLowerCase()));
const reservedPatterns = reserved.patterns.map((pattern) => new RegExp(pattern));

export function isReservedAlias(alias: string): boolean {
  const lower = alias.toLowerCase();
  return reservedExact.has(lower) || reservedPatterns.some((pattern) => pattern.test(lower));
}

/** Overrides are stored under this form so that "Google" and "google" share one. */
export function aliasOverrideKey(alias: string): string {
  return alias.toLowerCase();
}
