import * as z from 'zod/mini';
import { HEALTH_STATUSES, UNREACHABLE_REASONS } from '../../domain/health/link-health';
import { IMPORT_SOURCES } from '../../domain/imports/import-record';
import { PLAN_GATES, PLANS } from '../../domain/limits/plans';
import { DOMAIN_STATUSES, type DomainView } from '../../domain/domains/custom-domain';
import { LINK_STATUSES, type CreatedLinkView, type LinkView } from '../../domain/links/link';
import type { LinkPage, TagCounts } from '../../domain/links/link-listing';
import type { BulkOutcome } from '../../domain/links/bulk-actions';
import type { LinkStats } from '../../domain/analytics/link-stats';
import { TOP_DIMENSIONS } from '../../domain/analytics/window-stats';
import type { WorkspaceStats } from '../../domain/analytics/workspace-stats';
import type { LiveStats } from '../../domain/analytics/live-stats';
import { DEVICE_CLASSES } from '../../domain/analytics/click';
import { DEVICES, OPERATING_SYSTEMS, UTM_FIELDS, DESTINATION_LABEL_PATTERN } from '../../domain/destinations/smart-link';
import type { UsageReport } from '../../domain/limits/usage-report';
import { SSO_PROTOCOLS, type SsoConnectionView } from '../../domain/sso/sso-connection';
import { SUBSCRIBABLE_EVENTS, type DeliveryAttempt, type WebhookView } from '../../domain/webhooks/webhook';
import type { ClickData } from '../../domain/webhooks/account-events';
import { DEPENDENCY_UNAVAILABLE_MESSAGE, Messages, OwnMessages } from '../../domain/messages';
import { AUDIT_TARGET_TYPES } from '../../domain/audit/audit-record';
import type { AuditPage } from '../../domain/audit/audit-listing';
import { KEY_VIEW_STATUSES, type KeyView } from '../../domain/accounts/key-management';
import { PEOPLE_POWERS, ROLES, SCOPES } from '../../domain/accounts/permissions';
import type { MeView } from '../../domain/accounts/me';
import type { ImportPreview } from '../../domain/imports/import-preview';

/**
 * Every body the API answers with, as zod schemas: the OpenAPI document is generated from them, and the
 * compile-time checks at the bottom keep them equal to the types the domain returns. Strict objects: a field
 * the document does not name fails the contract test.
 */
const timestamp = z.iso.datetime({ precision: 3 });
const date = z.iso.date();
const url = z.url();
const count = z.int().check(z.minimum(0));

/** Spec 2.2: optional fields appear only when the request set them. */
export const createdLinkBody = z.strictObject({
  shortUrl: url,
  shortCode: z.string(),
  url: z.string(),
  alias: z.optional(z.string()),
  expiresAt: z.optional(timestamp),
  maxClicks: z.optional(z.int()),
  createdAt: timestamp,
});

/** Spec 2.4: one entry per item, in order; the batch is 200 even when every item failed. */
export const batchResultBody = z.strictObject({
  results: z.array(
    z.union([
      // A created link without createdAt, which spec 2.4 does not list.
      z.extend(z.omit(createdLinkBody, { createdAt: true }), { index: count, success: z.literal(true) }),
      z.strictObject({ index: count, success: z.literal(false), error: z.string() }),
    ]),
  ),
});

/** The smart-link fields as the view shows them (issue 18): stored as the request gave them, normalised. */
const conditionsBody = z.strictObject({
  country: z.optional(z.array(z.string())),
  device: z.optional(z.array(z.enum(DEVICES))),
  os: z.optional(z.array(z.enum(OPERATING_SYSTEMS))),
  language: z.optional(z.array(z.string())),
  query: z.optional(z.record(z.string(), z.union([z.string(), z.literal(true)]))),
  after: z.optional(timestamp),
  before: z.optional(timestamp),
});
const smartLinkBodies = {
  rules: z.optional(z.array(z.strictObject({ url: z.string(), when: conditionsBody }))),
  variants: z.optional(z.array(z.strictObject({ url: z.string(), weight: z.int() }))),
  forwardQuery: z.optional(z.literal(true)),
  utm: z.optional(z.strictObject(Object.fromEntries(UTM_FIELDS.map((field) => [field, z.optional(z.string())])) as Record<(typeof UTM_FIELDS)[number], z.ZodMiniOptional<z.ZodMiniString>>)),
  expiredUrl: z.optional(z.string()),
};

/** A link's destinations' latest check (issue 31): its worst destination's answer, and since when it has been so. */
export const linkHealthBody = z.strictObject({
  status: z.enum(HEALTH_STATUSES),
  statusCode: z.optional(z.int()),
  location: z.optional(z.string()),
  error: z.optional(z.enum(UNREACHABLE_REASONS)),
  checkedAt: timestamp,
  since: timestamp,
});

