import type { ApiKeyCaller } from '../accounts/caller';
import type { Plan } from './plans';
import { monthlyCallLimit } from './plans';
import type { UsageCounter } from '../ports';
import { monthlyQuotaCounter, type RateLimitStatus } from './rate-limits';
import { calendarMonth } from './usage-windows';

/** GET /v2/usage: the account's month (shared by all its keys) and this key's minute window. */
export interface UsageReport {
  accountId: string;
  plan: Plan;
  monthlyLimit: number | null;
  used: number;
  remaining: number | null;
  resetDate: string;
  rateLimit: { limit: number; remaining: number; reset: number };
}

/** `used` includes the call asking, which the quota has just counted; uncapped plans are not metered (0). */
export async function usageReport(caller: ApiKeyCaller, rateLimit: RateLimitStatus, usage: UsageCounter, nowMs: number): Promise<UsageReport> {
  const monthlyLimit = monthlyCallLimit(caller.plan, caller.monthlyLimitOverride);
  const used = monthlyLimit === null ? 0 : await usage.current(monthlyQuotaCounter(caller.accountId, nowMs));
  return {
    accountId: caller.accountId,
    plan: caller.plan,
    monthlyLimit,
    used,
    remaining: monthlyLimit === null ? null : Math.max(0, monthlyLimit - used),
    resetDate: calendarMonth(nowMs).resetDate,
    rateLimit: { limit: rateLimit.limit, remaining: rateLimit.remaining, reset: rateLimit.resetsAt },
  };
}
