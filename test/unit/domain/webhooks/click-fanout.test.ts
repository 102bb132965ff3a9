import type { Click } from '../../../../functions/shared/domain/analytics/click';
import { ClickFanout, LINK_OWNER_MS, QUIET_ACCOUNT_MS } from '../../../../functions/shared/domain/webhooks/click-fanout';
import { MemoryDeliveryQueue, MemoryWebhookStore, webhookRecord } from '../../../support/in-memory-webhooks';

/** Issue 28: link.clicked costs nothing for accounts that take no clicks, and still reaches those that do. */
const startMs = Date.parse('2026-11-25T12:00:00.000Z');
const click = (code: string): Click => ({ code, at: new Date(startMs).toISOString(), country: 'DE', referrer: 'direct', device: 'desktop', counted: false });

function fanoutWith(owners: Record<string, string>) {
  const webhooks = new MemoryWebhookStore();
  const queue = new MemoryDeliveryQueue();
  const reads = { owners: 0, webhooks: 0 };
  const fanout = new ClickFanout({
    ownerOf: async (key) => {
      reads.owners += 1;
      return owners[key];
    },
    webhooks: {
      list: (owner) => {
        reads.webhooks += 1;
        return webhooks.list(owner);
      },
      countQueuedClicks: (owner, id, count) => webhooks.countQueuedClicks(owner, id, count),
    },
    queue,
  });
  return { fanout, webhooks, queue, reads };
}

describe('link.clicked from the aggregator', () => {
  it('reads a quiet account once per quiet time: its hot links then cost no owner read and no webhooks query', async () => {
    const { fanout, queue, reads } = fanoutWith({ hot: 'acct:quiet', other: 'acct:quiet', anon: 'anonymous' });
    expect(await fanout.queue([click('hot'), click('hot'), click('anon')], 'delivery-1', startMs)).toBe(0);
    expect(reads).toEqual({ owners: 2, webhooks: 1 });
    for (let i = 2; i <= 5; i += 1) await fanout.queue([click('hot'), click('anon')], `delivery-${i}`, startMs + i * 1_000);
    expect(reads).toEqual({ owners: 2, webhooks: 1 });
    // Another link of the quiet account costs its owner read, not a second query.
    await fanout.queue([click('other')], 'delivery-6', startMs + 6_000);
    expect(reads).toEqual({ owners: 3, webhooks: 1 });
    expect(queue.sent).toEqual([]);
  });

  it('once the quiet time is over, asks again once per account, not once per link', async () => {
    const { fanout, reads } = fanoutWith({ a: 'acct:quiet', b: 'acct:quiet', c: 'acct:quiet' });
    const clicks = [click('a'), click('b'), click('c')];
    await fanout.queue(clicks, 'delivery-1', startMs);
    expect(reads).toEqual({ owners: 3, webhooks: 1 });
    await fanout.queue(clicks, 'delivery-2', startMs + QUIET_ACCOUNT_MS);
    expect(reads).toEqual({ owners: 3, webhooks: 2 });
    await fanout.queue(clicks, 'delivery-3', startMs + LINK_OWNER_MS);
    expect(reads).toEqual({ owners: 6, webhooks: 3 });
  });

  it('counts an account whose webhooks take no clicks (disabled, or other events) as quiet', async () => {
    const { fanout, webhooks, reads } = fanoutWith({ a: 'acct:a' });
    await webhooks.add(webhookRecord({ owner: 'acct:a', enabled: false }), 10);
    await webhooks.add(webhookRecord({ owner: 'acct:a', events: ['link.created'] }), 10);
    await fanout.queue([click('a')], 'delivery-1', startMs);
    await fanout.queue([click('a')], 'delivery-2', startMs + 1_000);
    expect(reads).toEqual({ owners: 1, webhooks: 1 });
  });

  it('queues every click of an account that takes them, reading its owners and webhooks on every delivery', async () => {
    const { fanout, webhooks, queue, reads } = fanoutWith({ hot: 'acct:hooked' });
    const hook = webhookRecord({ owner: 'acct:hooked' });
    await webhooks.add(hook, 10);
    expect(await fanout.queue([click('hot'), click('hot')], 'delivery-1', startMs)).toBe(2);
    expect(await fanout.queue([click('hot')], 'delivery-2', startMs + 1_000)).toBe(1);
    expect(reads).toEqual({ owners: 2, webhooks: 2 });
    // Numbered in the webhook's click sequence, as every click task is (the deliverer's backlog reads it).
    expect(queue.sent.map((task) => [task.webhookId, task.event.type, task.clickSeq])).toEqual([
      [hook.id, 'link.clicked', 1],
      [hook.id, 'link.clicked', 2],
      [hook.id, 'link.clicked', 3],
    ]);
  });

  it('sends clicks to a webhook added to a quiet account once the quiet time is over', async () => {
    const { fanout, webhooks, queue } = fanoutWith({ hot: 'acct:late' });
    await fanout.queue([click('hot')], 'delivery-1', startMs);
    await webhooks.add(webhookRecord({ owner: 'acct:late' }), 10);
    expect(await fanout.queue([click('hot')], 'delivery-2', startMs + QUIET_ACCOUNT_MS - 1)).toBe(0);
    expect(await fanout.queue([click('hot')], 'delivery-3', startMs + QUIET_ACCOUNT_MS)).toBe(1);
    expect(queue.sent[0]?.owner).toBe('acct:late');
  });

  it('never sends an alias re-created by another account to the first account\'s webhooks', async () => {
    const owners: Record<string, string> = { taken: 'acct:first' };
    const { fanout, webhooks, queue } = fanoutWith(owners);
    const first = webhookRecord({ owner: 'acct:first' });
    const second = webhookRecord({ owner: 'acct:second' });
    await webhooks.add(first, 10);
    await webhooks.add(second, 10);
    await fanout.queue([click('taken')], 'delivery-1', startMs);
    owners.taken = 'acct:second'; // deleted by the first account, then created again by the second
    await fanout.queue([click('taken')], 'delivery-2', startMs + 1_000);
    expect(queue.sent.map((task) => task.webhookId)).toEqual([first.id, second.id]);
  });
});
