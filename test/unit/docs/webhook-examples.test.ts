import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod/mini';
import { SUBSCRIBABLE_EVENTS, type EventType } from '../../../functions/shared/domain/webhooks/webhook';
import { openApiDocument } from '../../../functions/shared/http/openapi/document';
import { eventBody } from '../../../functions/shared/http/openapi/webhook-events';
import { WEBHOOK_EVENT_EXAMPLES } from '../../../functions/shared/http/openapi/webhook-examples';

/** Issue 27's documentation debt: one example per event, from one module, in the OpenAPI document and on the page. */
const EVENTS: EventType[] = [...SUBSCRIBABLE_EVENTS, 'webhook.test'];
const page = readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'webhooks.md'), 'utf8');

/** The page's examples: the JSON block after the sentence naming the module, one value per blank-line-separated chunk. */
function examplesOnThePage(): unknown[] {
  const after = page.slice(page.indexOf('webhook-examples.ts'));
  const block = /```json\n([\s\S]*?)\n```/.exec(after)?.[1] ?? '';
  return block.split(/\n\s*\n/).map((chunk) => JSON.parse(chunk) as unknown);
}

describe('webhook event examples', () => {
  it('exist for every event, each a body its event\'s schema accepts', () => {
    expect(Object.keys(WEBHOOK_EVENT_EXAMPLES).sort()).toEqual([...EVENTS].sort());
    for (const event of EVENTS) {
      const example = WEBHOOK_EVENT_EXAMPLES[event];
      expect(example.type).toBe(event);
      expect(() => z.parse(eventBody(event), example)).not.toThrow();
    }
  });

  it('are the ones docs/webhooks.md shows, in the same order', () => {
    expect(examplesOnThePage()).toEqual(Object.values(WEBHOOK_EVENT_EXAMPLES));
  });

  it('are in the OpenAPI document, one under each event of `webhooks`', () => {
    const webhooks = (openApiDocument('https://api.test/prod') as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { examples?: Record<string, { value: unknown }> }> } } }> }).webhooks;
    for (const event of EVENTS) {
      expect(webhooks[event]?.post.requestBody.content['application/json']?.examples).toEqual({ [event]: { value: WEBHOOK_EVENT_EXAMPLES[event] } });
    }
  });
});
