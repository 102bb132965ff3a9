import { MAX_SSO_CONNECTIONS } from '../../domain/sso/sso-connection';
import * as z from 'zod/mini';
import { batchRequestSchema } from '../../domain/links/batch-request';
import { Messages, OwnMessages } from '../../domain/messages';
import { RATE_LIMITS } from '../../domain/limits/rate-limits';
import { describeBytes, MAX_BODY_BYTES } from '../body-limits';
import { idempotencyKeySchema } from '../idempotency-key';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_TTL_SECONDS, IDEMPOTENT_REPLAYED_HEADER } from '../idempotency-terms';
import { permissionFor, type ApiRouteKey } from '../routes';
import { isPeoplePower, needsMembership, ROLES, roleAllows, type Permission } from '../../domain/accounts/permissions';
import { ERROR_RESPONSES, OPERATIONS, OPTIONAL_BODIES, REQUEST_BODIES, type OperationDoc, type Tag } from './operations';
import { webhookEvents } from './webhook-events';
import {
  mfaRequiredBody,
  notPermittedBody,
  planRequiredBody,
  quotaExceededBody,
  rateLimitedBody,
  requestErrorBody,
  statusErrorBody,
  unavailableMessages,
} from './response-bodies';

type Json = Record<string, unknown>;

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a zod schema: requests as clients send them, answers as sent. */
function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output' = 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  return rest;
}

/** A variant of an answer, named for the reference page's selector. */
const titled = (title: string, schema: z.ZodMiniType) => ({ title, ...jsonSchema(schema) });

const jsonContent = (schema: z.ZodMiniType) => ({ 'application/json': { schema: jsonSchema(schema) } });

/** Each request body as the handlers parse it; a batch's items are link requests, judged one by one. */
function requestBody(kind: NonNullable<OperationDoc['body']>): Json {
  if (kind !== 'batch') return { required: !OPTIONAL_BODIES.has(kind), content: { 'application/json': { schema: jsonSchema(REQUEST_BODIES[kind], 'input') } } };
  const batch = jsonSchema(batchRequestSchema(), 'input') as { properties: { urls: Json } };
  batch.properties.urls = { ...batch.properties.urls, items: jsonSchema(REQUEST_BODIES.link, 'input') };
  return { required: true, content: { 'application/json': { schema: batch } } };
}

const header = (description: string, schema: Json, required = false) => ({ description, required, schema });

const HEADERS = {
  RateLimitLimit: header("Requests allowed in the caller's minute window.", { type: 'integer' }, true),
  RateLimitRemaining: header('Requests left in the window.', { type: 'integer' }, true),
  RateLimitReset: header('When the window ends, in Unix seconds.', { type: 'integer' }, true),
  RetryAfter: header('Seconds to wait before trying again.', { type: 'integer' }, true),
  IdempotentReplayed: header('`true` when this is the stored answer to an earlier request with the same Idempotency-Key.', { type: 'string', enum: ['true'] }),
};

const rateLimitHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};

const list = (messages: readonly string[]) => messages.map((message) => `- ${message}`).join('\n');

/** The spec's 400 messages (7.2, 7.3) and the body and field ones it leaves to us, each from the one message table. */
const BAD_REQUEST_MESSAGES: readonly string[] = [
  ...(['invalidUrl', 'aliasTaken', 'aliasReserved', 'aliasLength', 'passwordLength', 'expiresInTooShort', 'unsafeUrl'] as const).map((key) => Messages[key]),
  ...(['shorteningDisabled', 'aliasesDisabled', 'passwordsDisabled', 'expirationDisabled', 'batchTooLarge', 'batchEmpty'] as const).map((key) => Messages[key]),
  ...(['aliasCharacters', 'maxClicksInvalid', 'maxClicksTooLarge', 'expiresInInvalid', 'expiresInTooLarge', 'contentType'] as const).map((key) => OwnMessages[key]),
  ...(['bodyNotObject', 'bodyMalformed', 'urlsNotArray', 'itemNotObject', 'patchEmpty', 'idempotencyKeyInvalid'] as const).map((key) => OwnMessages[key]),
  ...(['domainsDisabled', 'domainInvalid', 'domainParameter', 'domainPatchEmpty'] as const).map((key) => OwnMessages[key]),
  ...(['memberRole', 'invitationEmail', 'workspaceName', 'workspaceSecurity', 'workspacePatchEmpty', 'analyticsSwitches'] as const).map((key) => OwnMessages[key]),
  OwnMessages.domainNotUsable('<domain>'),
  OwnMessages.smartLinksDisabled,
  ...(['ssoDomainInvalid', 'ssoProtocol', 'ssoOidc', 'ssoSaml'] as const).map((key) => OwnMessages[key]),
  OwnMessages.ssoLimit(MAX_SSO_CONNECTIONS),
  // A smart-link field's problem names its path, however deep (issue 18).
  OwnMessages.smartFieldProblem('rules[2].url', Messages.invalidUrl),
  OwnMessages.smartFieldProblem('rules[0].when.country[1]', OwnMessages.countryUnknown),
  OwnMessages.smartFieldProblem('variants', OwnMessages.variantWeightsTotal),
];

