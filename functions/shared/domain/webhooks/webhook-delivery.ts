import type { LinkRecord } from '../links/link';
import { toLinkView } from '../links/link';
import type { DeliveryQueue, SecretSealer, WebhookStore } from '../ports';
import { attemptRecord, nextStep, overtaken, stillWanted, succeeded, type AttemptOutcome, type DeliveryTask, type NextStep } from './delivery';
import { stillExpiresAt } from './link-events';
import { signedHeaders } from './signing';
import { signingSecrets, type WebhookRecord } from './webhook';

/** At most this many deliveries to one webhook at once: one busy endpoint takes no more of the deliverer than this. */
export const IN_FLIGHT_PER_WEBHOOK = 5;
/** A place is held this long at most (the 10 s timeout and margin): a deliverer that dies frees it by expiry. */
const SLOT_LEASE_MS = 30_000;
/** A task that finds every place taken goes back to the queue for at least this long (not counted as an attempt)... */
const BUSY_WAIT_MS = 1_000;
/**
 * A batch starts no attempt later than this after it began (the rest go back to the queue, due at once): with a
 * 10 s attempt it ends within the deliverer's 30 s, and within its place's lease.
 */
export const ATTEMPTS_START_WITHIN_MS = 12_000;

export interface DeliveryDeps {
  webhooks: WebhookStore;
  queue: DeliveryQueue;
  secrets: SecretSealer;
  /** The link a due link.expired names, read again when it is due. */
  findLink: (key: string) => Promise<LinkRecord | undefined>;
  shortBaseUrl: () => Promise<string>;
  send: (url: string, headers: Record<string, string>, body: string) => Promise<AttemptOutcome>;
  timeScale: number;
  random: () => number;
  now: () => number;
}

/**
 * ...and at most until the earliest lease of the places ends, when one is sure to be free: spread over that span so
 * a busy webhook's tasks do not all come back at once. No polling: a busy webhook costs one conditional write per place.
 */
function busyDueAt(nowMs: number, busyUntil: number, random: number): number {
  return nowMs + BUSY_WAIT_MS + Math.round(Math.max(0, busyUntil - nowMs - BUSY_WAIT_MS) * random);
}

export type TaskResult = 'early' | 'dropped' | 'busy' | NextStep['kind'];

/** A task's event as it goes out: a due link.expired carries the link as it is then, or is dropped (undefined). */
async function eventToSend(task: DeliveryTask, nowMs: number, deps: DeliveryDeps): Promise<DeliveryTask['event'] | undefined> {
  if (!task.confirmExpiry) return task.event;
  const link = await deps.findLink(task.confirmExpiry.key);
  if (!stillExpiresAt(link, task.confirmExpiry.expiresAt)) return undefined;
  return { ...task.event, data: toLinkView(link, await deps.shortBaseUrl(), nowMs) };
}

/** One signed attempt, logged, then what its result calls for (a retry queued, the webhook's streak or switch). */
async function attempt(task: DeliveryTask, webhook: WebhookRecord, deps: DeliveryDeps): Promise<TaskResult> {
  const nowMs = deps.now();
  const event = await eventToSend(task, nowMs, deps);
  if (!event) return 'dropped';
  const body = JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
  const secrets = await Promise.all(signingSecrets(webhook, nowMs).map((stored) => deps.secrets.open(stored, webhook.id)));
  const outcome = await deps.send(webhook.url, signedHeaders(secrets, event.id, nowMs, body), body);
  const doneAt = nowMs + outcome.durationMs;
  await deps.webhooks.recordAttempt(webhook.id, attemptRecord(task, outcome, doneAt));
  // The failure streak as this attempt leaves it: a success ends it, a failure starts it unless one runs.
  let failingSince = webhook.failingSince;
  if (succeeded(outcome) && failingSince !== undefined) {
    await deps.webhooks.update(webhook.owner, webhook.id, { failingSince: null });
    failingSince = undefined;
  }
  if (!succeeded(outcome) && failingSince === undefined) failingSince = await deps.webhooks.markFailing(webhook.owner, webhook.id, doneAt);
  const step = nextStep(task, outcome, failingSince, doneAt, { timeScale: deps.timeScale, random: deps.random() });
  if (step.kind === 'retry') await deps.queue.send([step.task], doneAt);
  // A test of a disabled webhook does not count against it.
  if (step.kind === 'disable' && webhook.enabled) await deps.webhooks.update(webhook.owner, webhook.id, { enabled: false, disabledReason: step.reason });
  return step.kind;
}

/**
 * One webhook's tasks off the queue, one after another in one of its in-flight places. Early ones go back until due
 * (SQS holds a message 15 minutes at most); tasks of a deleted, disabled or unsubscribed webhook are dropped (a 410
 * on the way drops the rest), and so are clicks its backlog overtook (counted on the webhook). Each result is the
 * task's, or the error that leaves its message on the queue, to be tried again: at least once.
 */
export async function deliverTasks(tasks: readonly DeliveryTask[], deps: DeliveryDeps): Promise<Array<TaskResult | Error>> {
  const results = new Map<DeliveryTask, TaskResult | Error>();
  const startedAt = deps.now();
  const early = tasks.filter((task) => task.dueAt > startedAt);
  if (early.length > 0) await deps.queue.send(early, startedAt);
  for (const task of early) results.set(task, 'early');
  const due = tasks.filter((task) => task.dueAt <= startedAt);
  const first = due[0];
  const webhook = first ? await deps.webhooks.find(first.owner, first.webhookId) : undefined;
  let behind = 0;
  const wanted = due.filter((task) => {
    const keep = task.webhookId === first?.webhookId && task.owner === first.owner && stillWanted(task, webhook);
    const late = keep && overtaken(task, webhook ?? {});
    if (late) behind += 1;
    if (!keep || late) results.set(task, 'dropped');
    return keep && !late;
  });
  if (webhook && behind > 0) await deps.webhooks.countDropped(webhook.owner, webhook.id, behind);
  if (webhook && wanted.length > 0) {
    const at = deps.now();
    const place = await deps.webhooks.acquireSlot(webhook.id, IN_FLIGHT_PER_WEBHOOK, at, at + SLOT_LEASE_MS);
    if ('busyUntil' in place) {
      const later = busyDueAt(at, place.busyUntil, deps.random());
      await deps.queue.send(wanted.map((task) => ({ ...task, dueAt: later })), at);
      for (const task of wanted) results.set(task, 'busy');
    } else {
      try {
        for (const [index, task] of wanted.entries()) {
          if (index > 0 && deps.now() - startedAt > ATTEMPTS_START_WITHIN_MS) {
            const rest = wanted.slice(index);
            await deps.queue.send(rest.map((later) => ({ ...later, dueAt: deps.now() })), deps.now());
            for (const later of rest) results.set(later, 'busy');
            break;
          }
          try {
            // Read again before every attempt but the first: a DELETE, a new URL or a secret expired since the
            // batch began (up to 12 s ago) holds from the next attempt on, never signed or sent with the old one.
            const current = index === 0 ? webhook : await deps.webhooks.find(task.owner, task.webhookId);
            if (!current || !stillWanted(task, current)) {
              results.set(task, 'dropped');
              continue;
            }
            results.set(task, await attempt(task, current, deps));
          } catch (error) {
            results.set(task, error instanceof Error ? error : new Error(String(error)));
          }
        }
      } finally {
        await deps.webhooks.releaseSlot(webhook.id, place);
      }
    }
  }
  return tasks.map((task) => results.get(task) as TaskResult | Error);
}
