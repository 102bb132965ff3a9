import * as z from 'zod/mini';
import { destination } from '../links/destination-schema';
import { OwnMessages } from '../messages';
import countries from './countries.json';
import { nullAsAbsent, parsed } from '../request-parsing';
import { DEVICES, MAX_RULES, MAX_RULES_BYTES, OPERATING_SYSTEMS, SMART_FIELD_NAMES, UTM_FIELDS, VARIANT_COUNT, VARIANT_WEIGHT_TOTAL, type RuleConditions } from './smart-link';

/**
 * The smart-link fields of a link request (issue 18) as zod schemas. Their messages say what is wrong without
 * saying where: the field's path goes in front (`rules[2].when.country[0]: ...`), so every problem names its field
 * however deep it sits. The creation and link functions load this module as a bundle beside their own on the first
 * request that carries one of these fields (lib/service-stack.ts): most requests carry none, and the zod schemas it
 * needs cost a cold start ~8 ms (bench:cold-start).
 */
const COUNTRIES: ReadonlySet<string> = new Set(countries);
const MAX_CONDITION_VALUES = 250;
const MAX_QUERY_CONDITIONS = 20;

/** A strict object whose unknown fields are named in the answer. */
const strictObject = <T extends z.core.$ZodLooseShape>(shape: T, notAnObject: string, unknownField: (name: string) => string) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownField(String((issue as { keys?: string[] }).keys?.[0])) : notAnObject),
  });

/** A non-empty list without repeats, of at most `max` values. */
const conditionList = <T extends z.ZodMiniType<string>>(item: T, what: string, max = MAX_CONDITION_VALUES) =>
  z.pipe(
    z.array(item, { error: OwnMessages.conditionList(what) }).check(z.minLength(1, OwnMessages.conditionList(what)), z.maxLength(max, OwnMessages.conditionList(what))),
    z.transform((values: Array<z.output<T>>) => [...new Set(values)]),
  );

/** `pt-br` → `pt-BR`, `ZH-hant` → `zh-Hant`: the form the view shows, whatever case was sent. */
function canonicalLanguage(tag: string): string {
  return tag
    .split('-')
    .map((part, index) => (index === 0 ? part.toLowerCase() : part.length === 4 ? `${part[0]?.toUpperCase()}${part.slice(1).toLowerCase()}` : part.toUpperCase()))
    .join('-');
}

const country = z.string({ error: OwnMessages.countryUnknown }).check(z.trim(), z.toUpperCase(), z.refine((code) => COUNTRIES.has(code), OwnMessages.countryUnknown));
const language = z.pipe(
  z.string({ error: OwnMessages.languageInvalid }).check(z.trim(), z.regex(/^[a-z]{2,3}(-[a-z]{4})?(-([a-z]{2}|\d{3}))?$/i, OwnMessages.languageInvalid)),
  z.transform(canonicalLanguage),
);
const instant = z.pipe(
  z.iso.datetime({ offset: true, error: OwnMessages.instantInvalid }),
  z.transform((value: string) => new Date(value).toISOString()),
);
const queryCondition = z
  .record(
    z.string({ error: OwnMessages.queryCondition }).check(z.minLength(1, OwnMessages.queryCondition), z.maxLength(100, OwnMessages.queryCondition)),
    z.union([z.string().check(z.maxLength(1000, OwnMessages.queryCondition)), z.literal(true)], { error: OwnMessages.queryCondition }),
    { error: OwnMessages.queryCondition },
  )
  .check(z.refine((query) => Object.keys(query).length >= 1 && Object.keys(query).length <= MAX_QUERY_CONDITIONS, OwnMessages.queryCondition));