const RESPONSES: Record<(typeof ERROR_RESPONSES)[keyof typeof ERROR_RESPONSES], Json> = {
  BadRequest: {
    description: `The request is invalid; \`message\` says what (the first problem found). Among the messages:\n\n${list(BAD_REQUEST_MESSAGES)}`,
    content: { 'application/json': { schema: { anyOf: [titled('The request is invalid', requestErrorBody(400)), titled('API Gateway cannot read the request', statusErrorBody(400, 'Bad Request'))] } } },
  },
  Unauthorized: { description: 'The API key is missing, invalid or inactive.', content: jsonContent(statusErrorBody(401, 'Unauthorized', [Messages.apiKeyRequired, Messages.apiKeyInvalid])) },
  Forbidden: {
    description:
      "The caller may not make this request (`permission` names what is missing: a key's scope, a role's permission, or a power only people hold), it uses a feature the caller's plan does not include (`feature`), or the workspace requires MFA and the person's sign-in did not use it (`requirement: \"mfa\"`).",
    content: { 'application/json': { schema: { anyOf: [titled('Not permitted', notPermittedBody), titled('Plan required', planRequiredBody), titled('MFA required', mfaRequiredBody)] } } },
  },
  NotFound: { description: 'No such link, domain, webhook, key, member or invitation in this workspace.', content: jsonContent(statusErrorBody(404, 'Not Found')) },
  Conflict: {
    description:
      'The link was disabled by the platform, a request with the same Idempotency-Key is still running, the domain already belongs to (or is held for) an account, the platform disabled the domain, a change of the workspace\'s people would leave it without an owner, add a member twice or invite an email twice, an email domain is connected to single sign-on already, or its TXT record is not there yet.',
    content: jsonContent(
      statusErrorBody(409, 'Conflict', [
        OwnMessages.linkDisabled,
        OwnMessages.linkStillCached,
        OwnMessages.idempotencyKeyInProgress,
        OwnMessages.domainInUse,
        OwnMessages.domainDisabled,
        OwnMessages.ssoInUse,
        OwnMessages.ssoChallengeMissing,
        OwnMessages.lastOwner,
        OwnMessages.alreadyMember,
        OwnMessages.alreadyInvited,
      ]),
    ),
  },
  Gone: { description: 'The link was used up or deleted and can no longer change.', content: jsonContent(statusErrorBody(410, 'Gone', [OwnMessages.linkGone])) },
  PayloadTooLarge: {
    description: `The body is larger than the endpoint accepts (${describeBytes(MAX_BODY_BYTES.link)} for one link or an edit, ${describeBytes(MAX_BODY_BYTES.batch)} for a batch; API Gateway itself stops at 10 MiB).`,
    content: { 'application/json': { schema: { anyOf: [titled('Over the endpoint\'s limit', requestErrorBody(413)), titled('Over API Gateway\'s limit', statusErrorBody(413, 'Payload Too Large', [OwnMessages.bodyTooLarge]))] } } },
  },
  IdempotencyKeyReused: {
    description: 'The Idempotency-Key was used before with a different body.',
    content: jsonContent(statusErrorBody(422, 'Unprocessable Entity', [OwnMessages.idempotencyKeyReused])),
  },
  TooManyRequests: {
    description:
      "The key's per-minute rate limit (wait `retryAfter` seconds; a domain's check on request, once a minute, answers the same), the account's monthly plan limit (wait until `resetDate`), or the stage's own throttle, which guards every route against floods.",
    headers: {
      'Retry-After': { ...HEADERS.RetryAfter, required: false },
      'X-RateLimit-Limit': { ...HEADERS.RateLimitLimit, required: false },
      'X-RateLimit-Remaining': { ...HEADERS.RateLimitRemaining, required: false },
      'X-RateLimit-Reset': { ...HEADERS.RateLimitReset, required: false },
    },
    content: {
      'application/json': {
        schema: {
          oneOf: [
            titled('Per-minute rate limit', rateLimitedBody),
            titled('Monthly plan limit', quotaExceededBody),
            titled('Stage throttle', statusErrorBody(429, 'Too Many Requests', [Messages.rateLimited])),
          ],
        },
      },
    },
  },
  InternalServerError: {
    description: 'Something unexpected failed; the detail is logged, never shown.',
    content: jsonContent(statusErrorBody(500, 'Internal Server Error', [OwnMessages.internal])),
  },
  ServiceUnavailable: {
    description: 'Maintenance, or a dependency (the safety check, the database) could not answer: try again after `Retry-After` seconds.',
    headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
    content: jsonContent(statusErrorBody(503, 'Service Unavailable', unavailableMessages)),
  },
};

