/**
 * fetch that tries again after a 429 or a 503 the server says to wait out, and after a failed connection:
 * at most `maxRetries` more times, never waiting longer than `maxDelayMs` at once, each wait stretched by a
 * random part of a second so many clients told the same Retry-After do not all come back in the same instant.
 * A 429 without Retry-After (the monthly quota, whose wait is `resetDate`) is returned at once.
 */
export interface RetryPolicy {
  maxRetries: number;
  maxDelayMs: number;
  /** Waits this long; tests pass a recorder. */
  sleep: (ms: number) => Promise<void>;
  /** A number in [0, 1), for the jitter. */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  maxDelayMs: 30_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

const JITTER_MS = 1_000;
/** Waits after a failed connection, doubling: 0.5 s, 1 s, 2 s… */
const CONNECTION_RETRY_BASE_MS = 500;

function retryAfterMs(response: Response): number | undefined {
  if (response.status !== 429 && response.status !== 503) return undefined;
  const header = response.headers.get('retry-after');
  if (header === null) return response.status === 503 ? CONNECTION_RETRY_BASE_MS : undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function retryingFetch(policy: RetryPolicy = DEFAULT_RETRY_POLICY, fetchOnce: (request: Request) => Promise<Response> = fetch) {
  return async (request: Request): Promise<Response> => {
    for (let attempt = 0; ; attempt += 1) {
      // Each attempt sends its own copy: a body can be read once.
      const copy = request.clone();
      let wait: number | undefined;
      try {
        const response = await fetchOnce(copy);
        wait = attempt < policy.maxRetries ? retryAfterMs(response) : undefined;
        if (wait === undefined || wait > policy.maxDelayMs) return response;
        await response.body?.cancel();
      } catch (error) {
        if (attempt >= policy.maxRetries) throw error;
        wait = CONNECTION_RETRY_BASE_MS * 2 ** attempt;
      }
      await policy.sleep(Math.min(policy.maxDelayMs, wait + policy.random() * JITTER_MS));
    }
  };
}
