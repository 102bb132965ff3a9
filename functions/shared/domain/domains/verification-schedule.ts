/**
 * When a pending domain is checked again: every 5 minutes for its first day (most owners add the DNS record within
 * minutes of asking), hourly after that, and after 7 days of checks it is `failed` until its owner re-verifies.
 */
export const FIRST_DAY_CHECK_EVERY_MS = 5 * 60_000;
export const LATER_CHECK_EVERY_MS = 60 * 60_000;
export const FIRST_DAY_MS = 24 * 60 * 60_000;
export const GIVE_UP_AFTER_MS = 7 * FIRST_DAY_MS;

export function nextCheckAt(checksStartedAtMs: number, nowMs: number): number {
  return nowMs + (nowMs - checksStartedAtMs < FIRST_DAY_MS ? FIRST_DAY_CHECK_EVERY_MS : LATER_CHECK_EVERY_MS);
}

export function checksExhausted(checksStartedAtMs: number, nowMs: number): boolean {
  return nowMs - checksStartedAtMs >= GIVE_UP_AFTER_MS;
}

/** An owner may ask for a check (POST …/verify) once a minute per domain: each can call CloudFront several times. */
export const MANUAL_CHECK_EVERY_MS = 60_000;
