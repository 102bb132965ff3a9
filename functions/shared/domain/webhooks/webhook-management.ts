import { randomBytes } from 'node:crypto';
import type { ApiKeyCaller } from '../accounts/caller';
import { InvalidRequest, WebhookNotFound } from '../errors';
import { assertWebhooksEnabled, type Flags } from '../limits/flags';
import { assertPlanIncludes } from '../limits/plans';
import { findUnsafe } from '../links/destination-safety';
import { normaliseDestination } from '../links/url-policy';
import { OwnMessages } from '../messages';
import type { DeliveryQueue, SafetyChecker, SecretSealer, WebhookChanges, WebhookStore } from '../ports';
import { LIST_LIMIT, parseOrRefuse } from '../request-parsing';
import { hostPortOf } from './address-policy';
import { eventId } from './link-events';
import { newSigningSecret } from './signing';
import { HEALTH_EVENTS, MAX_WEBHOOKS_PER_ACCOUNT, PREVIOUS_SECRET_KEPT_MS, toWebhookView, type DeliveryAttempt, type SubscribableEvent, type WebhookRecord, type WebhookView } from './webhook';
import { deliveriesQuerySchema, webhookPatchSchema, webhookRequestSchema, webhookRotationSchema } from './webhook-request';
import type { ChangeAuthor } from '../audit/audit-stamp';
import type { AuditRecord } from '../audit/audit-record';
import { auditedFields, changeRecord } from '../audit/change-record';

export interface WebhookContext {
  caller: ApiKeyCaller;
  /** Who the request's changes are recorded as by (the audit log). */
  author: ChangeAuthor;
  flags: Flags;
  nowMs: number;
  /** A local run's receivers on this machine (LOCAL_WEBHOOK_ALLOW); empty on AWS. */
  localReceivers: ReadonlySet<string>;
  /** A local run's factor on webhook waits, the rotation's overlap included (LOCAL_WEBHOOK_TIME_SCALE); 1 on AWS. */
  timeScale: number;
}

export interface WebhookDeps {
  webhooks: WebhookStore;
  queue: DeliveryQueue;
  safety: SafetyChecker;
  secrets: SecretSealer;
}

/**
 * A destination's rules (public host, no credentials, no look-alike) and https; a local run's listed receivers
 * (`host:port`) pass as they are, http included. Undefined when refused.
 */
export function acceptedWebhookUrl(candidate: string, localReceivers: ReadonlySet<string>): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(candidate.trim());
  } catch {
    return undefined;
  }
  if (parsed.username || parsed.password || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) return undefined;
  if (localReceivers.has(hostPortOf(parsed))) return parsed.href;
  const normalised = normaliseDestination(candidate.trim());
  return normalised?.startsWith('https:') ? normalised : undefined;
}

async function checkedUrl(candidate: string, context: WebhookContext, safety: SafetyChecker): Promise<string> {
  const url = acceptedWebhookUrl(candidate, context.localReceivers);
  if (!url) throw new InvalidRequest(OwnMessages.webhookUrl);
  if (context.localReceivers.has(hostPortOf(new URL(url)))) return url;
  if ((await findUnsafe([url], safety)).size > 0) throw new InvalidRequest(OwnMessages.webhookUrlUnsafe);
  return url;
}

/** What a webhook's record shows of it: the secrets only as having changed (audit-record.ts redacts them by name). */
const WEBHOOK_FIELDS = ['url', 'events', 'description', 'enabled', 'disabledReason', 'secret', 'previousSecret'] as const satisfies readonly (keyof WebhookRecord)[];

function webhookChangeRecord(action: string, context: WebhookContext, before: WebhookRecord | undefined, after: WebhookRecord | undefined): AuditRecord {
  return changeRecord({
    workspaceId: context.caller.accountId,
    author: context.author,
    action,
    target: { type: 'webhook', id: (after ?? before)?.id ?? '' },
    before: auditedFields(before, WEBHOOK_FIELDS),
    after: auditedFields(after, WEBHOOK_FIELDS),
    nowMs: context.nowMs,
  });
}