export const linkViewBody = z.strictObject({
  shortUrl: url,
  shortCode: z.string(),
  domain: z.string(),
  url: z.optional(z.string()),
  alias: z.optional(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
  expiresAt: z.optional(timestamp),
  maxClicks: z.optional(z.int()),
  clicks: count,
  passwordProtected: z.boolean(),
  status: z.enum(LINK_STATUSES),
  tags: z.optional(z.array(z.string())),
  ...smartLinkBodies,
  health: z.optional(linkHealthBody),
  importedClicks: z.optional(count),
  importedFrom: z.optional(z.strictObject({ source: z.enum(IMPORT_SOURCES), sourceId: z.string(), importId: z.optional(z.string()) })),
});

export const linkPageBody = z.strictObject({ links: z.array(linkViewBody), nextCursor: z.nullable(z.string()) });

/** Who made a change: a key, a signed-in person (their role then), or an operator. */
const actorBody = z.union([
  z.strictObject({ kind: z.literal('key'), keyId: z.string(), name: z.optional(z.string()) }),
  z.strictObject({ kind: z.literal('user'), userId: z.string(), email: z.string(), role: z.enum(ROLES) }),
  z.strictObject({ kind: z.literal('operator') }),
]);

export const auditEntryBody = z.strictObject({
  id: z.string(),
  at: timestamp,
  actor: actorBody,
  action: z.string(),
  target: z.strictObject({ type: z.enum(AUDIT_TARGET_TYPES), id: z.string() }),
  changes: z.record(z.string(), z.strictObject({ before: z.optional(z.unknown()), after: z.optional(z.unknown()) })),
  requestId: z.optional(z.string()),
});

export const auditPageBody = z.strictObject({ records: z.array(auditEntryBody), nextCursor: z.nullable(z.string()) });

/** Issue 30's dimensions: the window's top 50 values (text as given: never markup) and the rest's clicks. */
const topValuesBody = z.strictObject({ top: z.array(z.strictObject({ value: z.string(), clicks: count })), other: count });

/** What a window of days adds up to, for a link or a workspace (window-stats.ts). */
const windowStatsShape = {
  days: z.array(z.strictObject({ date, clicks: count, bots: count, unique: count })),
  unique: count,
  countries: z.array(z.strictObject({ country: z.string(), clicks: count })),
  referrers: z.array(z.strictObject({ host: z.string(), clicks: count })),
  devices: z.strictObject(Object.fromEntries(DEVICE_CLASSES.map((device) => [device, count])) as Record<(typeof DEVICE_CLASSES)[number], typeof count>),
  destinations: z.record(z.string().check(z.regex(DESTINATION_LABEL_PATTERN)), count),
  ...(Object.fromEntries(Object.keys(TOP_DIMENSIONS).map((name) => [name, topValuesBody])) as Record<keyof typeof TOP_DIMENSIONS, typeof topValuesBody>),
};

export const linkStatsBody = z.strictObject({
  shortCode: z.string(),
  total: count,
  bots: count,
  importedClicks: z.optional(count),
  ...windowStatsShape,
});

export const workspaceStatsBody = z.strictObject({
  total: count,
  bots: count,
  topLinks: z.array(z.strictObject({ shortCode: z.string(), domain: z.optional(z.string()), clicks: count })),
  ...windowStatsShape,
});

export const liveStatsBody = z.strictObject({
  minutes: z.array(z.strictObject({ minute: timestamp, clicks: count, bots: count })),
  total: count,
});

export const usageBody = z.strictObject({
  accountId: z.string(),
  plan: z.enum(PLANS),
  monthlyLimit: z.nullable(count),
  used: count,
  remaining: z.nullable(count),
  resetDate: date,
  rateLimit: z.strictObject({ limit: count, remaining: count, reset: count }),
});

export const domainViewBody = z.strictObject({
  domain: z.string(),
  status: z.enum(DOMAIN_STATUSES),
  isDefault: z.boolean(),
  dnsRecords: z.array(z.strictObject({ type: z.enum(['TXT', 'CNAME', 'A']), name: z.string(), value: z.string() })),
  rootUrl: z.nullable(z.string()),
  notFoundUrl: z.nullable(z.string()),
  expiredUrl: z.nullable(z.string()),
  createdAt: timestamp,
  verifiedAt: z.nullable(timestamp),
  statusReason: z.nullable(z.string()),
});

export const domainListBody = z.strictObject({ domains: z.array(domainViewBody) });

export const ssoConnectionBody = z.strictObject({
  domain: z.string(),
  protocol: z.enum(SSO_PROTOCOLS),
  status: z.enum(['pending', 'active']),
  dnsRecord: z.strictObject({ type: z.enum(['TXT', 'CNAME', 'A']), name: z.string(), value: z.string() }),
  oidc: z.optional(z.strictObject({ issuer: z.string(), clientId: z.string() })),
  saml: z.optional(z.strictObject({ metadataUrl: z.string() })),
  createdAt: timestamp,
  verifiedAt: z.optional(timestamp),
});

export const ssoListBody = z.strictObject({ connections: z.array(ssoConnectionBody) });

export const webhookViewBody = z.strictObject({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(SUBSCRIBABLE_EVENTS)),
  description: z.string(),
  enabled: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
  disabledReason: z.optional(z.string()),
  /** link.clicked events its backlog dropped, oldest first (MAX_CLICK_BACKLOG in webhook.ts). */
  droppedEvents: count,
});
/** The answers that show the signing secret: creation and rotation only. */
export const webhookWithSecretBody = z.strictObject({ ...webhookViewBody.shape, secret: z.string().check(z.regex(/^whsec_/)) });
export const webhookListBody = z.strictObject({ webhooks: z.array(webhookViewBody) });
export const webhookTestBody = z.strictObject({ eventId: z.string() });
export const deliveryAttemptBody = z.strictObject({
  eventId: z.string(),
  event: z.enum([...SUBSCRIBABLE_EVENTS, 'webhook.test']),
  attempt: z.int().check(z.minimum(1)),
  at: timestamp,
  status: z.optional(z.int()),
  error: z.optional(z.string()),
  durationMs: count,
});
export const deliveryPageBody = z.strictObject({ deliveries: z.array(deliveryAttemptBody), nextCursor: z.optional(z.string()) });

