import type { Caller } from '../accounts/caller';
import { QuotaExceeded, RateLimited } from '../errors';
import { monthlyCallLimit } from './plans';
import type { UsageCounter } from '../ports';
import { calendarMonth, fixedWindow, secondsUntil } from './usage-windows';

/** Spec section 8, plus the password-form guard (per link and client IP). */
export const RATE_LIMITS = {
  perApiKey: { requests: 1000, windowSeconds: 60 },
  perAnonymousIp: { requests: 5, windowSeconds: 60 },
  passwordAttempts: { requests: 10, windowSeconds: 15 * 60 },
  /**
   * Wrong passwords per link from all addresses together: past it every visitor waits for the window to end, so
   * that many addresses cannot share the work of guessing a short password either.
   */
  wrongPasswordsPerLink: { requests: 100, windowSeconds: 15 * 60 },
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
 * Counts one call against the caller's per-minute window and (for API keys) its account's monthly quota: one
 * conditional increment each, so concurrent calls can never overshoot. The two are sent side by side, one round
 * trip instead of two; a call the minute window refuses gives its quota unit back, so it costs no quota.
 */
export async function admitCall(caller: Caller, counter: UsageCounter, nowMs: number): Promise<RateLimitStatus> {
  const [minute, quota] = await Promise.allSettled([admitToMinuteWindow(caller, counter, nowMs), consumeMonthlyCall(caller, counter, nowMs)]);
  if (minute.status === 'rejected') {
    if (quota.status === 'fulfilled' && quota.value.kind === 'counted') await counter.release(quota.value.counterId);
    throw minute.reason;
  }
  if (quota.status === 'rejected') throw quota.reason;
  refuseOverQuota(quota.value, minute.value);
  return minute.value;
}

export async function admitToMinuteWindow(caller: Caller, counter: UsageCounter, nowMs: number): Promise<RateLimitStatus> {
  // A person outside any workspace (accepting an invitation) counts in the same window as their workspace requests.
  const rule = caller.kind === 'anonymous' ? RATE_LIMITS.perAnonymousIp : RATE_LIMITS.perApiKey;
  const subject = caller.kind === 'anonymous' ? `ip#${caller.client}` : `key#${caller.keyId}`;
  const window = fixedWindow(nowMs, rule.windowSeconds);
  const minute = await counter.tryConsume(`rate#${subject}#${window.id}`, rule.requests, window.resetsAt + COUNTER_GRACE_SECONDS);
  const status = { limit: rule.requests, remaining: Math.max(0, rule.requests - minute.count), resetsAt: window.resetsAt };
  if (!minute.consumed) throw new RateLimited(status, secondsUntil(window.resetsAt, nowMs));
  return status;
}

/**
 * Counts one call against the account's monthly quota (v1 callers have none). Kept apart from the minute window
 * so a replayed idempotent request, which does no work, is not counted again.
 */
export async function countMonthlyCall(caller: Caller, counter: UsageCounter, nowMs: number, status: RateLimitStatus): Promise<void> {
  refuseOverQuota(await consumeMonthlyCall(caller, counter, nowMs), status);
}

type MonthlyCall = { kind: 'unmetered' } | { kind: 'counted'; counterId: string } | { kind: 'refused'; limit: number; resetDate: string };

async function consumeMonthlyCall(caller: Caller, counter: UsageCounter, nowMs: number): Promise<MonthlyCall> {
  if (caller.kind !== 'apiKey') return { kind: 'unmetered' };
  // Uncapped plans are not metered: a write per call for a number no limit needs would slow every request.
  const limit = monthlyCallLimit(caller.plan, caller.monthlyLimitOverride);
  if (limit === null) return { kind: 'unmetered' };
  const month = calendarMonth(nowMs);
  const counterId = monthlyQuotaCounter(caller.accountId, nowMs);
  const quota = await counter.tryConsume(counterId, limit, month.resetsAt + COUNTER_GRACE_SECONDS);
  return quota.consumed ? { kind: 'counted', counterId } : { kind: 'refused', limit, resetDate: month.resetDate };
}

/** Calls counted for work not done after all, given back (an import whose job could not be stored). */
export type GiveBack = () => Promise<void>;

/**
 * Work worth `calls` calls (an import: one per 50 rows, as its rows sent through the batch route would cost), counted
 * after the request's own: refused whole, before any of it is counted, when the month has not that much left. What
 * it counted can be given back; a failure midway gives it back itself.
 */
export async function countMonthlyCalls(caller: Caller, counter: UsageCounter, nowMs: number, status: RateLimitStatus, calls: number): Promise<GiveBack> {
  const nothing: GiveBack = async () => undefined;
  if (caller.kind !== 'apiKey' || calls <= 0) return nothing;
  const limit = monthlyCallLimit(caller.plan, caller.monthlyLimitOverride);
  if (limit === null) return nothing;
  const month = calendarMonth(nowMs);
  const counterId = monthlyQuotaCounter(caller.accountId, nowMs);
  if ((await counter.current(counterId)) + calls > limit) throw new QuotaExceeded(limit, month.resetDate, status);
  let counted = 0;
  const giveBack: GiveBack = async () => {
    for (; counted > 0; counted -= 1) await counter.release(counterId);
  };
  try {
    for (let call = 0; call < calls; call += 1) if ((await counter.tryConsume(counterId, limit, month.resetsAt + COUNTER_GRACE_SECONDS)).consumed) counted += 1;
  } catch (error) {
    await giveBack();
    throw error;
  }
  return giveBack;
}

/** The quota's 429 carries the minute window's headers too. */
function refuseOverQuota(call: MonthlyCall, status: RateLimitStatus): void {
  if (call.kind === 'refused') throw new QuotaExceeded(call.limit, call.resetDate, status);
}

/** All keys of an account share one monthly quota (the per-minute window stays per key). */
export function monthlyQuotaCounter(accountId: string, nowMs: number): string {
  return `quota#acct#${accountId}#${calendarMonth(nowMs).id}`;
}

/**
 * Admits one password attempt, or returns the seconds to wait: the visitor's own attempts on this link (10 per
 * 15 minutes) and the link's wrong attempts from everyone (100 per 15 minutes). The link is named by its key
 * (links/link.ts `linkKey`): the same code on two domains is two links, with counters of their own. The attempt is
 * counted against the link's cap before the password is checked, so concurrent guesses cannot overshoot it; a right
 * password gives its unit back (forgivePasswordAttempt), so only wrong ones use the cap up.
 */
export async function admitPasswordAttempt(linkKey: string, client: string, counter: UsageCounter, nowMs: number): Promise<number | undefined> {
  const perVisitor = RATE_LIMITS.passwordAttempts;
  const visitorWindow = fixedWindow(nowMs, perVisitor.windowSeconds);
  const attempt = await counter.tryConsume(`pwd#${linkKey}#${client}#${visitorWindow.id}`, perVisitor.requests, visitorWindow.resetsAt + COUNTER_GRACE_SECONDS);
  if (!attempt.consumed) return secondsUntil(visitorWindow.resetsAt, nowMs);

  const perLink = RATE_LIMITS.wrongPasswordsPerLink;
  const linkWindow = fixedWindow(nowMs, perLink.windowSeconds);
  const wrong = await counter.tryConsume(linkPasswordCounter(linkKey, linkWindow.id), perLink.requests, linkWindow.resetsAt + COUNTER_GRACE_SECONDS);
  return wrong.consumed ? undefined : secondsUntil(linkWindow.resetsAt, nowMs);
}

/** The right password was given: its attempt does not count against the link's cap of wrong ones. */
export async function forgivePasswordAttempt(linkKey: string, counter: UsageCounter, nowMs: number): Promise<void> {
  await counter.release(linkPasswordCounter(linkKey, fixedWindow(nowMs, RATE_LIMITS.wrongPasswordsPerLink.windowSeconds).id));
}

function linkPasswordCounter(linkKey: string, windowId: string): string {
  return `pwdlink#${linkKey}#${windowId}`;
}
