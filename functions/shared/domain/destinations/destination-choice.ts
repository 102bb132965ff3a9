import { deviceClass, viewerCountry, type DeviceClass } from '../analytics/click';
import { acceptedLanguages, languageMatches, negotiatedLanguage } from './accept-language';
import { decoratedDestination, type QueryPairs } from './destination-query';
import { operatingSystem } from './operating-system';
import { answersPerVisitor, VARIANT_WEIGHT_TOTAL, type DestinationLabel, type OperatingSystem, type RuleConditions, type SmartFields, type Variant } from './smart-link';

/** What a visit tells about the visitor, as received: read only as far as the link's rules need. */
export interface VisitorSignals {
  /** CloudFront's viewer country header. */
  country?: string;
  userAgent?: string;
  acceptLanguage?: string;
  query: QueryPairs;
  /** The variant index this browser's cookie holds for the link, if any. */
  variant?: number;
}

export interface Destination {
  url: string;
  label: DestinationLabel;
  /** A variant just drawn for a browser that had none (or a stale one): the cookie to give it. */
  drawnVariant?: number;
}

/** Each trait is worked out once, and only when a condition asks for it. */
class VisitorTraits {
  private cache: { country?: string; device?: DeviceClass; os?: OperatingSystem | null; languages?: string[] } = {};

  constructor(readonly signals: VisitorSignals) {}

  get country(): string {
    return (this.cache.country ??= viewerCountry(this.signals.country));
  }

  get device(): DeviceClass {
    return (this.cache.device ??= deviceClass(this.signals.userAgent));
  }

  get os(): OperatingSystem | undefined {
    if (this.cache.os === undefined) this.cache.os = operatingSystem(this.signals.userAgent) ?? null;
    return this.cache.os ?? undefined;
  }

  get languages(): string[] {
    return (this.cache.languages ??= acceptedLanguages(this.signals.acceptLanguage));
  }

  hasParameter(name: string, expected: string | true): boolean {
    return this.signals.query.some(([key, value]) => key === name && (expected === true || value === expected));
  }
}

function holds(when: RuleConditions, visitor: VisitorTraits, language: () => string | undefined, nowMs: number): boolean {
  if (when.after !== undefined && nowMs < Date.parse(when.after)) return false;
  if (when.before !== undefined && nowMs >= Date.parse(when.before)) return false;
  if (when.country !== undefined && !when.country.includes(visitor.country)) return false;
  if (when.device !== undefined && !(when.device as readonly string[]).includes(visitor.device)) return false;
  if (when.os !== undefined && !when.os.some((os) => os === visitor.os)) return false;
  if (when.query !== undefined && !Object.entries(when.query).every(([name, expected]) => visitor.hasParameter(name, expected))) return false;
  if (when.language !== undefined) {
    const served = language();
    if (served === undefined || !when.language.some((range) => languageMatches(range, served))) return false;
  }
  return true;
}

/** A stored index still names a variant; otherwise one is drawn by weight (`draw` in [0, 1)). */
function variantFor(variants: readonly Variant[], cookie: number | undefined, draw: () => number): { index: number; drawn: boolean } {
  if (cookie !== undefined && Number.isInteger(cookie) && cookie >= 0 && cookie < variants.length) return { index: cookie, drawn: false };
  let point = draw() * VARIANT_WEIGHT_TOTAL;
  for (const [index, variant] of variants.entries()) {
    if (point < variant.weight) return { index, drawn: true };
    point -= variant.weight;
  }
  return { index: variants.length - 1, drawn: true };
}

/**
 * Where this visitor goes: the first rule whose conditions all hold, else a variant (kept per browser), else the
 * link's url; then the UTM tags and, with forwardQuery, the visitor's query.
 */
export function chooseDestination(link: SmartFields & { url: string }, signals: VisitorSignals, nowMs: number, draw: () => number = Math.random): Destination {
  if (!answersPerVisitor(link) && !link.forwardQuery && link.utm === undefined) return { url: link.url, label: 'default' };
  const visitor = new VisitorTraits(signals);
  const decorate = (url: string) => decoratedDestination(url, link.forwardQuery ? signals.query : [], link.utm);
  let served: { language?: string } | undefined;
  const language = () => (served ??= { language: negotiatedLanguage(visitor.languages, (link.rules ?? []).flatMap((rule) => rule.when.language ?? [])) }).language;

  const rule = link.rules?.findIndex((candidate) => holds(candidate.when, visitor, language, nowMs)) ?? -1;
  const matched = link.rules?.[rule];
  if (matched) return { url: decorate(matched.url), label: `rules[${rule}]` };
  if (link.variants) {
    const { index, drawn } = variantFor(link.variants, signals.variant, draw);
    const variant = link.variants[index];
    if (variant) return { url: decorate(variant.url), label: `variants[${index}]`, ...(drawn ? { drawnVariant: index } : {}) };
  }
  return { url: decorate(link.url), label: 'default' };
}