/** A key as listed: never its secret nor its hash. */
export const keyViewBody = z.strictObject({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  status: z.enum(KEY_VIEW_STATUSES),
  createdBy: z.union([z.strictObject({ kind: z.literal('user'), userId: z.string(), email: z.string() }), z.strictObject({ kind: z.literal('operator') })]),
  createdAt: timestamp,
  expiresAt: z.nullable(timestamp),
  lastUsedAt: z.nullable(timestamp),
});
/** The creation's answer: the one time the key itself is shown. */
export const keyWithSecretBody = z.strictObject({ ...keyViewBody.shape, secret: z.string().check(z.regex(/^shk_[A-Za-z0-9_-]{43}$/)) });
export const keyListBody = z.strictObject({ keys: z.array(keyViewBody) });

/** What link.clicked carries: the stats' click, no address or user agent. */
export const clickEventDataBody = z.strictObject({
  code: z.string(),
  domain: z.optional(z.string()),
  at: timestamp,
  country: z.string(),
  referrer: z.string(),
  device: z.enum(DEVICE_CLASSES),
  destination: z.optional(z.string()),
});
export const quotaEventDataBody = z.strictObject({ month: z.string().check(z.regex(/^\d{4}-\d{2}$/)), used: count, limit: count });
export const testEventDataBody = z.strictObject({ webhookId: z.string(), url: z.string() });

export const tagCountsBody = z.strictObject({ tags: z.array(z.strictObject({ tag: z.string(), links: count })), complete: z.boolean() });

export const healthBody = z.strictObject({ status: z.literal('ok') });

export const meBody = z.strictObject({
  user: z.strictObject({ sub: z.string(), email: z.nullable(z.string()) }),
  workspaces: z.array(z.strictObject({ workspaceId: z.string(), role: z.enum(ROLES), joinedAt: timestamp })),
});

/** Issue 31: POST /v2/links/bulk's answer, one result per link (domain/links/bulk-actions.ts). */
export const bulkResultBody = z.strictObject({
  results: z.array(z.strictObject({ code: z.string(), domain: z.optional(z.string()), success: z.boolean(), error: z.optional(z.string()) })),
  cursor: z.optional(z.string()),
});

/** Spec 7.5's 400 shape; 413 shares it. */
export const requestErrorBody = (statusCode: 400 | 413) =>
  z.strictObject({ statusCode: z.literal(statusCode), timestamp, path: z.string(), method: z.string(), message: z.string() });

/** The { statusCode, message, error } shape of spec 7.5's 401, used by every other error we answer. */
export const statusErrorBody = (statusCode: number, error: string, messages?: readonly [string, ...string[]]) =>
  z.strictObject({ statusCode: z.literal(statusCode), message: messages ? z.enum(messages) : z.string(), error: z.literal(error) });

export const planRequiredBody = z.strictObject({
  statusCode: z.literal(403),
  message: z.string(),
  error: z.literal('Forbidden'),
  feature: z.enum(PLAN_GATES),
  currentPlan: z.enum(PLANS),
  upgradeUrl: url,
});

