import type { Link, Rule, Variant } from './link-types';

/** What the link form holds: text as typed, so a refused request keeps every character for the next try. */
export const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];
export const EXPIRY_UNITS = { minutes: 60, hours: 3600, days: 86_400 } as const;
export type ExpiryUnit = keyof typeof EXPIRY_UNITS;

export interface RuleDraft {
  url: string;
  country: string;
  device: string;
  os: string;
  language: string;
  query: string;
  after: string;
  before: string;
}

export interface VariantDraft {
  url: string;
  weight: string;
}

export interface LinkDraft {
  url: string;
  alias: string;
  domain: string;
  password: string;
  removePassword: boolean;
  expiresAmount: string;
  expiresUnit: ExpiryUnit;
  removeExpiry: boolean;
  maxClicks: string;
  tags: string;
  expiredUrl: string;
  forwardQuery: boolean;
  utm: Record<UtmField, string>;
  rules: RuleDraft[];
  variants: VariantDraft[];
}

export const emptyRule = (): RuleDraft => ({ url: '', country: '', device: '', os: '', language: '', query: '', after: '', before: '' });
export const emptyVariant = (): VariantDraft => ({ url: '', weight: '' });

export function emptyDraft(): LinkDraft {
  return {
    url: '',
    alias: '',
    domain: '',
    password: '',
    removePassword: false,
    expiresAmount: '',
    expiresUnit: 'days',
    removeExpiry: false,
    maxClicks: '',
    tags: '',
    expiredUrl: '',
    forwardQuery: false,
    utm: { source: '', medium: '', campaign: '', term: '', content: '' },
    rules: [],
    variants: [],
  };
}

const list = (values: readonly string[] | undefined) => (values ?? []).join(', ');
/** An ISO instant as a datetime-local field shows it (the browser's time zone). */
function localInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const offset = date.getTimezoneOffset() * 60_000;
  return new Date(date.getTime() - offset).toISOString().slice(0, 16);
}

function ruleDraftOf(rule: Rule): RuleDraft {
  const query = Object.entries(rule.when.query ?? {}).map(([name, value]) => (value === true ? name : `${name}=${value}`));
  return {
    url: rule.url,
    country: list(rule.when.country),
    device: list(rule.when.device),
    os: list(rule.when.os),
    language: list(rule.when.language),
    query: query.join(', '),
    after: localInput(rule.when.after),
    before: localInput(rule.when.before),
  };
}

/** The form of an existing link: its editable fields as they are now (a password is never shown, only replaced). */
export function draftOf(link: Link): LinkDraft {
  return {
    ...emptyDraft(),
    url: link.url ?? '',
    alias: link.alias ?? '',
    domain: link.domain,
    maxClicks: link.maxClicks === undefined ? '' : String(link.maxClicks),
    tags: list(link.tags),
    expiredUrl: link.expiredUrl ?? '',
    forwardQuery: link.forwardQuery === true,
    utm: { ...emptyDraft().utm, ...link.utm },
    rules: (link.rules ?? []).map(ruleDraftOf),
    variants: (link.variants ?? []).map((variant: Variant) => ({ url: variant.url, weight: String(variant.weight) })),
  };
}

/** Whole numbers become numbers; anything else goes as typed, for the API to say what is wrong with it. */
const numberOrText = (value: string): number | string => (/^-?\d{1,16}$/.test(value.trim()) ? Number(value) : value.trim());
const words = (value: string) => value.split(/[\s,]+/).filter(Boolean);
/** A datetime-local value as an instant; anything unreadable goes as typed. */
const instant = (value: string) => (Number.isNaN(new Date(value).getTime()) ? value : new Date(value).toISOString());

function queryCondition(text: string): Record<string, string | true> {
  return Object.fromEntries(
    text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const equals = part.indexOf('=');
        return equals === -1 ? [part, true] : [part.slice(0, equals).trim(), part.slice(equals + 1).trim()];
      }),
  );
}

function ruleOf(draft: RuleDraft): unknown {
  const when: Record<string, unknown> = {};
  for (const field of ['country', 'device', 'os', 'language'] as const) if (draft[field].trim()) when[field] = words(draft[field]);
  if (draft.query.trim()) when.query = queryCondition(draft.query);
  if (draft.after) when.after = instant(draft.after);
  if (draft.before) when.before = instant(draft.before);
  return { url: draft.url.trim(), when };
}

function utmOf(draft: LinkDraft): Partial<Record<UtmField, string>> | undefined {
  const utm = Object.fromEntries(UTM_FIELDS.filter((field) => draft.utm[field].trim()).map((field) => [field, draft.utm[field].trim()]));
  return Object.keys(utm).length > 0 ? utm : undefined;
}

const expiresIn = (draft: LinkDraft) => {
  const amount = numberOrText(draft.expiresAmount);
  return typeof amount === 'number' ? amount * EXPIRY_UNITS[draft.expiresUnit] : amount;
};

/** The creation request: only what the user filled in. */
export function creationOf(draft: LinkDraft): Record<string, unknown> {
  const request: Record<string, unknown> = { url: draft.url.trim() };
  if (draft.alias.trim()) request.alias = draft.alias.trim();
  if (draft.domain) request.domain = draft.domain;
  if (draft.password) request.password = draft.password;
  if (draft.expiresAmount.trim()) request.expiresIn = expiresIn(draft);
  if (draft.maxClicks.trim()) request.maxClicks = numberOrText(draft.maxClicks);
  if (draft.tags.trim()) request.tags = words(draft.tags);
  if (draft.expiredUrl.trim()) request.expiredUrl = draft.expiredUrl.trim();
  if (draft.forwardQuery) request.forwardQuery = true;
  const utm = utmOf(draft);
  if (utm) request.utm = utm;
  if (draft.rules.length > 0) request.rules = draft.rules.map(ruleOf);
  if (draft.variants.length > 0) request.variants = draft.variants.map((variant) => ({ url: variant.url.trim(), weight: numberOrText(variant.weight) }));
  return request;
}

/**
 * The edit request: the fields that differ from the link as loaded, a cleared one as null (the API's "remove").
 * Untouched fields are not sent, so an edit never rewrites what the user did not change.
 */
export function editOf(before: LinkDraft, after: LinkDraft): Record<string, unknown> {
  const created = creationOf(after);
  const was = creationOf(before);
  const edit: Record<string, unknown> = {};
  for (const field of ['url', 'maxClicks', 'tags', 'expiredUrl', 'utm', 'rules', 'variants'] as const) {
    if (JSON.stringify(created[field]) !== JSON.stringify(was[field])) edit[field] = created[field] ?? null;
  }
  if (after.forwardQuery !== before.forwardQuery) edit.forwardQuery = after.forwardQuery ? true : null;
  if (after.removePassword) edit.password = null;
  else if (after.password) edit.password = after.password;
  if (after.removeExpiry) edit.expiresIn = null;
  else if (after.expiresAmount.trim()) edit.expiresIn = expiresIn(after);
  return edit;
}
