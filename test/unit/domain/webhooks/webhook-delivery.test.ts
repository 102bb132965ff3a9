import type { LinkRecord } from '../../../../functions/shared/domain/links/link';
import type { AttemptOutcome, DeliveryTask } from '../../../../functions/shared/domain/webhooks/delivery';
import { MAX_CLICK_BACKLOG, signingSecrets, toWebhookView, type WebhookRecord } from '../../../../functions/shared/domain/webhooks/webhook';
import { ATTEMPTS_START_WITHIN_MS, deliverTasks, IN_FLIGHT_PER_WEBHOOK, type DeliveryDeps } from '../../../../functions/shared/domain/webhooks/webhook-delivery';
import { Webhook } from 'standardwebhooks';
import { MarkingSealer, MemoryDeliveryQueue, MemoryWebhookStore, webhookRecord } from '../../../support/in-memory-webhooks';

const nowMs = Date.parse('2026-11-24T12:00:00.000Z');

function setup(answer: AttemptOutcome = { status: 200, durationMs: 3 }, links: Record<string, LinkRecord> = {}) {
  const webhooks = new MemoryWebhookStore();
  const queue = new MemoryDeliveryQueue();
  const sent: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
  const deps: DeliveryDeps = {
    webhooks,
    queue,
    secrets: new MarkingSealer(),
    findLink: async (key) => links[key],
    shortBaseUrl: async () => 'https://sho.rt',
    send: async (url, headers, body) => {
      sent.push({ url, headers, body });
      return answer;
    },
    timeScale: 1,
    random: () => 0.5,
    now: () => nowMs,
  };
  return { webhooks, queue, sent, deps };
}

const deliverOne = async (task: DeliveryTask, deps: DeliveryDeps) => (await deliverTasks([task], deps))[0];

const taskFor = (webhookId: string, fields: Partial<DeliveryTask> = {}): DeliveryTask => ({
  webhookId,
  owner: 'acct:owner',
  event: { id: 'evt_1', type: 'link.created', timestamp: '2026-11-24T11:59:59.000Z', data: { shortCode: 'abc' } },
  attempt: 1,
  dueAt: nowMs,
  ...fields,
});

