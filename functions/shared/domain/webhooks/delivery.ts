import type { OwnedEvent } from './link-events';
import { MAX_ATTEMPTS, nextAttemptAt } from './retry-schedule';
import { DISABLE_AFTER_FAILING_MS, MAX_CLICK_BACKLOG, type DeliveryAttempt, type WebhookEvent, type WebhookRecord } from './webhook';

/** One event for one webhook, on the delivery queue: the queue's message body. */
export interface DeliveryTask {
  webhookId: string;
  owner: string;
  event: WebhookEvent;
  /** 1 for the first attempt. */
  attempt: number;
  /** Epoch ms before which it is not attempted (retries, a link's expiry). */
  dueAt: number;
  confirmExpiry?: { key: string; expiresAt: string };
  /** A `link.clicked` task's number among the clicks queued for its webhook (the backlog's order). */
  clickSeq?: number;
}

/** The events each of the owner's webhooks asked for, one task each; a disabled webhook gets none. */
export function tasksFor(events: readonly OwnedEvent[], webhooks: readonly WebhookRecord[], nowMs: number): DeliveryTask[] {
  return events.flatMap(({ owner, id, type, timestamp, data, dueAt, confirmExpiry }) =>
    webhooks
      .filter((webhook) => webhook.owner === owner && webhook.enabled && webhook.events.includes(type))
      .map((webhook) => ({
        webhookId: webhook.id,
        owner,
        event: { id, type, timestamp, data },
        attempt: 1,
        dueAt: dueAt ?? nowMs,
        ...(confirmExpiry ? { confirmExpiry } : {}),
      })),
  );
}

/** Whether the webhook still wants the task when it is due: deleted, disabled or unsubscribed since, it does not. */
export function stillWanted(task: DeliveryTask, webhook: WebhookRecord | undefined): webhook is WebhookRecord {
  if (!webhook) return false;
  if (task.event.type === 'webhook.test') return true;
  return webhook.enabled && webhook.events.includes(task.event.type);
}

/** Whether a click task has MAX_CLICK_BACKLOG newer clicks queued behind it for its webhook: the backlog drops it. */
export function overtaken(task: DeliveryTask, webhook: Pick<WebhookRecord, 'clickSeq'>): boolean {
  return task.event.type === 'link.clicked' && task.clickSeq !== undefined && (webhook.clickSeq ?? 0) - task.clickSeq >= MAX_CLICK_BACKLOG;
}

/** What one attempt's HTTP exchange came to. */
export type AttemptOutcome = { status: number; retryAfterMs?: number; durationMs: number } | { error: string; durationMs: number };

export const succeeded = (outcome: AttemptOutcome) => 'status' in outcome && outcome.status >= 200 && outcome.status < 300;

/** What follows an attempt: nothing more, another attempt, or the webhook turned off. */
export type NextStep = { kind: 'done' } | { kind: 'retry'; task: DeliveryTask } | { kind: 'disable'; reason: string } | { kind: 'gaveUp' };

export const DISABLED_BY_GONE = 'The endpoint answered 410 Gone';
export const DISABLED_BY_FAILURES = 'Every delivery failed for 5 days';

/**
 * Success ends it; 410 turns the webhook off; a webhook failing since 5 days ago is turned off; otherwise the next
 * attempt on the schedule (Retry-After never sooner), until the tenth. `failingSince` is the streak before this one.
 */
export function nextStep(task: DeliveryTask, outcome: AttemptOutcome, failingSince: number | undefined, nowMs: number, options: { timeScale: number; random: number }): NextStep {
  if (succeeded(outcome)) return { kind: 'done' };
  if ('status' in outcome && outcome.status === 410) return { kind: 'disable', reason: DISABLED_BY_GONE };
  if (failingSince !== undefined && nowMs - failingSince >= DISABLE_AFTER_FAILING_MS * options.timeScale) return { kind: 'disable', reason: DISABLED_BY_FAILURES };
  const retryAfterMs = 'status' in outcome ? outcome.retryAfterMs : undefined;
  const dueAt = nextAttemptAt(task.attempt, nowMs, { ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), timeScale: options.timeScale, random: options.random });
  if (dueAt === undefined || task.attempt >= MAX_ATTEMPTS) return { kind: 'gaveUp' };
  return { kind: 'retry', task: { ...task, attempt: task.attempt + 1, dueAt } };
}

export function attemptRecord(task: DeliveryTask, outcome: AttemptOutcome, nowMs: number): DeliveryAttempt {
  return {
    eventId: task.event.id,
    event: task.event.type,
    attempt: task.attempt,
    at: new Date(nowMs).toISOString(),
    ...('status' in outcome ? { status: outcome.status } : { error: outcome.error }),
    durationMs: outcome.durationMs,
  };
}
