import type { LinkRecord } from '../links/link';
import { toLinkView } from '../links/link';
import type { DeliveryQueue, WebhookStore } from '../ports';
import { attemptRecord, nextStep, stillWanted, succeeded, type AttemptOutcome, type DeliveryTask, type NextStep } from './delivery';
import { stillExpiresAt } from './link-events';
import { signedHeaders } from './signing';
import { signingSecrets } from './webhook';

/** At most this many deliveries to one webhook at once: one busy endpoint takes no more of the deliverer than this. */
export const IN_FLIGHT_PER_WEBHOOK = 5;
/** A place is held this long at most (the 10 s timeout and margin): a deliverer that dies frees it by expiry. */
const SLOT_LEASE_MS = 30_000;
/** A task that finds every place taken looks again this often, this many times, before going back to the queue. */
const BUSY_POLL_MS = 50;
const BUSY_POLLS = 40;
/** ...where it waits about this long (not counted as an attempt). */
const BUSY_WAIT_MS = 1_000;

export interface DeliveryDeps {
  webhooks: WebhookStore;
  queue: DeliveryQueue;
  /** The link a due link.expired names, read again when it is due. */
  findLink: (key: string) => Promise<LinkRecord | undefined>;
  shortBaseUrl: () => Promise<string>;
  send: (url: string, headers: Record<string, string>, body: string) => Promise<AttemptOutcome>;
  timeScale: number;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * One of the webhook's places, waiting up to 2 s for one to free: tasks of a busy webhook in the same batch follow
 * each other rather than going round the queue. Tasks of other webhooks in the batch are not held up meanwhile.
 */
async function placeInFlight(webhookId: string, nowMs: number, deps: DeliveryDeps): Promise<number | undefined> {
  for (let poll = 0; ; poll++) {
    const at = nowMs + poll * BUSY_POLL_MS;
    const slot = await deps.webhooks.acquireSlot(webhookId, IN_FLIGHT_PER_WEBHOOK, at, at + SLOT_LEASE_MS);
    if (slot !== undefined || poll >= BUSY_POLLS) return slot;
    await deps.sleep(BUSY_POLL_MS);
  }
}

export type TaskResult = 'early' | 'dropped' | 'busy' | NextStep['kind'];

/**
 * One task off the queue. Early ones go back until due (SQS holds a message 15 minutes at most); tasks of a deleted,
 * disabled or unsubscribed webhook are dropped; otherwise one signed attempt, logged, followed by what the result
 * calls for. Anything that throws leaves the message on the queue, to be tried again: at least once.
 */
export async function deliverTask(task: DeliveryTask, nowMs: number, deps: DeliveryDeps): Promise<TaskResult> {
  if (task.dueAt > nowMs) {
    await deps.queue.send([task], nowMs);
    return 'early';
  }
  const webhook = await deps.webhooks.find(task.owner, task.webhookId);
  if (!stillWanted(task, webhook)) return 'dropped';
  let event = task.event;
  if (task.confirmExpiry) {
    const link = await deps.findLink(task.confirmExpiry.key);
    if (!stillExpiresAt(link, task.confirmExpiry.expiresAt)) return 'dropped';
    event = { ...event, data: toLinkView(link, await deps.shortBaseUrl(), nowMs) };
  }
  const slot = await placeInFlight(webhook.id, nowMs, deps);
  if (slot === undefined) {
    await deps.queue.send([{ ...task, dueAt: nowMs + Math.round(BUSY_WAIT_MS * (1 + deps.random())) }], nowMs);
    return 'busy';
  }
  const body = JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
  let outcome: AttemptOutcome;
  try {
    outcome = await deps.send(webhook.url, signedHeaders(signingSecrets(webhook, nowMs), event.id, nowMs, body), body);
  } finally {
    await deps.webhooks.releaseSlot(webhook.id, slot);
  }
  const doneAt = nowMs + outcome.durationMs;
  await deps.webhooks.recordAttempt(webhook.id, attemptRecord(task, outcome, doneAt));
  const ok = succeeded(outcome);
  if (ok && webhook.failingSince !== undefined) await deps.webhooks.update(webhook.owner, webhook.id, { failingSince: null });
  const failingSince = ok ? undefined : await deps.webhooks.markFailing(webhook.owner, webhook.id, doneAt);
  const step = nextStep(task, outcome, failingSince, doneAt, { timeScale: deps.timeScale, random: deps.random() });
  if (step.kind === 'retry') await deps.queue.send([step.task], doneAt);
  // A test of a disabled webhook does not count against it.
  if (step.kind === 'disable' && webhook.enabled) await deps.webhooks.update(webhook.owner, webhook.id, { enabled: false, disabledReason: step.reason });
  return step.kind;
}
