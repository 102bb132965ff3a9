/**
 * When a failed delivery is tried again: the Standard Webhooks schedule after the first attempt, each step with
 * ±10 % jitter so a recovering endpoint is not hit by every pending event at the same instant.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000] as const;

/** The first attempt plus one per step. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** A receiver's Retry-After is honoured up to the schedule's longest step. */
const LONGEST_WAIT_MS = 86_400_000;

/**
 * Epoch ms of attempt `attempt + 1` after attempt `attempt` failed at `nowMs`, or undefined when it was the last.
 * `timeScale` compresses every wait (LOCAL_WEBHOOK_TIME_SCALE, tests only); `random` is [0, 1).
 */
export function nextAttemptAt(attempt: number, nowMs: number, options: { retryAfterMs?: number; timeScale: number; random: number }): number | undefined {
  const step = RETRY_DELAYS_MS[attempt - 1];
  if (step === undefined) return undefined;
  const jittered = step * (0.9 + 0.2 * options.random);
  const asked = Math.min(options.retryAfterMs ?? 0, LONGEST_WAIT_MS);
  return nowMs + Math.round(Math.max(jittered, asked) * options.timeScale);
}

/** RFC 9110's preferred HTTP date, the one form of a date Retry-After is read in: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Retry-After as whole seconds or an HTTP date, in ms from `nowMs`; anything else is ignored. */
export function retryAfterMs(header: string | undefined, nowMs: number): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d{1,9}$/.test(value)) return Number(value) * 1000;
  const at = HTTP_DATE.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
