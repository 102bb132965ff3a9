import type { DeliveryQueue, SecretSealer, SlotLease, WebhookChanges, WebhookStore } from '../../functions/shared/domain/ports';
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

  async countQueuedClicks(owner: string, id: string, count: number): Promise<number | undefined> {
    const record = this.records.get(id);
    if (!record || record.owner !== owner) return undefined;
    record.clickSeq = (record.clickSeq ?? 0) + count;
    return record.clickSeq;
  }

  async countDropped(owner: string, id: string, count: number): Promise<void> {
    const record = this.records.get(id);
    if (record?.owner === owner) record.droppedEvents = (record.droppedEvents ?? 0) + count;
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

/**
 * Seals by encoding with the webhook's id (kms-secret-sealer.ts is tested on its own): enough for unit tests to see
 * that records hold no secret in the clear, and that one opens only for its own webhook.
 */
export class MarkingSealer implements SecretSealer {
  opened = 0;

  async seal(secret: string, webhookId: string): Promise<string> {
    return `sealed.${webhookId}.${Buffer.from(secret).toString('base64url')}`;
  }

  async open(stored: string, webhookId: string): Promise<string> {
    if (!stored.startsWith('sealed.')) return stored;
    this.opened += 1;
    const prefix = `sealed.${webhookId}.`;
    if (!stored.startsWith(prefix)) throw new Error('sealed for another webhook');
    return Buffer.from(stored.slice(prefix.length), 'base64url').toString('utf8');
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
