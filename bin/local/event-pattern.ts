/**
 * Lambda's event filtering (the EventBridge pattern syntax) for the patterns this template uses: nested objects,
 * lists of accepted values, exact strings and numbers, `{ "prefix": … }`. A record passes when any pattern matches.
 */
export function matchesPattern(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern)) return pattern.some((accepted) => matchesValue(accepted, value));
  if (typeof pattern !== 'object' || pattern === null) return false;
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(pattern).every(([key, nested]) => matchesPattern(nested, (value as Record<string, unknown>)[key]));
}

function matchesValue(accepted: unknown, value: unknown): boolean {
  if (typeof accepted === 'object' && accepted !== null && 'prefix' in accepted) {
    return typeof value === 'string' && value.startsWith(String((accepted as { prefix: unknown }).prefix));
  }
  return accepted === value;
}

export function passesFilters(patterns: readonly unknown[], record: unknown): boolean {
  return patterns.length === 0 || patterns.some((pattern) => matchesPattern(pattern, record));
}
