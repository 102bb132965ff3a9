/**
 * Lambda's event filtering (the EventBridge pattern syntax) for the patterns this template uses: nested objects,
 * lists of accepted values, exact strings and numbers, `{ "prefix": … }` and `{ "exists": … }` (of a leaf: a field
 * under a missing object does not exist). A record passes when any pattern matches.
 */
export function matchesPattern(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern)) return pattern.some((accepted) => matchesValue(accepted, value));
  if (typeof pattern !== 'object' || pattern === null) return false;
  const fields: Record<string, unknown> = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return Object.entries(pattern).every(([key, nested]) => matchesPattern(nested, fields[key]));
}

function matchesValue(accepted: unknown, value: unknown): boolean {
  if (typeof accepted === 'object' && accepted !== null && 'exists' in accepted) return (accepted as { exists: unknown }).exists === (value !== undefined);
  if (typeof accepted === 'object' && accepted !== null && 'prefix' in accepted) {
    return typeof value === 'string' && value.startsWith(String((accepted as { prefix: unknown }).prefix));
  }
  return accepted === value;
}

export function passesFilters(patterns: readonly unknown[], record: unknown): boolean {
  return patterns.length === 0 || patterns.some((pattern) => matchesPattern(pattern, record));
}