const conditions = strictObject(
  {
    country: z.optional(conditionList(country, 'ISO 3166-1 alpha-2 country codes')),
    device: z.optional(conditionList(z.enum(DEVICES, { error: OwnMessages.deviceUnknown }), 'devices: mobile, tablet, desktop')),
    os: z.optional(conditionList(z.enum(OPERATING_SYSTEMS, { error: OwnMessages.osUnknown }), 'operating systems: ios, android, windows, macos, linux, chromeos')),
    language: z.optional(conditionList(language, 'language tags such as de, pt or pt-BR', 50)),
    query: z.optional(queryCondition),
    after: z.optional(instant),
    before: z.optional(instant),
  },
  OwnMessages.conditionsObject,
  OwnMessages.conditionUnknown,
).check(
  z.refine((when: RuleConditions) => Object.values(when).some((value) => value !== undefined), OwnMessages.conditionsEmpty),
  z.refine((when: RuleConditions) => when.after === undefined || when.before === undefined || when.after < when.before, OwnMessages.windowEmpty),
);

const rule = strictObject({ url: destination(), when: conditions }, OwnMessages.rulesList, () => OwnMessages.ruleFields);

const variant = strictObject(
  { url: destination(), weight: z.int({ error: OwnMessages.variantWeight }).check(z.minimum(1, OwnMessages.variantWeight), z.maximum(VARIANT_WEIGHT_TOTAL - 1, OwnMessages.variantWeight)) },
  OwnMessages.variantsList,
  () => OwnMessages.variantFields,
);

const utmValue = z.string({ error: OwnMessages.utmValue }).check(z.trim(), z.minLength(1, OwnMessages.utmValue), z.maxLength(200, OwnMessages.utmValue));

const fields = {
  rules: z
    .array(rule, { error: OwnMessages.rulesList })
    .check(
      z.minLength(1, OwnMessages.rulesList),
      z.maxLength(MAX_RULES, OwnMessages.rulesList),
      z.refine((rules) => new TextEncoder().encode(JSON.stringify(rules)).length <= MAX_RULES_BYTES, OwnMessages.rulesSize(MAX_RULES_BYTES)),
    ),
  variants: z
    .array(variant, { error: OwnMessages.variantsList })
    .check(
      z.minLength(VARIANT_COUNT.min, OwnMessages.variantsList),
      z.maxLength(VARIANT_COUNT.max, OwnMessages.variantsList),
      z.refine((variants) => variants.reduce((total, { weight }) => total + weight, 0) === VARIANT_WEIGHT_TOTAL, OwnMessages.variantWeightsTotal),
    ),
  forwardQuery: z.boolean({ error: OwnMessages.forwardQueryType }),
  utm: strictObject(Object.fromEntries(UTM_FIELDS.map((field) => [field, z.optional(utmValue)])) as Record<(typeof UTM_FIELDS)[number], z.ZodMiniOptional<typeof utmValue>>, OwnMessages.utmObject, () => OwnMessages.utmObject).check(
    z.refine((utm) => Object.values(utm).some((value) => value !== undefined), OwnMessages.utmObject),
  ),
  expiredUrl: destination(),
};

/** The fields on creation (null: absent) and in an edit (null: removed), for the requests and the OpenAPI document. */
export const smartLinkRequestShape = {
  rules: nullAsAbsent(fields.rules),
  variants: nullAsAbsent(fields.variants),
  forwardQuery: nullAsAbsent(fields.forwardQuery),
  utm: nullAsAbsent(fields.utm),
  expiredUrl: nullAsAbsent(fields.expiredUrl),
};
export const smartLinkPatchShape = {
  rules: z.optional(z.nullable(fields.rules)),
  variants: z.optional(z.nullable(fields.variants)),
  forwardQuery: z.optional(z.nullable(fields.forwardQuery)),
  utm: z.optional(z.nullable(fields.utm)),
  expiredUrl: z.optional(z.nullable(fields.expiredUrl)),
};

const requestSchema = z.object(smartLinkRequestShape);
const patchSchema = z.object(smartLinkPatchShape);
export type SmartLinkRequest = z.infer<typeof requestSchema>;
export type SmartLinkPatch = z.infer<typeof patchSchema>;

/**
 * What the bundle hands the functions: the two parsers, answering the problem (with the field's path in front)
 * rather than throwing it, since the bundle's error classes are its own copies, not the function's.
 */
export const smartFieldParsers = {
  request: (input: object) => parsed(requestSchema, input, SMART_FIELD_NAMES),
  patch: (input: object) => parsed(patchSchema, input, SMART_FIELD_NAMES),
};
export type SmartFieldParsers = typeof smartFieldParsers;
