import * as z from 'zod/mini';
import { statsQuerySchema } from '../../domain/analytics/link-stats';
import { workspaceStatsQuerySchema } from '../../domain/analytics/workspace-stats';
import { SKETCH_STANDARD_ERROR } from '../../domain/analytics/visitor-sketch';
import { MAX_BATCH_ITEMS } from '../../domain/links/batch-request';
import { linkPatchSchema, linkRequestSchema } from '../../domain/links/link-request';
import { smartLinkPatchShape, smartLinkRequestShape } from '../../domain/destinations/smart-link-request';
import { listQuerySchema, MAX_LINKS_FOR_TAGS } from '../../domain/links/link-listing';
import { bulkRequestSchema, MAX_BULK_CODES, MAX_BULK_FILTER_LINKS } from '../../domain/links/bulk-request';
import { qrQuerySchema } from '../qr-code';
import type { ApiRouteKey } from '../routes';
import { domainPatchSchema, domainRequestSchema } from '../../domain/domains/domain-management';
import { deliveriesQuerySchema, webhookPatchSchema, webhookRequestSchema, webhookRotationSchema } from '../../domain/webhooks/webhook-request';
import { MAX_WEBHOOKS_PER_ACCOUNT } from '../../domain/webhooks/webhook';
import { invitationRequestSchema, memberPatchSchema, workspacePatchSchema } from '../../domain/workspaces/people-requests';
import { PEOPLE_OPERATIONS } from './people-operations';
import { auditQuerySchema } from '../../domain/audit/audit-listing';
import { keyRequestSchema, MAX_KEY_LIFETIME_DAYS, MAX_KEY_NAME_LENGTH, MAX_KEYS_PER_WORKSPACE } from '../../domain/accounts/key-request';
import { importRequestSchema, LISTED_IMPORTS, MAX_IMPORT_ROWS } from '../../domain/imports/import-management';
import { PREVIEW_ROWS } from '../../domain/imports/import-preview';
import {
  auditPageBody,
  batchResultBody,
  bulkResultBody,
  createdLinkBody,
  deliveryPageBody,
  domainListBody,
  domainViewBody,
  healthBody,
  keyListBody,
  keyWithSecretBody,
  importListBody,
  importStartedBody,
  importPreviewBody,
  importViewBody,
  linkPageBody,
  linkStatsBody,
  liveStatsBody,
  workspaceStatsBody,
  linkViewBody,
  tagCountsBody,
  usageBody,
  webhookListBody,
  meBody,
  webhookTestBody,
  webhookViewBody,
  webhookWithSecretBody,
  ssoConnectionBody,
  ssoListBody,
} from './response-bodies';
import { ssoRequestSchema } from '../../domain/sso/sso-request';

/** The error answers the document describes once, in components.responses, by status. */
export const ERROR_RESPONSES = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Gone',
  413: 'PayloadTooLarge',
  422: 'IdempotencyKeyReused',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
} as const;

export type ErrorStatus = keyof typeof ERROR_RESPONSES;

export type Tag = 'Links' | 'Imports' | 'Analytics' | 'Account' | 'Workspace' | 'Domains' | 'Webhooks' | 'Keys' | 'Single sign-on' | 'Audit log' | 'Anonymous (v1)' | 'Service';

type Content = { schema: z.ZodMiniType } | { raw: Record<string, unknown> };

export interface OperationDoc {
  operationId: string;
  summary: string;
  description: string;
  tag: Tag;
  /** A REQUEST authorizer checks the Bearer key; the others are open. */
  bearer: boolean;
  /** Goes through the API guard: maintenance, per-minute limit, monthly quota, rate-limit headers. */
  guarded: boolean;
  query?: z.ZodMiniObject;
  body?: 'link' | 'batch' | 'patch' | 'domain' | 'domainPatch' | 'webhook' | 'webhookPatch' | 'webhookRotation' | 'workspacePatch' | 'memberPatch' | 'invitation' | 'key' | 'sso' | 'import' | 'bulk';
  /** Takes an Idempotency-Key. */
  idempotent?: boolean;
  success: { status: 200 | 201 | 202 | 204; description: string; content?: Record<string, Content> };
  errors: readonly ErrorStatus[];
}

