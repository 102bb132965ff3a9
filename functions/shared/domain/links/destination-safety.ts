import { Messages, OwnMessages } from '../messages';
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

/** Every field of a link request or edit that holds a destination (null: being removed). */
export interface RequestedDestinations {
  url?: string | undefined;
  rules?: ReadonlyArray<{ url: string }> | null | undefined;
  variants?: ReadonlyArray<{ url: string }> | null | undefined;
  expiredUrl?: string | null | undefined;
}

/** Each destination with the field it came from, in the order problems are reported. */
export function destinationsOf(request: RequestedDestinations): Array<{ field: string; url: string }> {
  return [
    ...(request.url !== undefined ? [{ field: 'url', url: request.url }] : []),
    ...(request.rules ?? []).map((rule, index) => ({ field: `rules[${index}].url`, url: rule.url })),
    ...(request.variants ?? []).map((variant, index) => ({ field: `variants[${index}].url`, url: variant.url })),
    ...(typeof request.expiredUrl === 'string' ? [{ field: 'expiredUrl', url: request.expiredUrl }] : []),
  ];
}

/** The refusal of the first flagged destination: the spec's message for `url`, the same naming its field otherwise. */
export function unsafeDestinationMessage(request: RequestedDestinations, unsafe: ReadonlySet<string>): string | undefined {
  const flagged = destinationsOf(request).find(({ url }) => unsafe.has(url));
  if (!flagged) return undefined;
  return flagged.field === 'url' ? Messages.unsafeUrl : OwnMessages.smartFieldProblem(flagged.field, Messages.unsafeUrl);
}
