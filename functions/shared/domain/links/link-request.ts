import * as z from 'zod/mini';
import { ALIAS_MAX_LENGTH, ALIAS_MIN_LENGTH, ALIAS_PATTERN } from './aliases';
import { InvalidRequest } from '../errors';
import { builtOnFirstUse, nullAsAbsent, parseOrRefuse } from '../request-parsing';
import { Messages, OwnMessages } from '../messages';
import { destination } from './destination-schema';
import { carriesSmartFields } from '../destinations/smart-link';
import type { SmartFieldParsers, SmartLinkPatch, SmartLinkRequest } from '../destinations/smart-link-request';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password';

export const MIN_EXPIRES_IN_SECONDS = 60;
/** Ten years: beyond it a date is a typo, and DynamoDB TTL stops deleting items older than five years past. */
export const MAX_EXPIRES_IN_SECONDS = 315_360_000;
export const MAX_CLICKS_LIMIT = 1_000_000_000;

/** Tags (issue 20): up to 10, each 1–32 letters, digits, `-` or `_`; stored lower-cased, repeats dropped. */
export const MAX_TAGS = 10;
export const TAG_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The spec's fields of a link, built on first use (request-parsing.ts): `request` is one link as both endpoints accept
 * it, `patch` the fields PATCH takes.
 */
const schemas = builtOnFirstUse(() => {
  const alias = z
    .string({ error: OwnMessages.fieldType('alias', 'string') })
    .check(z.minLength(ALIAS_MIN_LENGTH, Messages.aliasLength), z.maxLength(ALIAS_MAX_LENGTH, Messages.aliasLength), z.regex(ALIAS_PATTERN, OwnMessages.aliasCharacters));
  const password = z
    .string({ error: OwnMessages.fieldType('password', 'string') })
    .check(z.minLength(PASSWORD_MIN_LENGTH, Messages.passwordLength), z.maxLength(PASSWORD_MAX_LENGTH, Messages.passwordLength));
  const expiresIn = z
    .int({ error: OwnMessages.expiresInInvalid })
    .check(z.minimum(MIN_EXPIRES_IN_SECONDS, Messages.expiresInTooShort), z.maximum(MAX_EXPIRES_IN_SECONDS, OwnMessages.expiresInTooLarge));
  const tags = z.pipe(
    z.array(z.string({ error: OwnMessages.tagsInvalid }).check(z.regex(TAG_PATTERN, OwnMessages.tagsInvalid)), { error: OwnMessages.tagsInvalid }).check(z.maxLength(MAX_TAGS, OwnMessages.tagsInvalid)),
    z.transform((given: string[]) => [...new Set(given.map((tag) => tag.toLowerCase()))]),
  );
  const maxClicks = z
    .int({ error: OwnMessages.maxClicksInvalid })
    .check(z.minimum(1, OwnMessages.maxClicksInvalid), z.maximum(MAX_CLICKS_LIMIT, OwnMessages.maxClicksTooLarge));

  /**
   * One link as both endpoints accept it (spec 2.1 and 2.3). Fields are checked in spec order, so the first
   * problem found is the one reported; unknown fields are ignored. zod/mini keeps the bundle small (issue 6).
   */
  const request = z.object({
    url: destination(),
    alias: nullAsAbsent(alias),
    password: nullAsAbsent(password),
    expiresIn: nullAsAbsent(expiresIn),
    maxClicks: nullAsAbsent(maxClicks),
    /** The custom domain (issue 17): checked against the caller's domains when the link is stored (domains/link-domains.ts). */
    domain: nullAsAbsent(z.string({ error: OwnMessages.fieldType('domain', 'string') }).check(z.maxLength(1000, OwnMessages.domainParameter))),
    tags: nullAsAbsent(tags),
  });

  /**
   * PATCH /v2/links/{code}: the same fields with the same rules and messages, each optional; null removes an
   * expiry, a click limit, a password or a smart-link field, and `rules` or `variants` are replaced as a whole (a link
   * always has a destination(), and its code never changes).
   */
  const patch = z.object({
    url: z.optional(destination()),
    expiresIn: z.optional(z.nullable(expiresIn)),
    maxClicks: z.optional(z.nullable(maxClicks)),
    password: z.optional(z.nullable(password)),
    /** Replaces the link's tags; `null` or `[]` removes them. */
    tags: z.optional(z.nullable(tags)),
  });
  return { request, patch };
});

export const linkRequestSchema = () => schemas().request;
export const linkPatchSchema = () => schemas().patch;

/** Besides these, a request and an edit may carry the smart-link fields (destinations/smart-link-request.ts). */
export type LinkPatch = z.infer<ReturnType<typeof linkPatchSchema>> & Partial<SmartLinkPatch>;

export type LinkRequest = z.infer<ReturnType<typeof linkRequestSchema>> & Partial<SmartLinkRequest>;

/** The smart-link fields' parsers, a bundle of their own: needed only by requests that carry one of them. */
function smartParsers(parsers: SmartFieldParsers | undefined): SmartFieldParsers {
  if (!parsers) throw new Error('a request with smart-link fields was parsed without their parsers: load them first (carriesSmartFields)');
  return parsers;
}

const definedOnly = <T extends object>(fields: T): T => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;

/** The bundle's answer as this side's: its fields as parsed, or this side's 400 with its message. */
function accepted<T>(result: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!result.ok) throw new InvalidRequest(result.message);
  return definedOnly(result.value as object) as T;
}

/** The spec's fields first, in spec order, then the smart-link ones: the first problem found is reported. */
export function parseLinkRequest(input: unknown, smart?: SmartFieldParsers): LinkRequest {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new InvalidRequest(OwnMessages.itemNotObject);
  }
  const request = parseOrRefuse(linkRequestSchema(), input);
  return carriesSmartFields(input, false) ? { ...request, ...accepted(smartParsers(smart).request(input)) } : request;
}

/**
 * An edit must change something: an empty body, or one of unknown fields only, is refused. `alias` is the one
 * creation field a PATCH cannot take (the code is the link), so it is refused by name rather than ignored.
 */
export function parseLinkPatch(input: object, smart?: SmartFieldParsers): LinkPatch {
  if ('alias' in input) throw new InvalidRequest(OwnMessages.aliasUnchangeable);
  const spec = parseOrRefuse(linkPatchSchema(), input);
  const patch: LinkPatch = carriesSmartFields(input, true) ? { ...spec, ...accepted(smartParsers(smart).patch(input)) } : spec;
  if (Object.values(patch).every((value) => value === undefined)) throw new InvalidRequest(OwnMessages.patchEmpty);
  return patch;
}
