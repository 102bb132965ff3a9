import type { DeliveryQueue, WebhookStore } from '../ports';
import { tasksFor, type DeliveryTask } from './delivery';
import type { OwnedEvent } from './link-events';
import type { WebhookRecord } from './webhook';

/**
 * Numbers each webhook's click tasks in its sequence of clicks queued (one counter update per webhook per batch),
 * so the deliverer can tell which fell behind its backlog; a webhook deleted meanwhile gets none of them.
 */
async function numberClicks(tasks: readonly DeliveryTask[], webhooks: Pick<WebhookStore, 'countQueuedClicks'>): Promise<DeliveryTask[]> {
  const clicks = new Map<string, DeliveryTask[]>();
  for (const task of tasks) {
    if (task.event.type !== 'link.clicked') continue;
    const key = `${task.owner}\u0000${task.webhookId}`;
    clicks.set(key, [...(clicks.get(key) ?? []), task]);
  }
  const numbered = new Map<DeliveryTask, DeliveryTask | undefined>();
  await Promise.all(
    [...clicks.values()].map(async (group) => {
      const first = group[0] as DeliveryTask;
      const last = await webhooks.countQueuedClicks(first.owner, first.webhookId, group.length);
      group.forEach((task, index) => numbered.set(task, last === undefined ? undefined : { ...task, clickSeq: last - group.length + 1 + index }));
    }),
  );
  return tasks.flatMap((task) => (numbered.has(task) ? (numbered.get(task) ?? []) : [task]));
}

/** Addresses each event to its owner's webhooks that asked for it (one read per owner) and queues them; the count queued. */
export async function queueEvents(events: readonly OwnedEvent[], deps: { webhooks: WebhookStore; queue: DeliveryQueue }, nowMs: number): Promise<number> {
  if (events.length === 0) return 0;
  const owners = [...new Set(events.map((event) => event.owner))];
  const webhooks = (await Promise.all(owners.map((owner) => deps.webhooks.list(owner)))).flat();
  return queueTasks(events, webhooks, deps, nowMs);
}

/** Queues the events for the given webhooks (their owners' already read); the count queued. */
export async function queueTasks(
  events: readonly OwnedEvent[],
  webhooks: readonly WebhookRecord[],
  deps: { webhooks: Pick<WebhookStore, 'countQueuedClicks'>; queue: DeliveryQueue },
  nowMs: number,
): Promise<number> {
  const tasks = await numberClicks(tasksFor(events, webhooks, nowMs), deps.webhooks);
  if (tasks.length > 0) await deps.queue.send(tasks, nowMs);
  return tasks.length;
}