const PATH_PARAMETERS: Record<string, string> = {
  code: 'The short code (or alias).',
  domain: 'The custom domain, e.g. go.example.com (an IDN in Unicode or punycode).',
  id: 'The webhook\'s id (`wh_…`).',
  userId: 'The member\'s user id (the subject of their sign-in).',
};
/** `{id}` names a webhook, a key or an invitation (by its id, or by its token to accept it), by the route's segments. */
function pathParameters(route: string): Record<string, string> {
  if (route.startsWith('/v2/keys/')) return { id: 'The key\'s id (`key_…`).' };
  if (route.endsWith('/accept')) return { id: 'The invitation\'s token, from the link its mail carried (not its id).' };
  if (route.startsWith('/v2/invitations/')) return { id: 'The invitation\'s id (`inv_…`).' };
  return PATH_PARAMETERS;
}

/**
 * Who may call an operation, said from the one permission table (domain/accounts/permissions.ts) and the route's
 * permission (routes.ts): never copied by hand.
 */
export function permissionSentence(permission: Permission): string {
  const roles = ROLES.filter((role) => roleAllows(role, permission)).join(', ');
  if (!needsMembership(permission)) return `Permission: \`${permission}\`, held by any signed-in person, a member of the workspace or not; API keys are refused (403).`;
  return isPeoplePower(permission)
    ? `Permission: \`${permission}\`, held by signed-in people whose role is ${roles}; API keys are refused (403).`
    : `Permission: \`${permission}\`, held by API keys with this scope and by signed-in people whose role is ${roles}; others get 403.`;
}

function parameters(route: string, doc: OperationDoc): Json[] {
  const path = Object.entries(pathParameters(route))
    .filter(([name]) => route.includes(`{${name}}`))
    .map(([name, description]) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } }));
  const query = doc.query ? (jsonSchema(doc.query) as { properties?: Record<string, Json>; required?: string[] }) : {};
  const queryParameters = Object.entries(query.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: query.required?.includes(name) ?? false, schema }));
  const idempotency = doc.idempotent
    ? [
        {
          name: IDEMPOTENCY_KEY_HEADER,
          in: 'header',
          required: false,
          description: `Makes retries safe: a repeat with the same key and body within ${IDEMPOTENCY_TTL_SECONDS / 3600} hours gets the first answer again, creating nothing. Scoped to the account (to the source address on v1).`,
          schema: jsonSchema(idempotencyKeySchema()),
        },
      ]
    : [];
  return [...path, ...queryParameters, ...idempotency];
}