/** The webhook as the changes leave it: a value sets a field, null removes it. */
function withChanges(record: WebhookRecord, changes: WebhookChanges): WebhookRecord {
  const after: Record<string, unknown> = { ...record };
  for (const [field, value] of Object.entries(changes)) {
    if (value === null) delete after[field];
    else if (value !== undefined) after[field] = value;
  }
  return after as unknown as WebhookRecord;
}

function allowed(context: WebhookContext): void {
  assertWebhooksEnabled(context.flags);
  assertPlanIncludes(context.caller.plan, 'webhooks');
}

/** link.broken and link.recovered are PRO's and up (the checks themselves run for every plan). */
function assertHealthEventsAllowed(events: readonly SubscribableEvent[], context: WebhookContext): void {
  if (events.some((event) => HEALTH_EVENTS.includes(event))) assertPlanIncludes(context.caller.plan, 'linkHealth');
}

/** POST /v2/webhooks: the one answer that shows the secret (the table keeps it sealed). */
export async function addWebhook(body: object, context: WebhookContext, deps: WebhookDeps): Promise<WebhookView & { secret: string }> {
  allowed(context);
  const request = parseOrRefuse(webhookRequestSchema(), body);
  assertHealthEventsAllowed(request.events, context);
  const url = await checkedUrl(request.url, context, deps.safety);
  const now = new Date(context.nowMs).toISOString();
  const id = `wh_${randomBytes(12).toString('base64url')}`;
  const secret = newSigningSecret();
  const record: WebhookRecord = {
    id,
    owner: context.caller.owner,
    url,
    events: request.events,
    description: request.description ?? '',
    enabled: true,
    createdAt: now,
    updatedAt: now,
    secret: await deps.secrets.seal(secret, id),
  };
  if ((await deps.webhooks.add(record, MAX_WEBHOOKS_PER_ACCOUNT, webhookChangeRecord('webhook.created', context, undefined, record))) === 'overLimit') throw new InvalidRequest(OwnMessages.webhookLimit(MAX_WEBHOOKS_PER_ACCOUNT));
  return { ...toWebhookView(record), secret };
}

export async function listWebhooks(context: WebhookContext, deps: Pick<WebhookDeps, 'webhooks'>): Promise<{ webhooks: WebhookView[] }> {
  allowed(context);
  const records = await deps.webhooks.list(context.caller.owner);
  return { webhooks: records.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)).map(toWebhookView) };
}

/** Another account's webhook and no webhook at all answer the same. */
async function owned(id: string, context: WebhookContext, webhooks: WebhookStore): Promise<WebhookRecord> {
  allowed(context);
  const record = /^wh_[A-Za-z0-9_-]{1,64}$/.test(id) ? await webhooks.find(context.caller.owner, id) : undefined;
  if (!record) throw new WebhookNotFound(OwnMessages.webhookNotFound);
  return record;
}

export async function viewWebhook(id: string, context: WebhookContext, deps: Pick<WebhookDeps, 'webhooks'>): Promise<WebhookView> {
  return toWebhookView(await owned(id, context, deps.webhooks));
}

/** One owner's change of the webhook as read (`record`), recorded as `action` in the same transaction. */
async function changed(record: WebhookRecord, action: string, context: WebhookContext, webhooks: WebhookStore, changes: WebhookChanges): Promise<WebhookRecord> {
  const dated = { ...changes, updatedAt: new Date(context.nowMs).toISOString() };
  const audit = webhookChangeRecord(action, context, record, withChanges(record, dated));
  const updated = await webhooks.update(context.caller.owner, record.id, dated, audit);
  if (!updated) throw new WebhookNotFound(OwnMessages.webhookNotFound);
  return updated;
}

