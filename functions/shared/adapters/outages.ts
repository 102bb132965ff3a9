import { EnvNames } from '../config';
import { DependencyUnavailable } from '../domain/errors';
import { DEPENDENCY_UNAVAILABLE_MESSAGE } from '../domain/messages';

/** On AWS: DynamoDB answers in milliseconds, so a second without an answer is a dependency in trouble, not a slow one. */
const CONNECTION_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 1_200;

/**
 * The local stack's limit instead, on connecting and on the answer alike (bin/local/stack.ts hands it to every
 * function as LOCAL_SDK_TIMEOUT_MS; never set on AWS). It is the emulator's queue that is slow, not an outage:
 * - DynamoDB Local listens with Java's default backlog of 50 connections. When a burst opens more at once, the
 *   kernel drops the extra SYNs and the client's retry comes after 1 s, AWS's whole connection timeout: 148 of 200
 *   simultaneous connects took 1.04 s against an idle DynamoDB Local (scratch probe).
 * - It runs writes one at a time, 2-4 ms each on the links table (its stream and three indexes), where DynamoDB
 *   spreads them over partitions: 200 concurrent visits of one maxClicks link took up to 1.2 s on a quiet 2-core
 *   machine, 2.1 s with four busy processes beside it.
 * At AWS's limits such bursts came back as 503s from loaded CI machines (issue 28's thirteenth pass).
 */
export const LOCAL_SDK_TIMEOUT_MS = 4_000;

/**
 * How long a DynamoDB or SSM call may take, from the process's environment. Two attempts (one retry, with the SDK's
 * jittered back-off) of at most 1.2 s each keep every answer of the service within about 3 s, instead of the SDK's
 * default of waiting forever.
 */
export function transportLimits(environment: Readonly<Record<string, string | undefined>>) {
  const localMs = Number(environment[EnvNames.localSdkTimeoutMs]);
  const local = localMs > 0;
  return {
    maxAttempts: 2,
    requestHandler: { connectionTimeout: local ? localMs : CONNECTION_TIMEOUT_MS, requestTimeout: local ? localMs : REQUEST_TIMEOUT_MS, throwOnRequestTimeout: true },
  };
}

export const TRANSPORT_LIMITS = transportLimits(process.env);

/** Error names the SDK gives answers that mean "the service cannot serve now", whatever their HTTP status. */
const OUTAGE_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'ThrottlingException',
  'ThrottledException',
  'TooManyRequestsException',
  'InternalServerError',
  'InternalFailure',
  'ServiceUnavailable',
]);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

interface SdkError {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

/** Timeouts, refused connections, throttling and 5xx answers: the dependency is down, the request was fine. */
export function isOutage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, $metadata } = error as SdkError;
  if ((name && OUTAGE_NAMES.has(name)) || (code && NETWORK_CODES.has(code))) return true;
  return ($metadata?.httpStatusCode ?? 0) >= 500;
}

interface ClientWithMiddleware {
  middlewareStack: {
    add(middleware: (next: (args: unknown) => Promise<unknown>) => (args: unknown) => Promise<unknown>, options: { step: 'initialize'; name: string }): void;
  };
}

/**
 * Turns an outage into DependencyUnavailable (answered 503 with Retry-After, never 500) at the outermost step of
 * the client, after the SDK's own retries; every other error (a failed condition, a bug) passes unchanged.
 */
export function reportOutages<Client>(client: Client): Client {
  (client as unknown as ClientWithMiddleware).middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        throw isOutage(error) ? new DependencyUnavailable(DEPENDENCY_UNAVAILABLE_MESSAGE, { cause: error }) : error;
      }
    },
    { step: 'initialize', name: 'reportOutages' },
  );
  return client;
}
