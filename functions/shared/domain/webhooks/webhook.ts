/**
 * An account's webhook (issue 19): where its events are sent, which ones, and the secrets they are signed with.
 * Secrets stay in the record sealed (SecretSealer: HMAC needs them, the table must not show them); the API shows
 * one only in the answer that made it.
 */

/** Events a webhook may subscribe to; `webhook.test` is sent on request to any webhook and cannot be chosen. */
export const SUBSCRIBABLE_EVENTS = [
  'link.created',
  'link.updated',
  'link.deleted',
  'link.disabled',
  'link.enabled',
  'link.expired',
  'link.used-up',
  'link.clicked',
  'quota.warning',
  'quota.exhausted',
  'link.broken',
  'link.recovered',
] as const;
/** The events of link health (issue 31): subscribing to them is PRO's and up. */
export const HEALTH_EVENTS: readonly SubscribableEvent[] = ['link.broken', 'link.recovered'];
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];
export type EventType = SubscribableEvent | 'webhook.test';

export const MAX_WEBHOOKS_PER_ACCOUNT = 10;
export const MAX_DESCRIPTION_LENGTH = 200;
/** After a rotation the old secret signs beside the new one this long, so receivers can switch without a gap. */
export const PREVIOUS_SECRET_KEPT_MS = 24 * 3_600_000;
/** A webhook whose every attempt failed this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 86_400_000;
/**
 * A webhook's backlog of clicks: a `link.clicked` task with this many newer clicks queued behind it for the same
 * webhook is dropped when it surfaces, unsent, and counted in the webhook's view (`droppedEvents`). The oldest go
 * first, and only clicks: every other event is bounded by the API's own limits and is kept.
 */
export const MAX_CLICK_BACKLOG = 10_000;
/** The delivery log keeps attempts this long (its TTL). */
export const DELIVERIES_KEPT_SECONDS = 30 * 86_400;

export interface WebhookRecord {
  id: string;
  owner: string;
  url: string;
  events: SubscribableEvent[];
  description: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  /** Sealed (or, stored before sealing, `whsec_…` in the clear). */
  secret: string;
  /** The secret before the last rotation, as stored, still signing until `until` (epoch ms). */
  previousSecret?: { secret: string; until: number };
  /** Why the service turned it off (410, or 5 days of failures); gone when the owner turns it on again. */
  disabledReason?: string;
  /** Epoch ms of the first failed attempt since the last success. */
  failingSince?: number;
  /** `link.clicked` tasks queued for it so far: each click task carries its number among them (`clickSeq`). */
  clickSeq?: number;
  /** Clicks dropped from its backlog, oldest first (MAX_CLICK_BACKLOG). */
  droppedEvents?: number;
}

/** What the API shows of a webhook: never its secrets or failure bookkeeping; how many clicks its backlog dropped. */
export type WebhookView = Pick<WebhookRecord, 'id' | 'url' | 'events' | 'description' | 'enabled' | 'createdAt' | 'updatedAt' | 'disabledReason'> & { droppedEvents: number };

export const toWebhookView = (record: WebhookRecord): WebhookView => ({
  id: record.id,
  url: record.url,
  events: record.events,
  description: record.description,
  enabled: record.enabled,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
  ...(record.disabledReason ? { disabledReason: record.disabledReason } : {}),
  droppedEvents: record.droppedEvents ?? 0,
});

/** The secrets that sign a delivery at `nowMs`: the current one, and the previous one within its 24 hours. */
export function signingSecrets(record: Pick<WebhookRecord, 'secret' | 'previousSecret'>, nowMs: number): string[] {
  return record.previousSecret && record.previousSecret.until > nowMs ? [record.secret, record.previousSecret.secret] : [record.secret];
}

/** What a receiver gets: `{type, timestamp, data}`. */
export interface WebhookEvent {
  /** The `webhook-id` header: the same on every attempt, so receivers can drop repeats. */
  id: string;
  type: EventType;
  /** ISO 8601: when it happened (the change, the click). */
  timestamp: string;
  data: unknown;
}

/** One attempt as GET …/deliveries lists it. */
export interface DeliveryAttempt {
  eventId: string;
  event: EventType;
  attempt: number;
  at: string;
  status?: number;
  error?: string;
  durationMs: number;
}