/** PATCH: `enabled: true` restarts a webhook the service turned off (its reason and failure streak go). */
export async function editWebhook(id: string, body: object, context: WebhookContext, deps: WebhookDeps): Promise<WebhookView> {
  const record = await owned(id, context, deps.webhooks);
  const patch = parseOrRefuse(webhookPatchSchema(), body);
  if (Object.values(patch).every((value) => value === undefined)) throw new InvalidRequest(OwnMessages.webhookPatchEmpty);
  assertHealthEventsAllowed(patch.events ?? [], context);
  const changes: WebhookChanges = {
    ...(patch.url !== undefined ? { url: await checkedUrl(patch.url, context, deps.safety) } : {}),
    ...(patch.events !== undefined ? { events: patch.events } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(patch.enabled === true ? { disabledReason: null, failingSince: null } : {}),
  };
  return toWebhookView(await changed(record, 'webhook.updated', context, deps.webhooks, changes));
}

export async function removeWebhook(id: string, context: WebhookContext, deps: Pick<WebhookDeps, 'webhooks'>): Promise<void> {
  const record = await owned(id, context, deps.webhooks);
  if (!(await deps.webhooks.remove(context.caller.owner, id, webhookChangeRecord('webhook.deleted', context, record, undefined)))) throw new WebhookNotFound(OwnMessages.webhookNotFound);
}

/**
 * A new secret; the old one keeps signing beside it for 24 hours (a second rotation ends the first's overlap), or
 * not at all with `expirePrevious: true` (a secret that leaked must stop signing now, whatever receivers lose).
 * The previous one is kept as stored (sealed, or in the clear from before sealing): nothing is opened here.
 */
export async function rotateSecret(id: string, body: object, context: WebhookContext, deps: Pick<WebhookDeps, 'webhooks' | 'secrets'>): Promise<WebhookView & { secret: string }> {
  const record = await owned(id, context, deps.webhooks);
  const { expirePrevious } = parseOrRefuse(webhookRotationSchema(), body);
  const secret = newSigningSecret();
  const previousSecret = expirePrevious === true ? null : { secret: record.secret, until: context.nowMs + PREVIOUS_SECRET_KEPT_MS * context.timeScale };
  const updated = await changed(record, 'webhook.secret-rotated', context, deps.webhooks, { secret: await deps.secrets.seal(secret, record.id), previousSecret });
  return { ...toWebhookView(updated), secret };
}

/** POST …/test: a webhook.test event, queued like any other (a disabled webhook gets it too: that is how to try one). */
export async function testWebhook(id: string, context: WebhookContext, deps: Pick<WebhookDeps, 'webhooks' | 'queue'>): Promise<{ eventId: string }> {
  const record = await owned(id, context, deps.webhooks);
  const timestamp = new Date(context.nowMs).toISOString();
  const id_ = eventId('webhook.test', record.id, timestamp, randomBytes(8).toString('hex'));
  await deps.queue.send(
    [{ webhookId: record.id, owner: record.owner, event: { id: id_, type: 'webhook.test', timestamp, data: { webhookId: record.id, url: record.url } }, attempt: 1, dueAt: context.nowMs }],
    context.nowMs,
  );
  return { eventId: id_ };
}

export async function listDeliveries(
  id: string,
  parameters: Record<string, string | undefined> | null,
  context: WebhookContext,
  deps: Pick<WebhookDeps, 'webhooks'>,
): Promise<{ deliveries: DeliveryAttempt[]; nextCursor?: string }> {
  const record = await owned(id, context, deps.webhooks);
  const query = parseOrRefuse(deliveriesQuerySchema(), parameters ?? {});
  const page = await deps.webhooks.deliveries(record.id, query.limit ?? LIST_LIMIT.default, query.cursor);
  if (!page) throw new InvalidRequest(OwnMessages.cursorParameter);
  return { deliveries: page.items, ...(page.next ? { nextCursor: page.next } : {}) };
}
