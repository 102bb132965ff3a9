import { DependencyUnavailable } from '../domain/errors';
import { DEPENDENCY_UNAVAILABLE_MESSAGE } from '../domain/messages';

/**
 * How long a DynamoDB or SSM call may take: DynamoDB answers in milliseconds, so a second without an answer is a
 * dependency in trouble, not a slow one. Two attempts (one retry, with the SDK's jittered back-off) of at most
 * 1.2 s each keep every answer of the service within about 3 s, instead of the SDK's default of waiting forever.
 */
export const TRANSPORT_LIMITS = {
  maxAttempts: 2,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 1_200, throwOnRequestTimeout: true },
};

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
