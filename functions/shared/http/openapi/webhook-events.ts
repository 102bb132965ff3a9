import * as z from 'zod/mini';
import { SUBSCRIBABLE_EVENTS, type EventType } from '../../domain/webhooks/webhook';
import { clickEventDataBody, linkViewBody, quotaEventDataBody, testEventDataBody } from './response-bodies';
import { WEBHOOK_EVENT_EXAMPLES } from './webhook-examples';

type Json = unknown;

/** What each event is about, for the document and the README. */
export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'link.created': 'A link was created (API, batch or CSV import). `data` is the link view.',
  'link.updated': "A link's destination or settings changed (PATCH). `data` is the link view after the change.",
  'link.deleted': 'A link was deleted (DELETE, or its domain removed). `data` is the link view, status `deleted`.',
  'link.disabled': 'An operator took the link down. `data` is the link view, status `disabled`.',
  'link.enabled': 'An operator restored a link taken down. `data` is the link view.',
  'link.expired': "A link's expiry was reached (sent when it is due), and again with the same id when DynamoDB's TTL removes it 90 days later. `data` is the link view, status `expired`.",
  'link.used-up': 'A link reached its `maxClicks`. `data` is the link view, status `used-up`.',
  'link.clicked': 'One click, as the stats count it (within about 30 seconds). `data` is the click as stats count it: no address, no user agent.',
  'quota.warning': "The account used 80 % of its month's API calls. `data`: the month, calls used, the limit.",
  'quota.exhausted': "The account used all of its month's API calls. `data`: the month, calls used, the limit.",
  'link.broken': "Two checks in a row found the link's destinations broken (a 4xx, a 5xx, or no answer; PRO and up). `data` is the link view with its `health`.",
  'link.recovered': 'Two checks in a row found a broken link\'s destinations answering again (PRO and up). `data` is the link view with its `health`.',
  'webhook.test': 'Sent by POST /v2/webhooks/{id}/test. `data` names the webhook.',
};

const dataOf = (event: EventType): z.ZodMiniType =>
  event === 'link.clicked' ? clickEventDataBody : event.startsWith('quota.') ? quotaEventDataBody : event === 'webhook.test' ? testEventDataBody : linkViewBody;

/** What a receiver gets for `event`: `{type, timestamp, data}`. */
export const eventBody = (event: EventType) => z.strictObject({ type: z.literal(event), timestamp: z.iso.datetime({ precision: 3 }), data: dataOf(event) });

const SIGNATURE_HEADERS = {
  'webhook-id': { required: true, description: 'The event\'s id: the same on every attempt; drop repeats by it.', schema: { type: 'string' } },
  'webhook-timestamp': { required: true, description: 'Unix seconds of this attempt; refuse ones far from your clock.', schema: { type: 'string' } },
  'webhook-signature': {
    required: true,
    description: 'Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`: one per secret (two for 24 hours after a rotation).',
    schema: { type: 'string' },
  },
};

/** OpenAPI 3.1's `webhooks`: one POST per event the service sends, its body generated from the same schemas, with its example. */
export function webhookEvents(): Record<string, Json> {
  const events: EventType[] = [...SUBSCRIBABLE_EVENTS, 'webhook.test'];
  return Object.fromEntries(
    events.map((event) => {
      const { $schema: _dialect, ...schema } = z.toJSONSchema(eventBody(event), { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, Json>;
      return [
        event,
        {
          post: {
            operationId: `on${event.replace(/(^|[.-])(\w)/g, (_match, _separator: string, letter: string) => letter.toUpperCase())}`,
            summary: event,
            description: `${EVENT_DESCRIPTIONS[event]} Delivered at least once, in no promised order; retried for about 3 days on any answer but 2xx.`,
            tags: ['Webhooks'],
            parameters: Object.entries(SIGNATURE_HEADERS).map(([name, header]) => ({ name, in: 'header', ...header })),
            requestBody: { required: true, content: { 'application/json': { schema, examples: { [event]: { value: WEBHOOK_EVENT_EXAMPLES[event] } } } } },
            responses: { '2XX': { description: 'Received. Anything else is retried; 410 Gone turns the webhook off.' } },
          },
        },
      ];
    }),
  );
}
