import { DynamoWebhookStore } from '../../functions/shared/adapters/dynamo-webhook-store';
import type { SlotLease } from '../../functions/shared/domain/ports';
import type { DeliveryTask } from '../../functions/shared/domain/webhooks/delivery';
import { MAX_CLICK_BACKLOG, toWebhookView, type DeliveryAttempt, type WebhookRecord } from '../../functions/shared/domain/webhooks/webhook';
import { deliverTasks, type DeliveryDeps } from '../../functions/shared/domain/webhooks/webhook-delivery';
import { StackOutputs } from '../../lib/stack-outputs';
import { MarkingSealer, MemoryDeliveryQueue, webhookRecord } from '../support/in-memory-webhooks';
import { dynamo, freshTables } from '../support/local-stack';

/** The webhook store's transactions, conditional updates, delivery log and in-flight places against DynamoDB Local. */
let store: DynamoWebhookStore;
const run = Date.now().toString(36);
const nowMs = Date.now();

beforeAll(async () => {
  const tables = await freshTables();
  store = new DynamoWebhookStore(dynamo(), tables[StackOutputs.webhooksTable] as string);
});

describe('webhooks of an account', () => {
  it('are at most the limit under concurrent creation, and a removal gives a place back', async () => {
    const owner = `acct:limit-${run}`;
    const results = await Promise.all(Array.from({ length: 14 }, (_, index) => store.add(webhookRecord({ owner, id: `wh_${run}l${index}` }), 10)));
    expect(results.filter((result) => result === 'added')).toHaveLength(10);
    expect(results.filter((result) => result === 'overLimit')).toHaveLength(4);
    const listed = await store.list(owner);
    expect(listed).toHaveLength(10);
    expect(await store.remove(owner, listed[0]?.id as string)).toBe(true);
    expect(await store.remove(owner, listed[0]?.id as string)).toBe(false);
    expect(await store.add(webhookRecord({ owner, id: `wh_${run}again` }), 10)).toBe('added');
  });

  it('are found only under their owner, and come back as stored', async () => {
    const record = webhookRecord({ owner: `acct:own-${run}`, id: `wh_${run}own`, description: 'Ünïcode ✓ 🚀' });
    await store.add(record, 10);
    expect(await store.find(record.owner, record.id)).toEqual(record);
    expect(await store.find(`acct:other-${run}`, record.id)).toBeUndefined();
    expect(await store.update(`acct:other-${run}`, record.id, { enabled: false })).toBeUndefined();
  });

  it('change field by field, null removing one, and not at all once gone', async () => {
    const record = webhookRecord({ owner: `acct:edit-${run}`, id: `wh_${run}edit` });
    await store.add(record, 10);
    const off = await store.update(record.owner, record.id, { enabled: false, disabledReason: 'The endpoint answered 410 Gone', events: ['link.deleted'] });
    expect(off).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone', events: ['link.deleted'], url: record.url });
    expect(await store.markFailing(record.owner, record.id, nowMs)).toBe(nowMs);
    // A streak keeps its start.
    expect(await store.markFailing(record.owner, record.id, nowMs + 5_000)).toBe(nowMs);
    const on = await store.update(record.owner, record.id, { enabled: true, disabledReason: null, failingSince: null });
    expect(on).not.toHaveProperty('disabledReason');
    expect(on).not.toHaveProperty('failingSince');
    await store.remove(record.owner, record.id);
    expect(await store.update(record.owner, record.id, { enabled: true })).toBeUndefined();
    expect(await store.markFailing(record.owner, record.id, nowMs)).toBeUndefined();
  });
});

describe('the delivery log', () => {
  it('lists attempts newest first in pages, refusing a cursor that is not one', async () => {
    const webhookId = `wh_${run}log`;
    for (let attempt = 1; attempt <= 5; attempt++) {
      const record: DeliveryAttempt = { eventId: 'evt_x', event: 'link.created', attempt, at: new Date(nowMs + attempt).toISOString(), ...(attempt === 5 ? { status: 200 } : { error: 'timeout: no answer within 10 s' }), durationMs: attempt };
      await store.recordAttempt(webhookId, record);
    }
    const first = await store.deliveries(webhookId, 2);
    expect(first?.items.map((item) => item.attempt)).toEqual([5, 4]);
    expect(first?.items[0]).toEqual({ eventId: 'evt_x', event: 'link.created', attempt: 5, at: new Date(nowMs + 5).toISOString(), status: 200, durationMs: 5 });
    const second = await store.deliveries(webhookId, 2, first?.next);
    const third = await store.deliveries(webhookId, 2, second?.next);
    expect([second?.items.map((item) => item.attempt), third?.items.map((item) => item.attempt)]).toEqual([[3, 2], [1]]);
    expect(await store.deliveries(webhookId, 2, 'bm9wZQ')).toBeUndefined();
    expect(await store.deliveries(webhookId, 2, Buffer.from('["x","y"]').toString('base64url'))).toBeUndefined();
  });
});

