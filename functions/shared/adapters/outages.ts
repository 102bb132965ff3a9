import { EnvNames } from '../config';
import { DependencyUnavailable } from '../domain/errors';
import { DEPENDENCY_UNAVAILABLE_MESSAGE } from '../domain/messages';

/** DynamoDB answers in milliseconds, so a second without an answer is a dependency in trouble, not a slow one. */
export const REQUEST_TIMEOUT_MS = 1_200;

/**
 * The local stack's limit instead (bin/local/stack.ts hands it to every function as LOCAL_REQUEST_TIMEOUT_MS; never
 * set on AWS). DynamoDB Local is one JVM that runs every write in turn, 2-4 ms each on the links table (its stream
 * and three indexes), where DynamoDB spreads them over partitions: 200 concurrent visits of one maxClicks link
 * took up to 1.2 s on a quiet 2-core machine and up to 2.1 s with four busy processes beside it (scratch runs), and at
 * 1.2 s such bursts came back as 503s from loaded CI machines. That is the emulator's queue, not an outage.
 */
export const LOCAL_REQUEST_TIMEOUT_MS = 4_000;

const localRequestTimeoutMs = Number(process.env[EnvNames.localRequestTimeoutMs]);

/**
 * How long a DynamoDB or SSM call may take. Two attempts (one retry, with the SDK's jittered back-off) of at most
 * 1.2 s each keep every answer of the service within about 3 s, instead of the SDK's default of waiting forever.
 */
export const TRANSPORT_LIMITS = {
  maxAttempts: 2,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: localRequestTimeoutMs > 0 ? localRequestTimeoutMs : REQUEST_TIMEOUT_MS, throwOnRequestTimeout: true },
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
