/**
 * What a smart link carries beside its `url` (issue 18): rules that pick a destination per visitor, an A/B split,
 * query forwarding, UTM tags and where visitors go once the link has ended. Stored on the link as given (normalised).
 */
export const DEVICES = ['mobile', 'tablet', 'desktop'] as const;
export type RuleDevice = (typeof DEVICES)[number];

export const OPERATING_SYSTEMS = ['ios', 'android', 'windows', 'macos', 'linux', 'chromeos'] as const;
export type OperatingSystem = (typeof OPERATING_SYSTEMS)[number];

export const CONDITION_NAMES = ['country', 'device', 'os', 'language', 'query', 'after', 'before'] as const;

export interface RuleConditions {
  /** ISO 3166-1 alpha-2, upper case. */
  country?: string[];
  device?: RuleDevice[];
  os?: OperatingSystem[];
  /** Language ranges as given (`de`, `pt-BR`), matched case-insensitively by prefix of subtags (RFC 4647 basic filtering). */
  language?: string[];
  /** Parameter name → the exact value, or `true` for any value. */
  query?: Record<string, string | true>;
  /** ISO 8601 UTC with milliseconds: the rule applies from this instant on. */
  after?: string;
  /** ISO 8601 UTC with milliseconds: the rule applies until just before this instant. */
  before?: string;
}

export interface Rule {
  url: string;
  when: RuleConditions;
}

export interface Variant {
  url: string;
  weight: number;
}

export const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type Utm = Partial<Record<(typeof UTM_FIELDS)[number], string>>;

export interface SmartFields {
  rules?: Rule[];
  variants?: Variant[];
  forwardQuery?: boolean;
  utm?: Utm;
  expiredUrl?: string;
}

/** The smart-link fields of a request: problems in them are reported with their path. */
export const SMART_FIELD_NAMES: ReadonlySet<string> = new Set(['rules', 'variants', 'forwardQuery', 'utm', 'expiredUrl']);

/** A request or edit that sets one of them (null counts in an edit, where it removes the field). */
export function carriesSmartFields(input: unknown, nullCounts: boolean): boolean {
  if (typeof input !== 'object' || input === null) return false;
  return [...SMART_FIELD_NAMES].some((name) => {
    const value = (input as Record<string, unknown>)[name];
    return value !== undefined && (nullCounts || value !== null);
  });
}

export const MAX_RULES = 20;
/**
 * The rules' size in all, as UTF-8 JSON. Each condition is bounded, but twenty rules of twenty query conditions of
 * 1,000 characters each would make an item far past DynamoDB's 400 KB: the write would fail after the checks, as a
 * 500, and a batch's other links would be made (and made again by a retry under the same Idempotency-Key).
 */
export const MAX_RULES_BYTES = 64 * 1024;
export const VARIANT_COUNT = { min: 2, max: 4 } as const;
export const VARIANT_WEIGHT_TOTAL = 100;
/** How long a browser keeps the variant it was given (the 30 days). */
export const VARIANT_COOKIE_SECONDS = 30 * 86_400;

/**
 * A link whose answer depends on who asks: no browser or shared cache may keep it (one visitor's destination
 * replayed to another, or a date window outlived).
 */
export function answersPerVisitor(link: Pick<SmartFields, 'rules' | 'variants'>): boolean {
  return link.rules !== undefined || link.variants !== undefined;
}

/**
 * Which destination a visitor was sent to, as the stats count them: `default` (the link's url), `rules[i]`,
 * `variants[i]` or `expiredUrl`.
 */
export type DestinationLabel = 'default' | 'expiredUrl' | `rules[${number}]` | `variants[${number}]`;

/** rules[0]..rules[19] (MAX_RULES) and variants[0]..variants[3] (VARIANT_COUNT.max). */
export const DESTINATION_LABEL_PATTERN = /^(default|expiredUrl|rules\[1?\d\]|variants\[[0-3]\])$/;

export function isDestinationLabel(value: unknown): value is DestinationLabel {
  return typeof value === 'string' && DESTINATION_LABEL_PATTERN.test(value);
}