describe('the click backlog (issue 27)', () => {
  it('numbers clicks exactly under concurrent producers, drops the overtaken ones unsent and shows the count', async () => {
    const record = webhookRecord({ owner: `acct:backlog-${run}`, id: `wh_${run}backlog` });
    await store.add(record, 10);
    const totals = await Promise.all(Array.from({ length: 20 }, () => store.countQueuedClicks(record.owner, record.id, 3)));
    expect([new Set(totals).size, Math.max(...(totals as number[]))]).toEqual([20, 60]);
    // An owner's edit leaves the count alone; a stranger's id counts nothing.
    await store.update(record.owner, record.id, { description: 'edited' });
    expect(await store.countQueuedClicks(`acct:other-${run}`, record.id, 1)).toBeUndefined();
    expect(await store.countQueuedClicks(record.owner, record.id, MAX_CLICK_BACKLOG)).toBe(60 + MAX_CLICK_BACKLOG);

    const sent: string[] = [];
    const deps: DeliveryDeps = {
      webhooks: store,
      queue: new MemoryDeliveryQueue(),
      secrets: new MarkingSealer(),
      findLink: async () => undefined,
      shortBaseUrl: async () => 'https://sho.rt',
      send: async (_url, headers) => {
        sent.push(headers['webhook-id'] as string);
        return { status: 200, durationMs: 1 };
      },
      timeScale: 1,
      random: () => 0.5,
      now: () => nowMs,
    };
    const clicked = (clickSeq: number): DeliveryTask => ({
      webhookId: record.id,
      owner: record.owner,
      event: { id: `evt_${run}c${clickSeq}`, type: 'link.clicked', timestamp: new Date(nowMs).toISOString(), data: {} },
      attempt: 1,
      dueAt: nowMs,
      clickSeq,
    });
    expect(await deliverTasks([clicked(1), clicked(60), clicked(61), clicked(60 + MAX_CLICK_BACKLOG)], deps)).toEqual(['dropped', 'dropped', 'done', 'done']);
    expect(sent).toEqual([`evt_${run}c61`, `evt_${run}c${60 + MAX_CLICK_BACKLOG}`]);
    const stored = (await store.find(record.owner, record.id)) as WebhookRecord;
    expect([toWebhookView(stored).droppedEvents, stored.description]).toEqual([2, 'edited']);
  });
});

describe('in-flight places', () => {
  const slotOf = (place: Awaited<ReturnType<DynamoWebhookStore['acquireSlot']>>) => ('slot' in place ? place.slot : undefined);

  it('are never more than asked for under concurrency, free on release, and free themselves when a lease runs out', async () => {
    const webhookId = `wh_${run}slots`;
    const taken = await Promise.all(Array.from({ length: 12 }, () => store.acquireSlot(webhookId, 5, nowMs, nowMs + 30_000)));
    const granted = taken.filter((place): place is SlotLease => 'slot' in place);
    expect(granted.map((place) => place.slot).sort()).toEqual([0, 1, 2, 3, 4]);
    await store.releaseSlot(webhookId, granted.find((place) => place.slot === 3) as SlotLease);
    expect(slotOf(await store.acquireSlot(webhookId, 5, nowMs, nowMs + 30_000))).toBe(3);
    // All taken: the answer says when the earliest lease ends, so the task waits that long at most instead of polling.
    expect(await store.acquireSlot(webhookId, 5, nowMs, nowMs + 30_000)).toEqual({ busyUntil: nowMs + 30_000 });
    // A deliverer that died holding one: its lease runs out.
    expect(slotOf(await store.acquireSlot(webhookId, 5, nowMs + 30_001, nowMs + 60_000))).toEqual(expect.any(Number));
  });

  it('are released only by the lease that holds them: a late release leaves the next holder\'s place alone (issue 27)', async () => {
    const webhookId = `wh_${run}late`;
    const slow = (await store.acquireSlot(webhookId, 1, nowMs, nowMs + 30_000)) as SlotLease;
    // The slow deliverer's lease runs out; another takes the place.
    const next = (await store.acquireSlot(webhookId, 1, nowMs + 30_001, nowMs + 60_000)) as SlotLease;
    expect([slow.slot, next.slot]).toEqual([0, 0]);
    await store.releaseSlot(webhookId, slow);
    expect(await store.acquireSlot(webhookId, 1, nowMs + 30_002, nowMs + 60_000)).toEqual({ busyUntil: nowMs + 60_000 });
    await store.releaseSlot(webhookId, next);
    expect(slotOf(await store.acquireSlot(webhookId, 1, nowMs + 30_003, nowMs + 60_000))).toBe(0);
  });
});
