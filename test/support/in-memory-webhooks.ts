import type { DeliveryQueue, SlotLease, WebhookChanges, WebhookStore } from '../../functions/shared/domain/ports';
import type { DeliveryTask } from '../../functions/shared/domain/webhooks/delivery';
import type { DeliveryAttempt, WebhookRecord } from '../../functions/shared/domain/webhooks/webhook';

/** The webhook store in memory, for unit tests; dynamo-webhook-store.ts is tested against DynamoDB Local. */
export class MemoryWebhookStore implements WebhookStore {
  readonly records = new Map<string, WebhookRecord>();
  readonly attempts = new Map<string, DeliveryAttempt[]>();
  readonly slots = new Map<string, number>();
  /** When every place of a busy webhook frees itself at the latest (what DynamoDB's leases would say). */
  busyUntil = 0;
  acquisitions = 0;

  async add(record: WebhookRecord, limit: number): Promise<'added' | 'overLimit'> {
    if ((await this.list(record.owner)).length >= limit) return 'overLimit';
    this.records.set(record.id, { ...record });
    return 'added';
  }

  async list(owner: string): Promise<WebhookRecord[]> {
    return [...this.records.values()].filter((record) => record.owner === owner);
  }

  async find(owner: string, id: string): Promise<WebhookRecord | undefined> {
    const record = this.records.get(id);
    return record?.owner === owner ? { ...record } : undefined;
  }

  async update(owner: string, id: string, changes: WebhookChanges): Promise<WebhookRecord | undefined> {
    const record = await this.find(owner, id);
    if (!record) return undefined;
    const updated = { ...record } as Record<string, unknown>;
    for (const [field, value] of Object.entries(changes)) {
      if (value === null) delete updated[field];
      else if (value !== undefined) updated[field] = value;
    }
    this.records.set(id, updated as unknown as WebhookRecord);
    return updated as unknown as WebhookRecord;
  }

  async remove(owner: string, id: string): Promise<boolean> {
    return (await this.find(owner, id)) !== undefined && this.records.delete(id);
  }

  async deliveries(webhookId: string, limit: number): Promise<{ items: DeliveryAttempt[] }> {
    return { items: [...(this.attempts.get(webhookId) ?? [])].reverse().slice(0, limit) };
  }

  async recordAttempt(webhookId: string, attempt: DeliveryAttempt): Promise<void> {
    this.attempts.set(webhookId, [...(this.attempts.get(webhookId) ?? []), attempt]);
  }

  async markFailing(owner: string, id: string, nowMs: number): Promise<number | undefined> {
    const record = this.records.get(id);
    if (!record || record.owner !== owner) return undefined;
    record.failingSince ??= nowMs;
    return record.failingSince;
  }

  async acquireSlot(webhookId: string, slots: number): Promise<SlotLease | { busyUntil: number }> {
    this.acquisitions += 1;
    const taken = this.slots.get(webhookId) ?? 0;
    if (taken >= slots) return { busyUntil: this.busyUntil };
    this.slots.set(webhookId, taken + 1);
    return { slot: taken, holder: `holder${this.acquisitions}` };
  }

  async releaseSlot(webhookId: string): Promise<void> {
    this.slots.set(webhookId, (this.slots.get(webhookId) ?? 1) - 1);
  }
}

export class MemoryDeliveryQueue implements DeliveryQueue {
  readonly sent: DeliveryTask[] = [];

  async send(tasks: readonly DeliveryTask[]): Promise<void> {
    this.sent.push(...tasks);
  }
}

let sequence = 0;
export function webhookRecord(fields: Partial<WebhookRecord> = {}): WebhookRecord {
  sequence += 1;
  return {
    id: `wh_test${sequence}`,
    owner: 'acct:owner',
    url: 'https://hooks.example.org/in',
    events: ['link.created', 'link.clicked'],
    description: '',
    enabled: true,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    ...fields,
  };
}
