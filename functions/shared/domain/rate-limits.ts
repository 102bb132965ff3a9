import type { Caller } from './caller';
import { QuotaExceeded, RateLimited } from './errors';
import { monthlyCallLimit } from './plans';
import type { UsageCounter } from './ports';
import { calendarMonth, fixedWindow, secondsUntil } from './usage-windows';

/** Spec section 8, plus the password-form guard (per short code and client IP). */
export const RATE_LIMITS = {
  perApiKey: { requests: 1000, windowSeconds: 60 },
  perAnonymousIp: { requests: 5, windowSeconds: 60 },
  passwordAttempts: { requests: 10, windowSeconds: 15 * 60 },
} as const;

/** Counters outlive their window a little so that a slow clock never resurrects one. */
const COUNTER_GRACE_SECONDS = 60;

export interface RateLimitStatus {
  limit: number;
  remaining: number;
  /** Epoch seconds at which the current window ends. */
  resetsAt: number;
}

/**
 * Counts one call against the caller's per-minute window, then (for API keys) its monthly quota: one
 * conditional increment each, so concurrent calls can never overshoot. A call refused by the minute window
 * does not reach the quota.
 */
export async function admitCall(caller: Caller, counter: UsageCounter, nowMs: number): Promise<RateLimitStatus> {
  const rule = caller.kind === 'apiKey' ? RATE_LIMITS.perApiKey : RATE_LIMITS.perAnonymousIp;
  const subject = caller.kind === 'apiKey' ? `key#${caller.keyId}` : `ip#${caller.clientIp}`;
  const window = fixedWindow(nowMs, rule.windowSeconds);
  const minute = await counter.tryConsume(`rate#${subject}#${window.id}`, rule.requests, window.resetsAt + COUNTER_GRACE_SECONDS);
  const status = { limit: rule.requests, remaining: Math.max(0, rule.requests - minute.count), resetsAt: window.resetsAt };
  if (!minute.consumed) throw new RateLimited(status, secondsUntil(window.resetsAt, nowMs));

  if (caller.kind === 'apiKey') {
    const limit = monthlyCallLimit(caller.plan, caller.monthlyLimitOverride);
    if (limit !== null) {
      const month = calendarMonth(nowMs);
      const quota = await counter.tryConsume(`quota#${subject}#${month.id}`, limit, month.resetsAt + COUNTER_GRACE_SECONDS);
      if (!quota.consumed) throw new QuotaExceeded(limit, month.resetDate, status);
    }
  }
  return status;
}

/** Counts one password attempt; returns the seconds to wait when the visitor has used up the window's attempts. */
export async function admitPasswordAttempt(code: string, clientIp: string, counter: UsageCounter, nowMs: number): Promise<number | undefined> {
  const rule = RATE_LIMITS.passwordAttempts;
  const window = fixedWindow(nowMs, rule.windowSeconds);
  const attempt = await counter.tryConsume(`pwd#${code}#${clientIp}#${window.id}`, rule.requests, window.resetsAt + COUNTER_GRACE_SECONDS);
  return attempt.consumed ? undefined : secondsUntil(window.resetsAt, nowMs);
}