const json = (schema: z.ZodMiniType) => ({ 'application/json': { schema } });

const CREATION_ERRORS = [400, 409, 413, 422, 429, 500, 503] as const;
const LINK_ERRORS = [401, 404, 429, 500, 503] as const;

/** What every stats body says of bots, dimensions and unique visitors (issue 30). */
const STATS_NOTES = `Bots (isbot's list, link-preview fetchers, HEAD requests) are counted apart as \`bots\` and in no other figure unless \`bots=include\`. Browser, OS, region, city and the visit's own utm_source, utm_medium and utm_campaign come as their window's top 50 values with the rest as \`other\`; values are text as received, never markup. \`unique\` estimates distinct visitors per day (HyperLogLog, standard error ${(SKETCH_STANDARD_ERROR * 100).toFixed(1)} %) from a hash under a salt that changes every UTC day: the window's figure is the sum of its days, so a visitor who comes back on another day counts again.`;
/** Every domain route answers 400 while the customDomains flag is off. */
const DOMAIN_ERRORS = [400, 401, 404, 429, 500, 503] as const;
/** Every webhook route answers 400 while the webhooks flag is off and 403 on FREE. */
const WEBHOOK_ERRORS = [400, 401, 403, 404, 429, 500, 503] as const;
const webhookRoute = (doc: Omit<OperationDoc, 'tag' | 'bearer' | 'guarded' | 'errors'> & { errors?: readonly ErrorStatus[] }): OperationDoc => ({
  tag: 'Webhooks',
  bearer: true,
  guarded: true,
  errors: WEBHOOK_ERRORS,
  ...doc,
});
/** People only: an owner changes a workspace's sign-in (security:manage), every member reads it (workspace:read). */
const ssoRoute = (doc: Omit<OperationDoc, 'tag' | 'bearer' | 'guarded'>): OperationDoc => ({ tag: 'Single sign-on', bearer: true, guarded: true, ...doc });
const onDomain = ' Without `domain`, the account\'s default domain (the shared one when it has none).';
const domainQuery = z.object({ domain: z.optional(z.string()) });

/** The two v2 creations; their v1 twins differ in name, key and errors only. */
const CREATE_LINK: OperationDoc = {
  operationId: 'createLink',
  summary: 'Create a short link',
  description:
    'Creates one short link (spec 4.1). The destination is checked by the URL safety check first. A smart link also carries `rules` (the first whose conditions all hold picks the destination; PRO and up), `variants` (an A/B split kept per browser for 30 days; PRO and up), `forwardQuery`, `utm` and `expiredUrl`; every URL among them passes the same checks, and a problem names its field (`rules[2].url: ...`).',
  tag: 'Links',
  bearer: true,
  guarded: true,
  body: 'link',
  idempotent: true,
  success: { status: 201, description: 'The link was created.', content: json(createdLinkBody) },
  errors: [...CREATION_ERRORS, 401, 403],
};

const CREATE_LINKS: OperationDoc = {
  operationId: 'createLinks',
  summary: `Create up to ${MAX_BATCH_ITEMS} short links`,
  description: 'Creates each item on its own (spec 4.2): the answer is 200 even when some or all items failed, each result saying how its item fared. The batch counts as one call for both limits.',
  tag: 'Links',
  bearer: true,
  guarded: true,
  body: 'batch',
  idempotent: true,
  success: { status: 200, description: 'One result per item, in order.', content: json(batchResultBody) },
  errors: [...CREATION_ERRORS, 401],
};