/** A request outside what its caller may do: a key without the scope, a role without the permission, a key on a people-only route. */
export const notPermittedBody = z.strictObject({
  statusCode: z.literal(403),
  message: z.string(),
  error: z.literal('Forbidden'),
  permission: z.enum([...SCOPES, ...PEOPLE_POWERS]),
});

/** A person whose sign-in did not use MFA, in a workspace that requires it (or an owner requiring it so). */
export const mfaRequiredBody = z.strictObject({
  statusCode: z.literal(403),
  message: z.enum([OwnMessages.mfaRequired, OwnMessages.mfaBeforeRequiring]),
  error: z.literal('Forbidden'),
  requirement: z.literal('mfa'),
});

export const rateLimitedBody = z.strictObject({
  statusCode: z.literal(429),
  message: z.literal(Messages.rateLimited),
  error: z.literal('Too Many Requests'),
  retryAfter: z.int().check(z.minimum(1)),
});

export const quotaExceededBody = z.strictObject({ statusCode: z.literal(429), message: z.string(), limit: count, resetDate: date, upgradeUrl: url });

export const unavailableMessages = [Messages.maintenance, OwnMessages.safetyUnavailable, DEPENDENCY_UNAVAILABLE_MESSAGE] as const;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;

/** Fails to compile when a schema and the type the domain returns drift apart. */
export type BodiesMatchTheDomain = [
  Expect<Same<z.output<typeof createdLinkBody>, CreatedLinkView>>,
  Expect<Same<z.output<typeof meBody>, MeView>>,
  Expect<Same<z.output<typeof linkViewBody>, LinkView>>,
  Expect<Same<z.output<typeof linkPageBody>, LinkPage>>,
  Expect<Same<z.output<typeof auditPageBody>, AuditPage>>,
  Expect<Same<z.output<typeof linkStatsBody>, LinkStats>>,
  Expect<Same<z.output<typeof workspaceStatsBody>, WorkspaceStats>>,
  Expect<Same<z.output<typeof liveStatsBody>, LiveStats>>,
  Expect<Same<z.output<typeof usageBody>, UsageReport>>,
  Expect<Same<z.output<typeof domainViewBody>, DomainView>>,
  Expect<Same<z.output<typeof webhookViewBody>, WebhookView>>,
  Expect<Same<z.output<typeof keyViewBody>, KeyView>>,
  Expect<Same<z.output<typeof ssoConnectionBody>, SsoConnectionView>>,
  Expect<Same<z.output<typeof tagCountsBody>, TagCounts>>,
  Expect<Same<z.output<typeof deliveryAttemptBody>, DeliveryAttempt>>,
  Expect<Same<z.output<typeof clickEventDataBody>, ClickData>>,
  Expect<Same<z.output<typeof bulkResultBody>, BulkOutcome>>,
];

/** Issue 31: an import job as GET /v2/imports/{id} answers it (domain/imports/import-job.ts `ImportSummary`). */
export const importRowResultBody = z.strictObject({
  row: count,
  outcome: z.enum(['created', 'renamed', 'skipped', 'failed', 'existing']),
  code: z.optional(z.string()),
  domain: z.optional(z.string()),
  reason: z.optional(z.string()),
});
const importCounts = {
  id: z.string(),
  source: z.enum(IMPORT_SOURCES),
  status: z.enum(['running', 'done', 'failed']),
  createdAt: timestamp,
  read: count,
  created: count,
  renamed: count,
  skipped: count,
  failed: count,
  existing: count,
};
export const importViewBody = z.strictObject({ ...importCounts, results: z.array(importRowResultBody) });
export const importListBody = z.strictObject({ imports: z.array(z.strictObject(importCounts)) });
export const importStartedBody = z.strictObject({ id: z.string() });
/** POST /v2/imports/preview (domain/imports/import-preview.ts `ImportPreview`). */
export const importPreviewBody = z.strictObject({
  source: z.enum(IMPORT_SOURCES),
  read: count,
  rows: z.array(
    z.union([
      z.strictObject({
        row: count,
        outcome: z.literal('ready'),
        url: z.string(),
        slug: z.optional(z.string()),
        domain: z.optional(z.string()),
        title: z.optional(z.string()),
        tags: z.optional(z.array(z.string())),
        createdAt: timestamp,
        expiresAt: z.optional(timestamp),
        importedClicks: count,
        notes: z.array(z.string()),
      }),
      z.strictObject({ row: count, outcome: z.literal('failed'), reason: z.string() }),
    ]),
  ),
});
/** Fails to compile when the preview's schema and the domain's type drift apart. */
export type PreviewMatchesTheDomain = Expect<Same<z.output<typeof importPreviewBody>, ImportPreview>>;
