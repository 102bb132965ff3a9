import { destinationsOf } from './link-health';
import type { LinkRecord } from '../links/link';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const ended = (link: LinkRecord) => link.deleted === true || link.retired === true || link.disabled === true;

/**
 * Whether a committed change to a link calls for a check now (issue 31): a new link, a changed destination (url,
 * rules, variants, expiredUrl), or a link turned on again. The health worker's own writes change none of these, so
 * they never call for another; v1 links (owner "anonymous") are nobody's to tell, and a link with nothing this run may
 * check (a local run's allow list) costs the worker nothing.
 */
export function needsCheck(before: LinkRecord | undefined, after: LinkRecord | undefined, mayCheck: (url: string) => boolean = () => true): boolean {
  if (!after || after.owner === 'anonymous' || ended(after) || !destinationsOf(after).some(mayCheck)) return false;
  if (!before) return true;
  if (before.disabled && !after.disabled) return true;
  return !same(destinationsOf(before), destinationsOf(after));
}
