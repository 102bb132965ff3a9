import { deviceClass, viewerCountry, type DeviceClass } from '../analytics/click';
import { acceptedLanguages, languageMatches, negotiatedLanguage } from './accept-language';
import { prepareDestination, withVisitorQuery, type PreparedDestination, type QueryPairs } from './destination-query';
import { operatingSystem } from './operating-system';
import { VARIANT_WEIGHT_TOTAL, type DestinationLabel, type OperatingSystem, type RuleConditions, type SmartFields, type Variant } from './smart-link';

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
  private cache: { country?: string; device?: DeviceClass; os?: OperatingSystem | null; languages?: readonly string[] } = {};

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

  get languages(): readonly string[] {
    return (this.cache.languages ??= acceptedLanguages(this.signals.acceptLanguage));
  }

  hasParameter(name: string, expected: string | true): boolean {
    return this.signals.query.some(([key, value]) => key === name && (expected === true || value === expected));
  }
}

/** A rule's conditions in the form a visit reads fastest: instants as numbers, query conditions as a list. */
interface CompiledRule {
  destination: PreparedDestination;
  when: RuleConditions;
  afterMs?: number;
  beforeMs?: number;
  query?: ReadonlyArray<[string, string | true]>;
}

/** A link's destinations taken apart once: a link kept in the redirect's memory is compiled once per container. */
interface CompiledLink {
  rules: readonly CompiledRule[];
  /** Every language any rule names: what the visitor's languages are negotiated against. */
  languages: readonly string[];
  variants: readonly PreparedDestination[];
  fallback: PreparedDestination;
}

const compiledLinks = new WeakMap<object, CompiledLink>();

function compile(link: SmartFields & { url: string }): CompiledLink {
  const known = compiledLinks.get(link);
  if (known) return known;
  const rules = (link.rules ?? []).map(
    ({ url, when }): CompiledRule => ({
      destination: prepareDestination(url, link.utm),
      when,
      ...(when.after === undefined ? {} : { afterMs: Date.parse(when.after) }),
      ...(when.before === undefined ? {} : { beforeMs: Date.parse(when.before) }),
      ...(when.query === undefined ? {} : { query: Object.entries(when.query) }),
    }),
  );
  const compiled = {
    rules,
    languages: rules.flatMap((rule) => rule.when.language ?? []),
    variants: (link.variants ?? []).map((variant) => prepareDestination(variant.url, link.utm)),
    fallback: prepareDestination(link.url, link.utm),
  };
  compiledLinks.set(link, compiled);
  return compiled;
}

function holds(rule: CompiledRule, visitor: VisitorTraits, language: () => string | undefined, nowMs: number): boolean {
  const { when } = rule;
  if (rule.afterMs !== undefined && nowMs < rule.afterMs) return false;
  if (rule.beforeMs !== undefined && nowMs >= rule.beforeMs) return false;
  if (when.country !== undefined && !when.country.includes(visitor.country)) return false;
  if (when.device !== undefined && !(when.device as readonly string[]).includes(visitor.device)) return false;
  if (when.os !== undefined) {
    const os = visitor.os;
    if (os === undefined || !when.os.includes(os)) return false;
  }
  if (rule.query !== undefined) {
    for (const [name, expected] of rule.query) if (!visitor.hasParameter(name, expected)) return false;
  }
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

export interface ChoiceOptions {
  /** Rules and variants apply (the operator's `smartLinks` flag); UTM tags and forwarding apply regardless. */
  smart?: boolean;
  draw?: () => number;
}

/**
 * Where this visitor goes: the first rule whose conditions all hold, else a variant (kept per browser), else the
 * link's url; then the UTM tags and, with forwardQuery, the visitor's query. `link` is the stored record itself, so
 * that a link the redirect keeps in memory is taken apart once, not on every visit.
 */
export function chooseDestination(link: SmartFields & { url: string }, signals: VisitorSignals, nowMs: number, options: ChoiceOptions = {}): Destination {
  const smart = options.smart ?? true;
  if (link.forwardQuery !== true && link.utm === undefined && (!smart || (link.rules === undefined && link.variants === undefined))) {
    return { url: link.url, label: 'default' };
  }
  const compiled = compile(link);
  const decorate = (destination: PreparedDestination) => (link.forwardQuery ? withVisitorQuery(destination, signals.query) : destination.tagged);
  if (smart) {
    const visitor = new VisitorTraits(signals);
    let served: { language?: string } | undefined;
    const language = () => (served ??= { language: negotiatedLanguage(visitor.languages, compiled.languages) }).language;
    for (const [index, rule] of compiled.rules.entries()) {
      if (holds(rule, visitor, language, nowMs)) return { url: decorate(rule.destination), label: `rules[${index}]` };
    }
    if (link.variants) {
      const { index, drawn } = variantFor(link.variants, signals.variant, options.draw ?? Math.random);
      const variant = compiled.variants[index];
      if (variant) return { url: decorate(variant), label: `variants[${index}]`, ...(drawn ? { drawnVariant: index } : {}) };
    }
  }
  return { url: decorate(compiled.fallback), label: 'default' };
}
