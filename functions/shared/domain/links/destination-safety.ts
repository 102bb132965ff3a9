import type { SafetyChecker } from '../ports';
import { isHomographHost } from './homographs';

/**
 * The destinations among `requested` that must not be shortened: look-alike host names, refused here without
 * asking anyone, and whatever the safety check flags among the rest, all in one call.
 */
export async function findUnsafe(requested: readonly string[], safety: SafetyChecker): Promise<ReadonlySet<string>> {
  const urls = [...new Set(requested)];
  const homographs = urls.filter((url) => isHomographHost(new URL(url).hostname));
  const others = urls.filter((url) => !homographs.includes(url));
  const flagged = others.length > 0 ? await safety.findUnsafe(others) : new Set<string>();
  return new Set([...homographs, ...flagged]);
}
