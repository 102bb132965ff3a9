import type { ShortenerClient } from '../../clients/typescript/src';
import type { paths } from '../../clients/typescript/src/schema';
import { ApiRefusal, messageOf, type Io } from './commands';
import { UsageError } from './csv-links';

type WebhookView = paths['/v2/webhooks/{id}']['get']['responses'][200]['content']['application/json'];
type NewWebhook = paths['/v2/webhooks']['post']['requestBody']['content']['application/json'];

/** One webhook for people: id, state (and why it is off), URL and events. */
function describe(webhook: WebhookView): string {
  const state = webhook.enabled ? 'enabled' : `disabled${webhook.disabledReason ? ` (${webhook.disabledReason})` : ''}`;
  return `${webhook.id}\t${state}\t${webhook.url}\t${webhook.events.join(',')}\n`;
}

const path = (id: string) => ({ params: { path: { id } } });

export async function listWebhooks(client: ShortenerClient, options: { json?: boolean }, io: Io): Promise<void> {
  const { data, error, response } = await client.GET('/v2/webhooks');
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  if (options.json) io.out(`${JSON.stringify(data.webhooks, null, 2)}\n`);
  else for (const webhook of data.webhooks) io.out(describe(webhook));
}

/** The secret is shown by this answer only: printed on its own line, after a reminder to keep it. */
export async function addWebhook(client: ShortenerClient, url: string, options: { events: string; description?: string; json?: boolean }, io: Io): Promise<void> {
  const events = options.events.split(',').map((event) => event.trim()).filter(Boolean);
  if (events.length === 0) throw new UsageError('--events needs at least one event, e.g. link.created,link.clicked');
  const body = { url, events: events as NewWebhook['events'], ...(options.description !== undefined ? { description: options.description } : {}) };
  const { data, error, response } = await client.POST('/v2/webhooks', { body });
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  if (options.json) io.out(`${JSON.stringify(data, null, 2)}\n`);
  else io.out(`${describe(data)}signing secret (shown once, keep it): ${data.secret}\n`);
}

export async function testWebhook(client: ShortenerClient, id: string, io: Io): Promise<void> {
  const { data, error, response } = await client.POST('/v2/webhooks/{id}/test', path(id));
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  io.out(`queued webhook.test ${data.eventId}: see \`webhooks deliveries ${id}\`\n`);
}

export async function rotateSecret(client: ShortenerClient, id: string, io: Io): Promise<void> {
  const { data, error, response } = await client.POST('/v2/webhooks/{id}/rotate-secret', path(id));
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  io.out(`new signing secret (the old one keeps signing beside it for 24 hours): ${data.secret}\n`);
}

export async function setWebhookEnabled(client: ShortenerClient, id: string, enabled: boolean, io: Io): Promise<void> {
  const { data, error, response } = await client.PATCH('/v2/webhooks/{id}', { ...path(id), body: { enabled } });
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  io.out(describe(data));
}

export async function deleteWebhook(client: ShortenerClient, id: string, io: Io): Promise<void> {
  const { error, response } = await client.DELETE('/v2/webhooks/{id}', path(id));
  if (response.status !== 204) throw new ApiRefusal(messageOf(error, response.status));
  io.out(`${id} deleted\n`);
}

/** The latest attempts, newest first: when, which event and attempt, and the status or the error. */
export async function listDeliveries(client: ShortenerClient, id: string, options: { limit?: string; json?: boolean }, io: Io): Promise<void> {
  const { data, error, response } = await client.GET('/v2/webhooks/{id}/deliveries', { params: { path: { id }, query: options.limit ? { limit: Number(options.limit) } : {} } });
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  if (options.json) io.out(`${JSON.stringify(data.deliveries, null, 2)}\n`);
  else for (const attempt of data.deliveries) io.out(`${attempt.at}\t${attempt.event}\t${attempt.eventId}\t#${attempt.attempt}\t${attempt.status ?? attempt.error ?? ''}\t${attempt.durationMs} ms\n`);
}
