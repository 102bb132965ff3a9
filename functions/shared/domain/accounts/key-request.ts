import * as z from 'zod/mini';
import { OwnMessages } from '../messages';
import { builtOnFirstUse, nullAsAbsent } from '../request-parsing';
import { SCOPES } from './permissions';

/** A key's name, counted in characters (code points): non-ASCII names are as long as they look. */
export const MAX_KEY_NAME_LENGTH = 100;
/**
 * The furthest a key's expiry may be set: a year. A key that must outlive that is made again, which is also when
 * its scopes get looked at again; without `expiresAt` a key lasts until revoked.
 */
export const MAX_KEY_LIFETIME_DAYS = 365;
/** Live (not revoked) keys per workspace: the listing answers them all at once, and nobody needs more. */
export const MAX_KEYS_PER_WORKSPACE = 100;

const nameMessage = OwnMessages.keyName(MAX_KEY_NAME_LENGTH);
const scopesMessage = OwnMessages.keyScopes(SCOPES);

/** POST /v2/keys. */
export const keyRequestSchema = builtOnFirstUse(() => {
  /** Control characters would break the CLI's and the operators' tab-separated lines, and mean nothing in a name. */
  const name = z
    .string({ error: nameMessage })
    .check(
      z.trim(),
      z.refine((text) => text.length > 0 && [...text].length <= MAX_KEY_NAME_LENGTH, nameMessage),
      z.refine((text) => !/\p{Cc}/u.test(text), nameMessage),
    );

  const scopes = z
    .array(z.enum(SCOPES, { error: scopesMessage }), { error: scopesMessage })
    .check(
      z.minLength(1, scopesMessage),
      z.maxLength(SCOPES.length, scopesMessage),
      z.refine((chosen) => new Set(chosen).size === chosen.length, scopesMessage),
    );

  /** Any offset is accepted; the key stores the instant in UTC. Its range is checked against now (keyExpiry). */
  const expiresAt = z.pipe(
    z.iso.datetime({ offset: true, error: OwnMessages.keyExpiresAt(MAX_KEY_LIFETIME_DAYS) }),
    z.transform((value: string) => new Date(value).toISOString()),
  );

  return z.object({ name, scopes, expiresAt: z.optional(nullAsAbsent(expiresAt)) });
});

export type KeyRequest = z.output<ReturnType<typeof keyRequestSchema>>;

/** In the future, at most MAX_KEY_LIFETIME_DAYS ahead; undefined when out of range. */
export function keyExpiry(expiresAt: string, nowMs: number): string | undefined {
  const at = Date.parse(expiresAt);
  return at > nowMs && at <= nowMs + MAX_KEY_LIFETIME_DAYS * 86_400_000 ? expiresAt : undefined;
}