function successResponse(doc: OperationDoc): Json {
  const { status, description, content } = doc.success;
  const headers = { ...(doc.guarded ? rateLimitHeaders : {}), ...(doc.idempotent ? { [IDEMPOTENT_REPLAYED_HEADER]: { $ref: '#/components/headers/IdempotentReplayed' } } : {}) };
  return {
    [status]: {
      description,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(content ? { content: Object.fromEntries(Object.entries(content).map(([type, body]) => [type, 'schema' in body ? { schema: jsonSchema(body.schema) } : body.raw])) } : {}),
    },
  };
}

function operation(method: string, route: string, doc: OperationDoc): Json {
  const parameterList = parameters(route, doc);
  const permission = permissionFor(route, method);
  // Every operation with a permission may answer 403 naming it.
  const errors = new Set([...doc.errors, ...(permission ? [403 as const] : [])]);
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    description: permission ? `${doc.description}\n\n${permissionSentence(permission)}` : doc.description,
    tags: [doc.tag],
    security: doc.bearer ? [{ bearerAuth: [] }] : [],
    ...(permission ? { 'x-permission': permission } : {}),
    ...(parameterList.length > 0 ? { parameters: parameterList } : {}),
    ...(doc.body ? { requestBody: requestBody(doc.body) } : {}),
    responses: {
      ...successResponse(doc),
      ...Object.fromEntries([...errors].sort().map((status) => [status, { $ref: `#/components/responses/${ERROR_RESPONSES[status]}` }])),
    },
  };
}

const TAGS: Record<Tag, string> = {
  Links: 'Create, view, change and delete short links.',
  Imports: 'Move links in from another shortener (Bitly, Rebrandly, Short.io, Dub, Shlink, Kutt, YOURLS) with their history.',
  Analytics: 'Clicks of a link.',
  Account: "The account's plan and usage.",
  Workspace: 'The workspace (an account) and its people: members, their roles, invitations by email. For people signed in, not API keys.',
  Domains: "The account's own domains for its links: add one, point its DNS at the service, and links can live on it.",
  Webhooks: 'Signed HTTP calls to your endpoint when your links change or are clicked (see `webhooks`).',
  'Audit log': 'Who changed what in the workspace, kept 365 days.',
  Keys: "The workspace's API keys, each holding only the scopes it needs: made, listed and revoked by its people, never by a key.",
  'Single sign-on': "A company's email domain signing in through its own identity provider (ENTERPRISE).",
  'Anonymous (v1)': 'The earlier endpoints without a key, limited per source address.',
  Service: 'Health and this documentation.',
};

/**
 * The OpenAPI 3.1 document of every API route, built from the zod schemas the handlers parse with, the message
 * table and the limits: change one of them and the document follows. `serverUrl` is where the API is reached.
 */
export function openApiDocument(serverUrl: string): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const [key, doc] of Object.entries(OPERATIONS) as Array<[ApiRouteKey, OperationDoc]>) {
    const [method = '', path = ''] = key.split(' ');
    (paths[path] ??= {})[method.toLowerCase()] = operation(method, path, doc);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'URL shortener API',
      version: '2',
      summary: 'Short links with aliases, passwords, expiry and click limits, on the shared or your own domains, their management and their clicks.',
      description: [
        `Authenticate with \`Authorization: Bearer <your-key>\`. Each key may make ${RATE_LIMITS.perApiKey.requests} requests per ${RATE_LIMITS.perApiKey.windowSeconds} seconds, and each account a monthly number of calls set by its plan; the anonymous v1 endpoints allow ${RATE_LIMITS.perAnonymousIp.requests} per ${RATE_LIMITS.perAnonymousIp.windowSeconds} seconds per source address.`,
        'Every answer of a guarded route carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`. After a 429 or a 503, wait as `Retry-After` (or `resetDate`) says.',
        'Creation is safe to retry with an `Idempotency-Key` header.',
        "Each operation names the permission it needs (`x-permission`, and a sentence in its description): a key holds the scopes it was made with, a person what their role allows; a request outside them gets 403 whose `permission` names what is missing.",
      ].join('\n\n'),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: serverUrl, description: 'This deployment' }],
    security: [{ bearerAuth: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks: webhookEvents(),
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: "An API key, made by the workspace's people (POST /v2/keys) or by the operators; it holds the scopes it was made with." } },
      headers: HEADERS,
      responses: RESPONSES,
    },
  };
}