/** Every API route of routes.ts, described; the compiler refuses a route without its description. */
export const OPERATIONS: Record<ApiRouteKey, OperationDoc> = {
  'POST /v2/shorten': CREATE_LINK,
  'POST /v2/shorten/batch': CREATE_LINKS,
  'GET /v2/links': {
    operationId: 'listLinks',
    summary: "List the account's links",
    description: 'Newest first, a page at a time; pass `nextCursor` back as `cursor` for the next page (null on the last). `status` and `domain` (a custom domain, or the shared domain\'s host) filter; a filtered page examines at most 1,000 links, so it may hold fewer than `limit` with a `nextCursor`. `health=broken` (PRO and up: 403 below) keeps the active links whose destinations two checks in a row found broken and none has found recovered since.',
    tag: 'Links',
    bearer: true,
    guarded: true,
    query: listQuerySchema(),
    success: { status: 200, description: 'A page of links.', content: json(linkPageBody) },
    errors: [400, 401, 403, 429, 500, 503],
  },
  'GET /v2/links/{code}': {
    operationId: 'getLink',
    summary: 'View a link',
    description: `One of the account's links with its click count and status. Other accounts' links answer 404.${onDomain}`,
    tag: 'Links',
    bearer: true,
    guarded: true,
    query: domainQuery,
    success: { status: 200, description: 'The link.', content: json(linkViewBody) },
    errors: LINK_ERRORS,
  },
  'PATCH /v2/links/{code}': {
    operationId: 'updateLink',
    summary: 'Change a link',
    description: `Changes the destination, expiry, click limit, password or smart-link fields; \`rules\` and \`variants\` are replaced as a whole, and \`null\` removes any optional field. Visitors see the change within 60 seconds (30 for a link with rules or variants, which no browser keeps).${onDomain}`,
    tag: 'Links',
    bearer: true,
    guarded: true,
    query: domainQuery,
    body: 'patch',
    success: { status: 200, description: 'The link as changed.', content: json(linkViewBody) },
    errors: [400, 403, 409, 410, 413, ...LINK_ERRORS],
  },
  'DELETE /v2/links/{code}': {
    operationId: 'deleteLink',
    summary: 'Delete a link',
    description: `Visitors get 410 from then on; the code is never given out again.${onDomain}`,
    tag: 'Links',
    bearer: true,
    guarded: true,
    query: domainQuery,
    success: { status: 204, description: 'The link was deleted.' },
    errors: [409, 410, ...LINK_ERRORS],
  },
  'POST /v2/links/bulk': {
    operationId: 'bulkChangeLinks',
    summary: 'Delete, change or tag many links',
    description: `One action on up to ${MAX_BULK_CODES} \`codes\` (on \`domain\`, as for one link) or on the links a \`filter\` picks (\`tag\`, \`search\`, \`domain\`, \`status\`, as GET /v2/links filters): \`delete\`, \`update\` with \`changes\` as PATCH /v2/links/{code} takes them, \`addTags\` or \`removeTags\` with \`tags\`. Each link is changed by its own write, with its own webhook events and audit record; a link changed by someone else after this request read it keeps that change, and its result says so. The answer has one result per code in the request's order (per link, newest first, for a filter), each with the message the single route would answer when it failed; another workspace's code answers \`Link not found\`, as one that does not exist. A filter changes at most ${MAX_BULK_FILTER_LINKS.toLocaleString('en')} links a call and stops sooner when the call's time runs short: pass \`cursor\` back with the same filter to go on (absent once done).${onDomain}`,
    tag: 'Links',
    bearer: true,
    guarded: true,
    query: domainQuery,
    body: 'bulk',
    success: { status: 200, description: 'One result per link, in order.', content: json(bulkResultBody) },
    errors: [400, 401, 403, 413, 429, 500, 503],
  },
  'GET /v2/links/{code}/qr': {
    operationId: 'getLinkQrCode',
    summary: "A link's QR code",
    description: `The QR code of the short URL, as SVG (the default) or PNG.${onDomain}`,
    tag: 'Links',
    bearer: true,
    guarded: true,
    query: z.extend(qrQuerySchema(), domainQuery.shape),
    success: {
      status: 200,
      description: 'The QR code image.',
      content: {
        'image/svg+xml': { raw: { schema: { type: 'string' } } },
        'image/png': { raw: { schema: { type: 'string', contentMediaType: 'image/png' } } },
      },
    },
    errors: [400, ...LINK_ERRORS],
  },
  'GET /v2/links/{code}/stats': {
    operationId: 'getLinkStats',
    summary: "A link's clicks",
    description: `Counted redirects per day (UTC), country, referring host, device class and destination (\`default\`, \`rules[i]\`, \`variants[i]\`, \`expiredUrl\`: an A/B test read off) over the last \`days\` days; \`total\` is all clicks ever, which visits of an ended link sent to its expiredUrl do not add to. ${STATS_NOTES}${onDomain}`,
    tag: 'Analytics',
    bearer: true,
    guarded: true,
    query: z.extend(statsQuerySchema(), domainQuery.shape),
    success: {
      status: 200,
      description: 'The counts; with `format=csv`, the window as CSV (`date,dimension,value,clicks`): one row per day and dimension value (`clicks`, `bots` and `unique` rows first), no top cut.',
      content: { ...json(linkStatsBody), 'text/csv': { raw: { schema: { type: 'string' } } } },
    },
    errors: [400, ...LINK_ERRORS],
  },
  'GET /v2/links/{code}/stats/live': {
    operationId: 'getLinkLiveStats',
    summary: "A link's last hour, live",
    description: `People's clicks and bots' visits in each of the last 60 minutes (UTC), oldest first, as far as the aggregator has counted them (a few seconds behind the visits).${onDomain}`,
    tag: 'Analytics',
    bearer: true,
    guarded: true,
    query: domainQuery,
    success: { status: 200, description: 'The minutes.', content: json(liveStatsBody) },
    errors: LINK_ERRORS,
  },
  'GET /v2/stats': {
    operationId: 'getWorkspaceStats',
    summary: 'The whole workspace at a glance',
    description: `Every link of the workspace added up over the last \`days\` days: clicks, unique visitors and bots per day, the ten most clicked links, and every dimension of a link's stats. \`domain\` narrows it to one custom domain's links, \`tag\` to the links carrying a tag (both: both). \`total\` and \`bots\` are the window's. ${STATS_NOTES}`,
    tag: 'Analytics',
    bearer: true,
    guarded: true,
    query: workspaceStatsQuerySchema(),
    success: { status: 200, description: 'The counts.', content: json(workspaceStatsBody) },
    errors: [400, 401, 429, 500, 503],
  },
  'GET /v2/stats/live': {
    operationId: 'getWorkspaceLiveStats',
    summary: 'The whole workspace\'s last hour, live',
    description: 'People\'s clicks and bots\' visits on all the workspace\'s links in each of the last 60 minutes (UTC), oldest first, as far as the aggregator has counted them.',
    tag: 'Analytics',
    bearer: true,
    guarded: true,
    success: { status: 200, description: 'The minutes.', content: json(liveStatsBody) },
    errors: [401, 429, 500, 503],
  },
  'GET /v2/tags': {
    operationId: 'listTags',
    summary: "The account's tags",
    description: `Every tag on the account's links with how many carry it, most used first. It reads the account's newest ${MAX_LINKS_FOR_TAGS.toLocaleString('en')} links at most; \`complete\` is false when there are more.`,
    tag: 'Links',
    bearer: true,
    guarded: true,
    success: { status: 200, description: 'The tags.', content: json(tagCountsBody) },
    errors: [401, 429, 500, 503],
  },
  'GET /v2/usage': {
    operationId: 'getUsage',
    summary: "The account's usage",
    description: "This month's calls against the plan's limit (shared by the account's keys) and this key's minute window.",
    tag: 'Account',
    bearer: true,
    guarded: true,
    success: { status: 200, description: 'The usage.', content: json(usageBody) },
    errors: [401, 429, 500, 503],
  },
  'GET /v2/me': {
    operationId: 'getMe',
    summary: 'The signed-in person and their workspaces',
    description:
      "A person's own route (a Cognito access token, no `Shortener-Workspace` header needed): their user id (`sub`) and email, and every workspace they are a member of with their role there. API keys are refused (403): they belong to a workspace, not to a person. Not counted against any workspace's limits.",
    tag: 'Account',
    bearer: true,
    guarded: false,
    success: { status: 200, description: 'The person and their workspaces.', content: json(meBody) },
    errors: [401, 403, 500],
  },
  'GET /v2/domains': {
    operationId: 'listDomains',
    summary: "List the account's domains",
    description: 'Every custom domain of the account, oldest first (an account holds at most what its plan allows).',
    tag: 'Domains',
    bearer: true,
    guarded: true,
    success: { status: 200, description: 'The domains.', content: json(domainListBody) },
    errors: [400, 401, 429, 500, 503],
  },
  'POST /v2/domains': {
    operationId: 'addDomain',
    summary: 'Add a custom domain',
    description:
      'Claims the name for the account (409 when any account holds it, when it is held for the account that removed it in the last 7 days, or when the platform took it down). It is `pending` until its TXT record `_shortener-challenge.<domain>` holds this claim\'s value and its CNAME (`dnsRecords`) points at the service and its certificate is issued, checked every 5 minutes for a day, then hourly; after 7 days it is `failed`, and anyone may claim a failed name. Plans: FREE none, INDIE 1, PRO 10, ENTERPRISE unlimited.',
    tag: 'Domains',
    bearer: true,
    guarded: true,
    body: 'domain',
    success: { status: 201, description: 'The domain, pending.', content: json(domainViewBody) },
    errors: [400, 401, 403, 409, 413, 429, 500, 503],
  },
  'GET /v2/domains/{domain}': {
    operationId: 'getDomain',
    summary: 'View a domain',
    description: 'Its status, why it is not active yet (`statusReason`), the DNS records to create and its settings.',
    tag: 'Domains',
    bearer: true,
    guarded: true,
    success: { status: 200, description: 'The domain.', content: json(domainViewBody) },
    errors: DOMAIN_ERRORS,
  },
  'PATCH /v2/domains/{domain}': {
    operationId: 'updateDomain',
    summary: 'Change a domain',
    description:
      '`isDefault: true` makes an active domain the account\'s default (new links go there when they name no domain), unsetting the previous one. `rootUrl`, `notFoundUrl` and `expiredUrl` are where visitors of its root, of an unknown code and of a link that ran out go (302); `null` removes one.',
    tag: 'Domains',
    bearer: true,
    guarded: true,
    body: 'domainPatch',
    success: { status: 200, description: 'The domain as changed.', content: json(domainViewBody) },
    errors: [413, ...DOMAIN_ERRORS],
  },
  'DELETE /v2/domains/{domain}': {
    operationId: 'deleteDomain',
    summary: 'Remove a domain',
    description:
      'It stops serving at once; its links become `deleted` in the background. A verified name stays held for this account for 7 days (anyone else\'s claim gets 409; this account may claim it again); one never verified is free at once. A domain the platform disabled cannot be removed (409).',
    tag: 'Domains',
    bearer: true,
    guarded: true,
    success: { status: 204, description: 'The domain was removed.' },
    errors: [409, ...DOMAIN_ERRORS],
  },
  'POST /v2/domains/{domain}/verify': {
    operationId: 'verifyDomain',
    summary: 'Check a domain now',
    description:
      'Checks its TXT record, then its DNS and certificate, now rather than on the schedule; a `failed` domain starts a new 7 days of checks. At most once a minute per domain: sooner is a 429 with `Retry-After`.',
    tag: 'Domains',
    bearer: true,
    guarded: true,
    success: { status: 200, description: 'The domain after the check.', content: json(domainViewBody) },
    errors: DOMAIN_ERRORS,
  },
  'POST /v2/imports': {
    operationId: 'startImport',
    summary: 'Import links from another shortener',
    description: `Reads \`content\`, the text of a file exported by \`source\` (docs/imports.md says how each is read), and makes its links in the background with their slugs, titles, tags, dates and click totals (\`importedClicks\`). \`onConflict\`: \`skip\` (the default) or \`rename\` a row whose slug is taken or not allowed here. Up to ${MAX_IMPORT_ROWS} rows; one call per 50 rows counts against the monthly quota. The same file again creates nothing new. A file that cannot be read at all is a 400.`,
    tag: 'Imports',
    bearer: true,
    guarded: true,
    body: 'import',
    success: { status: 202, description: 'The import started: follow it at /v2/imports/{id}.', content: json(importStartedBody) },
    errors: [400, 401, 403, 413, 429, 500, 503],
  },
  'POST /v2/imports/preview': {
    operationId: 'previewImport',
    summary: 'Preview an import',
    description: `The same body as POST /v2/imports: the file read and mapped by the same rules, and its first ${PREVIEW_ROWS} rows shown as the import would make them (or why it would not), with the number of rows in the file. Nothing is stored; a slug already taken shows only when the import runs. A file the import would refuse is the same 400.`,
    tag: 'Imports',
    bearer: true,
    guarded: true,
    body: 'import',
    success: { status: 200, description: 'The first rows, mapped.', content: json(importPreviewBody) },
    errors: [400, 401, 403, 413, 429, 500, 503],
  },
  'GET /v2/imports': {
    operationId: 'listImports',
    summary: "List the workspace's imports",
    description: `The latest ${LISTED_IMPORTS} imports, newest first, with their counts.`,
    tag: 'Imports',
    bearer: true,
    guarded: true,
    success: { status: 200, description: 'The imports.', content: json(importListBody) },
    errors: [401, 403, 429, 500, 503],
  },
  'GET /v2/imports/{id}': {
    operationId: 'getImport',
    summary: 'Follow an import',
    description: '`running` until every row is settled, then `done`; the counts, and each failed, renamed or skipped row with its reason.',
    tag: 'Imports',
    bearer: true,
    guarded: true,
    success: { status: 200, description: 'The import.', content: json(importViewBody) },
    errors: [401, 403, 404, 429, 500, 503],
  },
  'GET /v2/webhooks': webhookRoute({
    operationId: 'listWebhooks',
    summary: "List the account's webhooks",
    description: 'Every webhook of the account, oldest first, without secrets.',
    success: { status: 200, description: 'The webhooks.', content: json(webhookListBody) },
    errors: [400, 401, 403, 429, 500, 503],
  }),
  'POST /v2/webhooks': webhookRoute({
    operationId: 'addWebhook',
    summary: 'Add a webhook',
    description: `Events of the account (see the document's \`webhooks\`) are POSTed to \`url\`, signed by the Standard Webhooks scheme with the \`secret\` shown in this answer only. The URL follows a link destination's rules and must be https. At most ${MAX_WEBHOOKS_PER_ACCOUNT} per account; INDIE and up.`,
    body: 'webhook',
    success: { status: 201, description: 'The webhook and its signing secret.', content: json(webhookWithSecretBody) },
    errors: [400, 401, 403, 413, 429, 500, 503],
  }),
  'GET /v2/webhooks/{id}': webhookRoute({
    operationId: 'getWebhook',
    summary: 'View a webhook',
    description: 'Its settings and, when the service turned it off (a 410 answer, or 5 days of failed attempts), why.',
    success: { status: 200, description: 'The webhook.', content: json(webhookViewBody) },
  }),
  'PATCH /v2/webhooks/{id}': webhookRoute({
    operationId: 'updateWebhook',
    summary: 'Change a webhook',
    description: '`url`, `events`, `description`, `enabled`. `enabled: true` restarts a webhook the service turned off.',
    body: 'webhookPatch',
    success: { status: 200, description: 'The webhook as changed.', content: json(webhookViewBody) },
    errors: [413, ...WEBHOOK_ERRORS],
  }),
  'DELETE /v2/webhooks/{id}': webhookRoute({
    operationId: 'deleteWebhook',
    summary: 'Remove a webhook',
    description: 'No delivery starts after this, queued and retried ones included.',
    success: { status: 204, description: 'The webhook was removed.' },
  }),
  'POST /v2/webhooks/{id}/rotate-secret': webhookRoute({
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate the signing secret',
    description:
      'A new secret, shown in this answer only. For 24 hours deliveries carry two signatures, under the new and the old secret, so receivers can switch without missing one; with `{"expirePrevious": true}` (for a secret that leaked) the old one stops signing at once. The body is optional.',
    body: 'webhookRotation',
    errors: [413, ...WEBHOOK_ERRORS],
    success: { status: 200, description: 'The webhook and its new secret.', content: json(webhookWithSecretBody) },
  }),
  'POST /v2/webhooks/{id}/test': webhookRoute({
    operationId: 'testWebhook',
    summary: 'Send a test event',
    description: 'Queues a `webhook.test` event, delivered like any other (a disabled webhook gets it too); the delivery log shows how it went.',
    success: { status: 202, description: 'The event was queued.', content: json(webhookTestBody) },
  }),
  'GET /v2/webhooks/{id}/deliveries': webhookRoute({
    operationId: 'listWebhookDeliveries',
    summary: "A webhook's delivery attempts",
    description: 'The latest attempts, newest first, kept 30 days: the status the endpoint answered, or the error (timeout, refused address, connection failure), and how long it took. Answers themselves are never kept.',
    query: deliveriesQuerySchema(),
    success: { status: 200, description: 'A page of attempts; pass `nextCursor` as `cursor` for the next.', content: json(deliveryPageBody) },
  }),
  ...PEOPLE_OPERATIONS,
  'GET /v2/keys': {
    operationId: 'listKeys',
    summary: "List the workspace's keys",
    description: 'Every key of the workspace that is not revoked, oldest first: its name, scopes, status, who made it, when it expires and when it was last used (to the hour). Never a secret: a key is shown once, when made.',
    tag: 'Keys',
    bearer: true,
    guarded: true,
    success: { status: 200, description: 'The keys.', content: json(keyListBody) },
    errors: [401, 429, 500, 503],
  },
  'POST /v2/keys': {
    operationId: 'createKey',
    summary: 'Make a key',
    description: `A key holding \`scopes\` only, and never more than its maker's role allows (a member cannot give \`domains:write\`: 403 naming the scope). \`name\` is 1 to ${MAX_KEY_NAME_LENGTH} characters; \`expiresAt\`, if set, is at most ${MAX_KEY_LIFETIME_DAYS} days ahead, after which the key is refused as inactive (401). The key itself is in this answer only. At most ${MAX_KEYS_PER_WORKSPACE} keys per workspace.`,
    tag: 'Keys',
    bearer: true,
    guarded: true,
    body: 'key',
    success: { status: 201, description: 'The key, with its secret (shown this once).', content: json(keyWithSecretBody) },
    errors: [400, 401, 413, 429, 500, 503],
  },
  'DELETE /v2/keys/{id}': {
    operationId: 'revokeKey',
    summary: 'Revoke a key',
    description: "Its next request is refused (401). Another workspace's key and an unknown id answer 404 alike.",
    tag: 'Keys',
    bearer: true,
    guarded: true,
    success: { status: 204, description: 'The key was revoked.' },
    errors: [401, 404, 429, 500, 503],
  },
  'GET /v2/sso': ssoRoute({
    operationId: 'listSsoConnections',
    summary: "List the workspace's single sign-on connections",
    description: 'Each email domain connected to an identity provider, with the TXT record that proves the domain. Read by every member.',
    success: { status: 200, description: 'The connections.', content: json(ssoListBody) },
    errors: [401, 403, 429, 500, 503],
  }),
  'POST /v2/sso': ssoRoute({
    operationId: 'addSsoConnection',
    summary: 'Connect an email domain to an identity provider',
    description:
      "ENTERPRISE. Registers an OIDC or SAML provider for the domain's people; it stays `pending`, used by nobody, until the TXT record in `dnsRecord` is published and `POST /v2/sso/{domain}/verify` finds it. The OIDC client secret goes to the user pool and is never shown again or stored by the service. A domain is connected by one workspace only.",
    body: 'sso',
    success: { status: 201, description: 'The pending connection and its TXT record.', content: json(ssoConnectionBody) },
    errors: [400, 401, 403, 409, 413, 429, 500, 503],
  }),
  'GET /v2/sso/{domain}': ssoRoute({
    operationId: 'getSsoConnection',
    summary: 'View a single sign-on connection',
    description: "One of the workspace's connections; another workspace's or none at all is 404.",
    success: { status: 200, description: 'The connection.', content: json(ssoConnectionBody) },
    errors: [401, 403, 404, 429, 500, 503],
  }),
  'DELETE /v2/sso/{domain}': ssoRoute({
    operationId: 'removeSsoConnection',
    summary: 'Disconnect an email domain',
    description: "The provider leaves the user pool first, so nobody signs in through a connection the workspace no longer has; the domain's people sign in with their passwords again.",
    success: { status: 204, description: 'Disconnected.' },
    errors: [401, 403, 404, 429, 500, 503],
  }),
  'POST /v2/sso/{domain}/verify': ssoRoute({
    operationId: 'verifySsoConnection',
    summary: "Prove the domain and send its people to the provider",
    description: "Looks up the TXT record; found, the connection becomes `active` and the domain's people sign in through the provider from their next sign-in. Not found yet: 409, the connection stays pending.",
    success: { status: 200, description: 'The active connection.', content: json(ssoConnectionBody) },
    errors: [401, 403, 404, 409, 429, 500, 503],
  }),
  'GET /v2/audit-log': {
    operationId: 'listAuditLog',
    summary: "The workspace's audit log",
    description:
      'Every change to the workspace\'s links, domains, webhooks, keys and people, newest first, kept 365 days: who (a key, a person or an operator), the action (`link.updated`…), the target, the fields before and after (a password, hash, key or secret only as `{"changed": true}`) and the request id. Filters: `actor` (a key id, a user id or `operator`), `action`, `target` (a link\'s code, a domain, a webhook id…), `from` and `to` (ISO times, inclusive). A filtered page examines at most 1,000 records, so it may hold fewer than `limit` with a `nextCursor`. Records cannot be edited or deleted.',
    tag: 'Audit log',
    bearer: true,
    guarded: true,
    query: auditQuerySchema(),
    success: { status: 200, description: 'A page of records; pass `nextCursor` as `cursor` for the next.', content: json(auditPageBody) },
    errors: [400, 401, 403, 429, 500, 503],
  },
  'GET /v2/openapi.json': {
    operationId: 'getOpenApiDocument',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the API, generated from the schemas the service validates with.',
    tag: 'Service',
    bearer: false,
    guarded: false,
    success: { status: 200, description: 'The OpenAPI document.', content: { 'application/json': { raw: { schema: { type: 'object' } } } } },
    errors: [429, 500],
  },
  'POST /v1/shorten': {
    ...CREATE_LINK,
    operationId: 'createLinkAnonymously',
    summary: 'Create a short link without a key',
    description: 'The earlier unauthenticated endpoint: as POST /v2/shorten, limited per source address and without a monthly quota.',
    tag: 'Anonymous (v1)',
    bearer: false,
    errors: [...CREATION_ERRORS, 403],
  },
  'POST /v1/shorten/batch': {
    ...CREATE_LINKS,
    operationId: 'createLinksAnonymously',
    summary: `Create up to ${MAX_BATCH_ITEMS} short links without a key`,
    description: 'The earlier unauthenticated endpoint: as POST /v2/shorten/batch, limited per source address.',
    tag: 'Anonymous (v1)',
    bearer: false,
    errors: CREATION_ERRORS,
  },
  'GET /health': {
    operationId: 'getHealth',
    summary: 'Liveness',
    description: 'Answered by API Gateway itself: it says the API is reachable, nothing about its dependencies.',
    tag: 'Service',
    bearer: false,
    guarded: false,
    success: { status: 200, description: 'The API is reachable.', content: json(healthBody) },
    errors: [429],
  },
  'GET /docs': {
    operationId: 'getApiReference',
    summary: 'The API reference page',
    description: 'This document rendered as a page, with everything it needs inside: it loads nothing from other hosts.',
    tag: 'Service',
    bearer: false,
    guarded: false,
    success: { status: 200, description: 'The page.', content: { 'text/html': { raw: { schema: { type: 'string' } } } } },
    errors: [429, 500],
  },
};

/** The request bodies' schemas, by kind: what the handlers parse with. */
export const REQUEST_BODIES = {
  link: z.extend(linkRequestSchema(), smartLinkRequestShape),
  patch: z.extend(linkPatchSchema(), smartLinkPatchShape),
  domain: domainRequestSchema(),
  domainPatch: domainPatchSchema(),
  webhook: webhookRequestSchema(),
  webhookPatch: webhookPatchSchema(),
  webhookRotation: webhookRotationSchema(),
  key: keyRequestSchema(),
  workspacePatch: workspacePatchSchema(),
  memberPatch: memberPatchSchema(),
  invitation: invitationRequestSchema(),
  // The document describes AWS's rules (https only); a local run also allow-lists its stand-in provider's host.
  sso: ssoRequestSchema(new Set()),
  import: importRequestSchema(),
  bulk: bulkRequestSchema(z.extend(linkPatchSchema(), smartLinkPatchShape)),
} as const;

/** Bodies a caller may leave out. */
export const OPTIONAL_BODIES: ReadonlySet<keyof typeof REQUEST_BODIES> = new Set(['webhookRotation']);
