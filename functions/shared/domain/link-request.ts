import { z } from 'zod';
import { ALIAS_MAX_LENGTH, ALIAS_MIN_LENGTH, ALIAS_PATTERN } from './aliases';
import { InvalidRequest } from './errors';
import { Messages, OwnMessages } from './messages';
import { isAcceptableDestination } from './url-policy';

export const PASSWORD_MIN_LENGTH = 4;
export const PASSWORD_MAX_LENGTH = 100;
export const MIN_EXPIRES_IN_SECONDS = 60;
/** Ten years: beyond it a date is a typo, and DynamoDB TTL stops deleting items older than five years past. */
export const MAX_EXPIRES_IN_SECONDS = 315_360_000;
export const MAX_CLICKS_LIMIT = 1_000_000_000;

/** Clients often send null for "not set"; treat it as absent rather than as a type error. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? undefined);

/**
 * One link as both endpoints accept it (spec 2.1 and 2.3). Fields are checked in spec order, so the first
 * problem found is the one reported; unknown fields are ignored.
 */
export const linkRequestSchema = z.object({
  url: z.string({ error: Messages.invalidUrl }).trim().refine(isAcceptableDestination, Messages.invalidUrl),
  alias: optional(
    z
      .string({ error: OwnMessages.fieldType('alias', 'string') })
      .min(ALIAS_MIN_LENGTH, Messages.aliasLength)
      .max(ALIAS_MAX_LENGTH, Messages.aliasLength)
      .regex(ALIAS_PATTERN, OwnMessages.aliasCharacters),
  ),
  password: optional(
    z
      .string({ error: OwnMessages.fieldType('password', 'string') })
      .min(PASSWORD_MIN_LENGTH, Messages.passwordLength)
      .max(PASSWORD_MAX_LENGTH, Messages.passwordLength),
  ),
  expiresIn: optional(
    z
      .number({ error: OwnMessages.expiresInInvalid })
      .int(OwnMessages.expiresInInvalid)
      .min(MIN_EXPIRES_IN_SECONDS, Messages.expiresInTooShort)
      .max(MAX_EXPIRES_IN_SECONDS, OwnMessages.expiresInTooLarge),
  ),
  maxClicks: optional(
    z
      .number({ error: OwnMessages.maxClicksInvalid })
      .int(OwnMessages.maxClicksInvalid)
      .min(1, OwnMessages.maxClicksInvalid)
      .max(MAX_CLICKS_LIMIT, OwnMessages.maxClicksTooLarge),
  ),
});

export type LinkRequest = z.infer<typeof linkRequestSchema>;

export function parseLinkRequest(input: unknown): LinkRequest {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new InvalidRequest(OwnMessages.itemNotObject);
  }
  const result = linkRequestSchema.safeParse(input);
  if (result.success) return result.data;
  throw new InvalidRequest(result.error.issues[0]?.message ?? Messages.invalidUrl);
}
