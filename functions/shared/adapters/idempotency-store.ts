import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyPersistenceLayerError,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import { IDEMPOTENCY_TTL_SECONDS, IDEMPOTENT_REPLAYED_HEADER } from '../http/idempotency-terms';
import type { HttpResponse } from '../http/responses';
import { dynamoPlain } from './clients';

/** Names the records of both creation functions alike (see the makeIdempotent call). */
const IDEMPOTENCY_KEY_PREFIX = 'creations';

/**
 * What Powertools hashes: `key` (the caller's scope and their Idempotency-Key) names the record, `payload` (the
 * route and the body, passwords replaced by keyed hashes) must match.
 */
interface KeyedRequest {
  key: string;
  payload: unknown;
}

/** An answer that is not a success: passed on to the client, never stored, so a corrected retry can run. */
class NotStored extends Error {
  constructor(readonly response: HttpResponse) {
    super('not a success');
  }
}

/**
 * How a keyed request ended. This module is a bundle of its own, loaded with the first keyed request (see
 * creation-handler.ts), so it answers with plain values: error classes are not shared across bundles. Whatever
 * `work` throws passes through as it was thrown.
 */
export type IdempotentOutcome =
  | { kind: 'answered'; response: HttpResponse }
  | { kind: 'reused' }
  | { kind: 'in-progress' }
  | { kind: 'store-unavailable'; cause: unknown };

/** `keep` says whether a success is worth replaying (a batch whose every item failed is not: fix the cause, retry). */
export type IdempotentRun = (
  key: string,
  payload: unknown,
  lambdaContext: Context,
  work: () => Promise<HttpResponse>,
  keep?: (response: HttpResponse) => boolean,
) => Promise<IdempotentOutcome>;

/**
 * Powertools for AWS Lambda's idempotency utility on its DynamoDB persistence layer: the first request with a
 * key writes an in-progress record (a conditional put), runs, and stores its answer for 24 hours; a repeat with
 * the same body gets that answer back marked `Idempotent-Replayed: true`, one with another body a 422, one while
 * the first still runs a 409. Failures and non-2xx answers delete the record instead of storing it.
 */
export function idempotencyStore(tableName: string): IdempotentRun {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'key',
    payloadValidationJmesPath: 'payload',
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
    hashFunction: 'sha256',
    responseHook: (response) => {
      const stored = response as unknown as HttpResponse;
      return { ...stored, headers: { ...stored.headers, [IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]: 'true' } } as never;
    },
  });
  const persistenceStore = new DynamoDBPersistenceLayer({ tableName, awsSdkV3Client: dynamoPlain() });
  const runOnce = makeIdempotent(
    async (_request: KeyedRequest, work: () => Promise<HttpResponse>, keep: (response: HttpResponse) => boolean) => {
      const response = await work();
      if (response.statusCode >= 300 || !keep(response)) throw new NotStored(response);
      return response;
    },
    // One prefix for both creation functions (Powertools' default is the function's name): a key used on
    // /v2/shorten and then on /v2/shorten/batch finds the first record, and the route in the payload makes it a 422.
    { persistenceStore, config, keyPrefix: IDEMPOTENCY_KEY_PREFIX },
  );

  return async (key, payload, lambdaContext, work, keep = () => true) => {
    // In-progress records expire with the invocation: a repeat after a crash runs again instead of waiting 24 h.
    config.registerLambdaContext(lambdaContext);
    try {
      return { kind: 'answered', response: await runOnce({ key, payload }, work, keep) };
    } catch (error) {
      if (error instanceof NotStored) return { kind: 'answered', response: error.response };
      if (error instanceof IdempotencyValidationError) return { kind: 'reused' };
      if (error instanceof IdempotencyAlreadyInProgressError) return { kind: 'in-progress' };
      if (error instanceof IdempotencyPersistenceLayerError) return { kind: 'store-unavailable', cause: error };
      throw error;
    }
  };
}
