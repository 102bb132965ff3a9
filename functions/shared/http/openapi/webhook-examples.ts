import type { EventType } from '../../domain/webhooks/webhook';

/**
 * One example of each event as a receiver gets it: the OpenAPI document's `webhooks` shows them, and
 * docs/webhooks.md shows the same (a test holds the page to this module, and each example to its event's schema).
 */
const link = {
  shortUrl: 'https://sho.rt/spring',
  shortCode: 'spring',
  domain: 'sho.rt',
  url: 'https://example.com/spring-sale',
  alias: 'spring',
  createdAt: '2026-11-24T12:00:00.000Z',
  updatedAt: '2026-11-24T12:00:00.000Z',
  clicks: 0,
  passwordProtected: false,
  status: 'active',
} as const;

export const WEBHOOK_EVENT_EXAMPLES: Record<EventType, { type: EventType; timestamp: string; data: unknown }> = {
  'link.created': { type: 'link.created', timestamp: '2026-11-24T12:00:00.000Z', data: link },
  'link.updated': {
    type: 'link.updated',
    timestamp: '2026-11-24T12:01:00.000Z',
    data: { ...link, url: 'https://example.com/spring-sale-b', updatedAt: '2026-11-24T12:01:00.000Z', clicks: 12 },
  },
  'link.deleted': { type: 'link.deleted', timestamp: '2026-11-24T12:02:00.000Z', data: { ...link, updatedAt: '2026-11-24T12:02:00.000Z', clicks: 12, status: 'deleted' } },
  'link.disabled': { type: 'link.disabled', timestamp: '2026-11-24T12:03:00.000Z', data: { ...link, updatedAt: '2026-11-24T12:03:00.000Z', clicks: 12, status: 'disabled' } },
  'link.enabled': { type: 'link.enabled', timestamp: '2026-11-24T12:04:00.000Z', data: { ...link, updatedAt: '2026-11-24T12:04:00.000Z', clicks: 12 } },
  'link.expired': {
    type: 'link.expired',
    timestamp: '2026-11-30T00:00:00.000Z',
    data: { ...link, expiresAt: '2026-11-30T00:00:00.000Z', clicks: 40, status: 'expired' },
  },
  'link.used-up': { type: 'link.used-up', timestamp: '2026-11-24T12:05:00.000Z', data: { ...link, maxClicks: 100, clicks: 100, status: 'used-up' } },
  'link.clicked': {
    type: 'link.clicked',
    timestamp: '2026-11-24T12:00:03.114Z',
    data: { code: 'spring', at: '2026-11-24T12:00:03.114Z', country: 'DE', referrer: 'news.example.com', device: 'mobile' },
  },
  'quota.warning': { type: 'quota.warning', timestamp: '2026-11-24T12:06:00.000Z', data: { month: '2026-11', used: 8000, limit: 10000 } },
  'quota.exhausted': { type: 'quota.exhausted', timestamp: '2026-11-28T09:30:00.000Z', data: { month: '2026-11', used: 10000, limit: 10000 } },
  'link.broken': {
    type: 'link.broken',
    timestamp: '2026-11-26T03:00:00.000Z',
    data: { ...link, clicks: 40, health: { status: 'server-error', statusCode: 503, checkedAt: '2026-11-26T03:00:00.000Z', since: '2026-11-25T03:00:00.000Z' } },
  },
  'link.recovered': {
    type: 'link.recovered',
    timestamp: '2026-11-28T03:00:00.000Z',
    data: { ...link, clicks: 41, health: { status: 'ok', statusCode: 200, checkedAt: '2026-11-28T03:00:00.000Z', since: '2026-11-27T03:00:00.000Z' } },
  },
  'webhook.test': { type: 'webhook.test', timestamp: '2026-11-24T12:07:00.000Z', data: { webhookId: 'wh_3kT9xQ2mVb8LrN5p', url: 'https://hooks.example.com/shortener' } },
};
