import { queueEvents } from '../../../../functions/shared/domain/webhooks/event-fanout';
import type { OwnedEvent } from '../../../../functions/shared/domain/webhooks/link-events';
import { MemoryDeliveryQueue, MemoryWebhookStore, webhookRecord } from '../../../support/in-memory-webhooks';

const nowMs = Date.parse('2026-11-24T12:00:00.000Z');
const click = (index: number, owner = 'acct:owner'): OwnedEvent => ({ owner, id: `evt_c${index}`, type: 'link.clicked', timestamp: '2026-11-24T11:59:59.000Z', data: { code: 'abc' } });
const created: OwnedEvent = { owner: 'acct:owner', id: 'evt_n', type: 'link.created', timestamp: '2026-11-24T11:59:59.000Z', data: {} };

describe('queueing events for webhooks (issue 27: the click backlog)', () => {
  it('numbers each webhook\'s clicks in the order they are queued, batch after batch; other events carry no number', async () => {
    const webhooks = new MemoryWebhookStore();
    const queue = new MemoryDeliveryQueue();
    const first = webhookRecord();
    const second = webhookRecord();
    await webhooks.add(first, 10);
    await webhooks.add(second, 10);
    expect(await queueEvents([click(1), created, click(2)], { webhooks, queue }, nowMs)).toBe(6);
    await queueEvents([click(3)], { webhooks, queue }, nowMs);
    const numbers = (id: string) => queue.sent.filter((task) => task.webhookId === id).map((task) => [task.event.id, task.clickSeq]);
    expect(numbers(first.id)).toEqual([['evt_c1', 1], ['evt_n', undefined], ['evt_c2', 2], ['evt_c3', 3]]);
    expect(numbers(second.id)).toEqual(numbers(first.id));
    expect(webhooks.records.get(first.id)?.clickSeq).toBe(3);
  });

  it('queues no click for a webhook deleted between the read and its count', async () => {
    class DeletedMeanwhile extends MemoryWebhookStore {
      override async countQueuedClicks(): Promise<number | undefined> {
        return undefined;
      }
    }
    const webhooks = new DeletedMeanwhile();
    const queue = new MemoryDeliveryQueue();
    await webhooks.add(webhookRecord(), 10);
    expect(await queueEvents([click(1), created], { webhooks, queue }, nowMs)).toBe(1);
    expect(queue.sent.map((task) => task.event.id)).toEqual(['evt_n']);
  });
});
