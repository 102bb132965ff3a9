import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { InvalidRequest } from '../domain/errors';
import { OwnMessages } from '../domain/messages';
import { builtOnFirstUse } from '../domain/request-parsing';
import { header } from './headers';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency-terms';

/** 1–255 printable ASCII characters: room for a UUID, a hash or a client's own scheme, nothing that needs escaping. */
export const idempotencyKeySchema = builtOnFirstUse(() => z.string().check(z.regex(/^[\x20-\x7e]{1,255}$/, OwnMessages.idempotencyKeyInvalid)));

/** The request's Idempotency-Key, undefined without one; a malformed one is a 400 naming the header. */
export function idempotencyKeyOf(event: Pick<APIGatewayProxyEvent, 'headers'>): string | undefined {
  const value = header(event, IDEMPOTENCY_KEY_HEADER);
  if (value === undefined) return undefined;
  if (!idempotencyKeySchema().safeParse(value).success) throw new InvalidRequest(OwnMessages.idempotencyKeyInvalid);
  return value;
}