describe('delivering one task', () => {
  it('signs {type, timestamp, data} with the webhook\'s secrets and logs the attempt', async () => {
    const { webhooks, sent, deps } = setup();
    const webhook = webhookRecord();
    await webhooks.add(webhook, 10);
    expect(await deliverOne(taskFor(webhook.id), deps)).toBe('done');
    expect(sent).toHaveLength(1);
    const [delivery] = sent;
    expect(JSON.parse(delivery?.body ?? '')).toEqual({ type: 'link.created', timestamp: '2026-11-24T11:59:59.000Z', data: { shortCode: 'abc' } });
    expect(delivery?.headers['webhook-id']).toBe('evt_1');
    // The reference library's own signature for that id, instant and body (the instant is this test's, not today's).
    expect(delivery?.headers['webhook-signature']).toBe(new Webhook(webhook.secret).sign('evt_1', new Date(Number(delivery?.headers['webhook-timestamp']) * 1000), delivery?.body ?? ''));
    expect(webhooks.attempts.get(webhook.id)).toEqual([{ eventId: 'evt_1', event: 'link.created', attempt: 1, at: '2026-11-24T12:00:00.003Z', status: 200, durationMs: 3 }]);
    expect(webhooks.slots.get(webhook.id)).toBe(0);
  });

  it('signs with secrets it opens from their sealed form, and with one stored in the clear before sealing (issue 27)', async () => {
    const { webhooks, sent, deps } = setup();
    const legacy = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const rotatedTo = 'whsec_QUJDREVGR0hJSktMTU5PUFFSU1RVVldY';
    const webhook = webhookRecord();
    await webhooks.add({ ...webhook, secret: await deps.secrets.seal(rotatedTo, webhook.id), previousSecret: { secret: legacy, until: nowMs + 60_000 } }, 10);
    expect(await deliverOne(taskFor(webhook.id), deps)).toBe('done');
    const [delivery] = sent;
    const timestamp = new Date(Number(delivery?.headers['webhook-timestamp']) * 1000);
    const signatures = delivery?.headers['webhook-signature']?.split(' ');
    expect(signatures).toEqual([new Webhook(rotatedTo).sign('evt_1', timestamp, delivery?.body ?? ''), new Webhook(legacy).sign('evt_1', timestamp, delivery?.body ?? '')]);
  });

  it('sends an early task back to the queue untouched (the hops that make 24-hour waits on SQS)', async () => {
    const { webhooks, queue, sent, deps } = setup();
    const webhook = webhookRecord();
    await webhooks.add(webhook, 10);
    const early = taskFor(webhook.id, { attempt: 9, dueAt: nowMs + 20 * 3_600_000 });
    expect(await deliverOne(early, deps)).toBe('early');
    expect(queue.sent).toEqual([early]);
    expect(sent).toEqual([]);
  });

  it('drops the task of a deleted, disabled or unsubscribed webhook', async () => {
    const { webhooks, queue, sent, deps } = setup();
    const off = webhookRecord({ enabled: false });
    const unsubscribed = webhookRecord({ events: ['link.clicked'] });
    await webhooks.add(off, 10);
    await webhooks.add(unsubscribed, 10);
    for (const id of ['wh_deleted', off.id, unsubscribed.id]) expect(await deliverOne(taskFor(id), deps)).toBe('dropped');
    expect([sent, queue.sent]).toEqual([[], []]);
  });

  it('goes back to the queue, without spending an attempt or polling, until at most the end of the earliest lease (issue 27)', async () => {
    const { webhooks, queue, sent, deps } = setup();
    const webhook = webhookRecord();
    await webhooks.add(webhook, 10);
    webhooks.slots.set(webhook.id, IN_FLIGHT_PER_WEBHOOK);
    webhooks.busyUntil = nowMs + 21_000;
    expect(await deliverOne(taskFor(webhook.id), deps)).toBe('busy');
    expect([sent, webhooks.acquisitions]).toEqual([[], 1]);
    // 1 s at least, then half (random 0.5) of the 20 s left until a place is sure to be free.
    expect(queue.sent).toEqual([taskFor(webhook.id, { dueAt: nowMs + 11_000 })]);
    const spread = await Promise.all([0, 1].map(async (random) => {
      const again = setup();
      await again.webhooks.add(webhook, 10);
      again.webhooks.slots.set(webhook.id, IN_FLIGHT_PER_WEBHOOK);
      again.webhooks.busyUntil = nowMs + 21_000;
      await deliverOne(taskFor(webhook.id), { ...again.deps, random: () => random });
      return again.queue.sent[0]?.dueAt;
    }));
    expect(spread).toEqual([nowMs + 1_000, nowMs + 21_000]);
  });

  it('drops, unsent and counted, the clicks its backlog overtook: the oldest first, other events never (issue 27)', async () => {
    const { webhooks, sent, deps } = setup();
    const webhook = webhookRecord({ clickSeq: MAX_CLICK_BACKLOG + 2 });
    await webhooks.add(webhook, 10);
    const clicked = (clickSeq: number) => taskFor(webhook.id, { event: { id: `evt_click${clickSeq}`, type: 'link.clicked', timestamp: '', data: {} }, clickSeq });
    // 1 and 2 have 10,000 newer clicks queued behind them; 3 is the oldest the backlog keeps.
    const tasks = [clicked(1), clicked(2), clicked(3), taskFor(webhook.id), clicked(MAX_CLICK_BACKLOG + 2)];
    expect(await deliverTasks(tasks, deps)).toEqual(['dropped', 'dropped', 'done', 'done', 'done']);
    expect(sent.map((delivery) => delivery.headers['webhook-id'])).toEqual(['evt_click3', 'evt_1', `evt_click${MAX_CLICK_BACKLOG + 2}`]);
    expect(toWebhookView(webhooks.records.get(webhook.id) as WebhookRecord).droppedEvents).toBe(2);
  });

  it('retries a failure on the schedule and starts the failure streak; a success ends the streak', async () => {
    const failing = setup({ status: 502, durationMs: 10 });
    const webhook = webhookRecord();
    await failing.webhooks.add(webhook, 10);
    expect(await deliverOne(taskFor(webhook.id), failing.deps)).toBe('retry');
    expect(failing.queue.sent).toEqual([taskFor(webhook.id, { attempt: 2, dueAt: nowMs + 10 + 5_000 })]);
    expect(failing.webhooks.records.get(webhook.id)?.failingSince).toBe(nowMs + 10);

    const recovering = setup();
    await recovering.webhooks.add({ ...webhook, failingSince: nowMs - 60_000 }, 10);
    expect(await deliverOne(taskFor(webhook.id, { attempt: 2 }), recovering.deps)).toBe('done');
    expect(recovering.webhooks.records.get(webhook.id)?.failingSince).toBeUndefined();
  });

  it('turns the webhook off on 410 with the reason in its view, but not for a test of a webhook already off', async () => {
    const { webhooks, deps } = setup({ status: 410, durationMs: 1 });
    const webhook = webhookRecord();
    await webhooks.add(webhook, 10);
    expect(await deliverOne(taskFor(webhook.id), deps)).toBe('disable');
    expect(webhooks.records.get(webhook.id)).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone' });

    const test = taskFor(webhook.id, { event: { id: 'evt_t', type: 'webhook.test', timestamp: '', data: {} } });
    await webhooks.update(webhook.owner, webhook.id, { disabledReason: 'by its owner' });
    expect(await deliverOne(test, deps)).toBe('disable');
    expect(webhooks.records.get(webhook.id)?.disabledReason).toBe('by its owner');
  });

  it('reads a link again when its expiry is due: sent with its view then, dropped when the expiry moved', async () => {
    const expiresAt = '2026-11-24T11:59:00.000Z';
    const link: LinkRecord = { code: 'exp1', url: 'https://example.org/', isAlias: false, createdAt: '2026-11-24T11:00:00.000Z', clicks: 0, owner: 'acct:owner', expiresAt };
    const { webhooks, sent, deps } = setup(undefined, { exp1: link, moved: { ...link, code: 'moved', expiresAt: '2026-11-25T00:00:00.000Z' } });
    const webhook = webhookRecord({ events: ['link.expired'] });
    await webhooks.add(webhook, 10);
    const expiry = (key: string) => taskFor(webhook.id, { event: { id: `evt_${key}`, type: 'link.expired', timestamp: expiresAt, data: {} }, confirmExpiry: { key, expiresAt } });
    expect(await deliverOne(expiry('exp1'), deps)).toBe('done');
    expect(JSON.parse(sent[0]?.body ?? '').data).toMatchObject({ shortCode: 'exp1', status: 'expired', shortUrl: 'https://sho.rt/exp1' });
    expect(await deliverOne(expiry('moved'), deps)).toBe('dropped');
    expect(await deliverOne(expiry('deleted'), deps)).toBe('dropped');
  });

  it('delivers one webhook\'s tasks one after another in one place, a 410 on the way dropping the rest', async () => {
    const { webhooks, sent, deps } = setup();
    const webhook = webhookRecord();
    await webhooks.add(webhook, 10);
    const tasks = [1, 2, 3].map((index) => taskFor(webhook.id, { event: { id: `evt_${index}`, type: 'link.created', timestamp: '', data: {} } }));
    expect(await deliverTasks([...tasks, taskFor(webhook.id, { dueAt: nowMs + 60_000 })], deps)).toEqual(['done', 'done', 'done', 'early']);
    expect([webhooks.acquisitions, sent.map((delivery) => delivery.headers['webhook-id'])]).toEqual([1, ['evt_1', 'evt_2', 'evt_3']]);

    const gone = setup({ status: 410, durationMs: 1 });
    await gone.webhooks.add(webhook, 10);
    expect(await deliverTasks(tasks, gone.deps)).toEqual(['disable', 'dropped', 'dropped']);
    expect(gone.sent).toHaveLength(1);
  });

  it('reads the webhook again before each later attempt of a batch: a DELETE or a new URL holds from the next attempt on', async () => {
    const tasks = (webhook: WebhookRecord) => [1, 2, 3].map((index) => taskFor(webhook.id, { event: { id: `evt_${index}`, type: 'link.created', timestamp: '', data: {} } }));

    const deleted = setup();
    const doomed = webhookRecord();
    await deleted.webhooks.add(doomed, 10);
    const deleteDuringFirst = { ...deleted.deps, send: async (...args: Parameters<DeliveryDeps['send']>) => (await deleted.webhooks.remove(doomed.owner, doomed.id), deleted.deps.send(...args)) };
    expect(await deliverTasks(tasks(doomed), deleteDuringFirst)).toEqual(['done', 'dropped', 'dropped']);
    expect(deleted.sent).toHaveLength(1);

    const moved = setup();
    const hook = webhookRecord();
    await moved.webhooks.add(hook, 10);
    const moveDuringFirst = {
      ...moved.deps,
      send: async (...args: Parameters<DeliveryDeps['send']>) => (await moved.webhooks.update(hook.owner, hook.id, { url: 'https://new.example.org/in' }), moved.deps.send(...args)),
    };
    expect(await deliverTasks(tasks(hook), moveDuringFirst)).toEqual(['done', 'done', 'done']);
    expect(moved.sent.map((delivery) => delivery.url)).toEqual(['https://hooks.example.org/in', 'https://new.example.org/in', 'https://new.example.org/in']);
  });

  it('starts no attempt late in a batch: the rest go back to the queue, due at once, their attempt unspent', async () => {
    const { webhooks, queue, sent, deps } = setup();
    const webhook = webhookRecord();
    await webhooks.add(webhook, 10);
    let clock = nowMs;
    const slow = { ...deps, now: () => clock, send: async (...args: Parameters<DeliveryDeps['send']>) => ((clock += ATTEMPTS_START_WITHIN_MS + 1), deps.send(...args)) };
    const tasks = [1, 2, 3].map((index) => taskFor(webhook.id, { event: { id: `evt_${index}`, type: 'link.created', timestamp: '', data: {} } }));
    expect(await deliverTasks(tasks, slow)).toEqual(['done', 'busy', 'busy']);
    expect(sent).toHaveLength(1);
    expect(queue.sent).toEqual(tasks.slice(1).map((task) => ({ ...task, dueAt: clock })));
    expect(webhooks.slots.get(webhook.id)).toBe(0);
  });

  it('signs with both secrets within a day of a rotation, the new one only after', () => {
    const rotated = webhookRecord({ previousSecret: { secret: 'whsec_b2xk', until: nowMs + 1 } });
    expect(signingSecrets(rotated, nowMs)).toEqual([rotated.secret, 'whsec_b2xk']);
    expect(signingSecrets(rotated, nowMs + 1)).toEqual([rotated.secret]);
  });
});
