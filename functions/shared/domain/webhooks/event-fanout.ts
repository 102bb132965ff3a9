import type { DeliveryQueue, WebhookStore } from '../ports';
import { tasksFor } from './delivery';
import type { OwnedEvent } from './link-events';

/** Addresses each event to its owner's webhooks that asked for it (one read per owner) and queues them; the count queued. */
export async function queueEvents(events: readonly OwnedEvent[], deps: { webhooks: WebhookStore; queue: DeliveryQueue }, nowMs: number): Promise<number> {
  if (events.length === 0) return 0;
  const owners = [...new Set(events.map((event) => event.owner))];
  const webhooks = (await Promise.all(owners.map((owner) => deps.webhooks.list(owner)))).flat();
  const tasks = tasksFor(events, webhooks, nowMs);
  if (tasks.length > 0) await deps.queue.send(tasks, nowMs);
  return tasks.length;
}
