import { attemptRecord, nextStep, stillWanted, tasksFor, DISABLED_BY_FAILURES, DISABLED_BY_GONE, type DeliveryTask } from '../../../../functions/shared/domain/webhooks/delivery';
import type { OwnedEvent } from '../../../../functions/shared/domain/webhooks/link-events';
import { webhookRecord } from '../../../support/in-memory-webhooks';

const nowMs = Date.parse('2026-11-24T12:00:00.000Z');
const options = { timeScale: 1, random: 0.5 };
const event = (fields: Partial<OwnedEvent> = {}): OwnedEvent => ({ owner: 'acct:owner', id: 'evt_1', type: 'link.created', timestamp: '2026-11-24T12:00:00.000Z', data: {}, ...fields });
const task = (fields: Partial<DeliveryTask> = {}): DeliveryTask => ({ webhookId: 'wh_1', owner: 'acct:owner', event: { id: 'evt_1', type: 'link.created', timestamp: '', data: {} }, attempt: 1, dueAt: nowMs, ...fields });

describe('addressing events', () => {
  it('one task per enabled webhook of the owner that asked for the event, due now or at the event\'s time', () => {
    const wants = webhookRecord({ events: ['link.created'] });
    const other = webhookRecord({ events: ['link.clicked'] });
    const off = webhookRecord({ events: ['link.created'], enabled: false });
    const elsewhere = webhookRecord({ owner: 'acct:other', events: ['link.created'] });
    const tasks = tasksFor([event(), event({ id: 'evt_2', type: 'link.expired', dueAt: nowMs + 5_000 })], [wants, other, off, elsewhere], nowMs);
    expect(tasks).toEqual([{ webhookId: wants.id, owner: 'acct:owner', event: { id: 'evt_1', type: 'link.created', timestamp: '2026-11-24T12:00:00.000Z', data: {} }, attempt: 1, dueAt: nowMs }]);
    const expiring = webhookRecord({ events: ['link.expired'] });
    expect(tasksFor([event({ type: 'link.expired', dueAt: nowMs + 5_000, confirmExpiry: { key: 'k', expiresAt: 'x' } })], [expiring], nowMs)[0]).toMatchObject({ dueAt: nowMs + 5_000, confirmExpiry: { key: 'k', expiresAt: 'x' } });
  });

  it('a task is still wanted when due only by a webhook that exists, is on and still asks; a test by any', () => {
    const webhook = webhookRecord({ events: ['link.created'] });
    expect(stillWanted(task(), webhook)).toBe(true);
    expect(stillWanted(task(), undefined)).toBe(false);
    expect(stillWanted(task(), { ...webhook, enabled: false })).toBe(false);
    expect(stillWanted(task(), { ...webhook, events: ['link.clicked'] })).toBe(false);
    expect(stillWanted(task({ event: { id: 'evt_t', type: 'webhook.test', timestamp: '', data: {} } }), { ...webhook, enabled: false })).toBe(true);
  });
});

describe('after an attempt', () => {
  it('2xx ends it', () => {
    for (const status of [200, 202, 204, 299]) expect(nextStep(task(), { status, durationMs: 5 }, undefined, nowMs, options)).toEqual({ kind: 'done' });
  });

  it('anything else, a timeout or a failed connection retries on the schedule with the same event', () => {
    for (const outcome of [{ status: 500, durationMs: 1 }, { status: 301, durationMs: 1 }, { status: 429, durationMs: 1 }, { error: 'timeout', durationMs: 10_000 }]) {
      const step = nextStep(task({ attempt: 2 }), outcome, nowMs - 1_000, nowMs, options);
      expect(step).toEqual({ kind: 'retry', task: task({ attempt: 3, dueAt: nowMs + 300_000 }) });
    }
  });

  it('waits as long as a Retry-After asks when that is longer', () => {
    expect(nextStep(task(), { status: 503, retryAfterMs: 600_000, durationMs: 1 }, undefined, nowMs, options)).toEqual({ kind: 'retry', task: task({ attempt: 2, dueAt: nowMs + 600_000 }) });
  });

  it('gives up after the tenth attempt', () => {
    expect(nextStep(task({ attempt: 10 }), { status: 500, durationMs: 1 }, nowMs, nowMs, options)).toEqual({ kind: 'gaveUp' });
  });

  it('410 Gone turns the webhook off at once; 5 days of nothing but failures too', () => {
    expect(nextStep(task(), { status: 410, durationMs: 1 }, undefined, nowMs, options)).toEqual({ kind: 'disable', reason: DISABLED_BY_GONE });
    expect(nextStep(task(), { status: 500, durationMs: 1 }, nowMs - 5 * 86_400_000, nowMs, options)).toEqual({ kind: 'disable', reason: DISABLED_BY_FAILURES });
    expect(nextStep(task(), { status: 500, durationMs: 1 }, nowMs - 5 * 86_400_000 + 1, nowMs, options).kind).toBe('retry');
    // Scaled in a local run like every other wait.
    expect(nextStep(task(), { status: 500, durationMs: 1 }, nowMs - 43_200, nowMs, { timeScale: 0.0001, random: 0 }).kind).toBe('disable');
  });

  it('the log line holds the status or the error, never the answer', () => {
    expect(attemptRecord(task(), { status: 500, durationMs: 12 }, nowMs)).toEqual({ eventId: 'evt_1', event: 'link.created', attempt: 1, at: '2026-11-24T12:00:00.000Z', status: 500, durationMs: 12 });
    expect(attemptRecord(task(), { error: 'timeout: no answer within 10 s', durationMs: 10_000 }, nowMs)).toMatchObject({ error: 'timeout: no answer within 10 s' });
  });
});
