import type { Permission } from '../domain/accounts/permissions';

/**
 * The service's routes: the one list. The CDK API builds its resources from it, the OpenAPI document must
 * describe each API route (a type error otherwise), and the local stack reads them back from the template.
 */
export type RouteTarget = 'create' | 'batch' | 'links' | 'qr' | 'domains' | 'webhooks' | 'workspace' | 'keys' | 'me' | 'sso' | 'imports' | 'audit' | 'docs' | 'redirect' | 'health';

export interface Route {
  path: string;
  methods: readonly string[];
  target: RouteTarget;
  /** Guarded by the authorizer (an API key or a signed-in person). */
  apiKey: boolean;
  /** What each method needs of its caller (domain/accounts/permissions.ts); every guarded route names one per method. */
  permissions?: Readonly<Record<string, Permission>>;
  /**
   * A signed-in person's own route: it names no workspace (the person may be in none yet), so the authorizer checks
   * only their token; keys pass as keys and are refused by the route's people-only permission.
   */
  personal?: boolean;
}

export const ROUTES = [
  { path: '/v2/shorten', methods: ['POST'], target: 'create', apiKey: true, permissions: { POST: 'links:write' } },
  { path: '/v2/shorten/batch', methods: ['POST'], target: 'batch', apiKey: true, permissions: { POST: 'links:write' } },
  { path: '/v2/links', methods: ['GET'], target: 'links', apiKey: true, permissions: { GET: 'links:read' } },
  { path: '/v2/links/{code}', methods: ['GET', 'PATCH', 'DELETE'], target: 'links', apiKey: true, permissions: { GET: 'links:read', PATCH: 'links:write', DELETE: 'links:write' } },
  { path: '/v2/links/bulk', methods: ['POST'], target: 'links', apiKey: true, permissions: { POST: 'links:write' } },
  { path: '/v2/links/{code}/qr', methods: ['GET'], target: 'qr', apiKey: true, permissions: { GET: 'links:read' } },
  { path: '/v2/links/{code}/stats', methods: ['GET'], target: 'links', apiKey: true, permissions: { GET: 'stats:read' } },
  { path: '/v2/links/{code}/stats/live', methods: ['GET'], target: 'links', apiKey: true, permissions: { GET: 'stats:read' } },
  { path: '/v2/stats', methods: ['GET'], target: 'links', apiKey: true, permissions: { GET: 'stats:read' } },
  { path: '/v2/stats/live', methods: ['GET'], target: 'links', apiKey: true, permissions: { GET: 'stats:read' } },
  { path: '/v2/usage', methods: ['GET'], target: 'links', apiKey: true, permissions: { GET: 'stats:read' } },
  { path: '/v2/tags', methods: ['GET'], target: 'links', apiKey: true, permissions: { GET: 'links:read' } },
  { path: '/v2/domains', methods: ['GET', 'POST'], target: 'domains', apiKey: true, permissions: { GET: 'domains:read', POST: 'domains:write' } },
  { path: '/v2/domains/{domain}', methods: ['GET', 'PATCH', 'DELETE'], target: 'domains', apiKey: true, permissions: { GET: 'domains:read', PATCH: 'domains:write', DELETE: 'domains:write' } },
  { path: '/v2/domains/{domain}/verify', methods: ['POST'], target: 'domains', apiKey: true, permissions: { POST: 'domains:write' } },
  { path: '/v2/webhooks', methods: ['GET', 'POST'], target: 'webhooks', apiKey: true, permissions: { GET: 'webhooks:read', POST: 'webhooks:write' } },
  { path: '/v2/webhooks/{id}', methods: ['GET', 'PATCH', 'DELETE'], target: 'webhooks', apiKey: true, permissions: { GET: 'webhooks:read', PATCH: 'webhooks:write', DELETE: 'webhooks:write' } },
  { path: '/v2/webhooks/{id}/rotate-secret', methods: ['POST'], target: 'webhooks', apiKey: true, permissions: { POST: 'webhooks:write' } },
  { path: '/v2/webhooks/{id}/test', methods: ['POST'], target: 'webhooks', apiKey: true, permissions: { POST: 'webhooks:write' } },
  { path: '/v2/webhooks/{id}/deliveries', methods: ['GET'], target: 'webhooks', apiKey: true, permissions: { GET: 'webhooks:read' } },
  // A workspace's people. Anyone may leave (DELETE on themself): removing another is members:manage, checked with the target's role.
  { path: '/v2/workspace', methods: ['GET', 'PATCH'], target: 'workspace', apiKey: true, permissions: { GET: 'workspace:read', PATCH: 'workspace:write' } },
  { path: '/v2/members', methods: ['GET'], target: 'workspace', apiKey: true, permissions: { GET: 'workspace:read' } },
  { path: '/v2/members/{userId}', methods: ['PATCH', 'DELETE'], target: 'workspace', apiKey: true, permissions: { PATCH: 'members:manage', DELETE: 'workspace:read' } },
  { path: '/v2/invitations', methods: ['GET', 'POST'], target: 'workspace', apiKey: true, permissions: { GET: 'members:manage', POST: 'members:manage' } },
  { path: '/v2/invitations/{id}', methods: ['DELETE'], target: 'workspace', apiKey: true, permissions: { DELETE: 'members:manage' } },
  // A person's own route (they are in no workspace yet): the authorizer checks the access token alone. Its {id} is the
  // invitation's token: API Gateway allows one variable name under a resource.
  { path: '/v2/invitations/{id}/accept', methods: ['POST'], target: 'workspace', apiKey: true, personal: true, permissions: { POST: 'invitations:accept' } },
  // Keys are made and managed by people only: a key can neither list nor mint keys. Members make keys within their
  // role's scopes (the issue's own example: a member asking for domains:write hears of that scope); admins list and revoke.
  { path: '/v2/keys', methods: ['GET', 'POST'], target: 'keys', apiKey: true, permissions: { GET: 'keys:manage', POST: 'keys:create' } },
  { path: '/v2/keys/{id}', methods: ['DELETE'], target: 'keys', apiKey: true, permissions: { DELETE: 'keys:manage' } },
  { path: '/v2/me', methods: ['GET'], target: 'me', apiKey: true, personal: true, permissions: { GET: 'profile:read' } },
  { path: '/v2/sso', methods: ['GET', 'POST'], target: 'sso', apiKey: true, permissions: { GET: 'workspace:read', POST: 'security:manage' } },
  { path: '/v2/sso/{domain}', methods: ['GET', 'DELETE'], target: 'sso', apiKey: true, permissions: { GET: 'workspace:read', DELETE: 'security:manage' } },
  { path: '/v2/sso/{domain}/verify', methods: ['POST'], target: 'sso', apiKey: true, permissions: { POST: 'security:manage' } },
  { path: '/v2/imports', methods: ['GET', 'POST'], target: 'imports', apiKey: true, permissions: { GET: 'links:read', POST: 'links:write' } },
  { path: '/v2/imports/{id}', methods: ['GET'], target: 'imports', apiKey: true, permissions: { GET: 'links:read' } },
  { path: '/v2/imports/preview', methods: ['POST'], target: 'imports', apiKey: true, permissions: { POST: 'links:write' } },
  { path: '/v2/audit-log', methods: ['GET'], target: 'audit', apiKey: true, permissions: { GET: 'audit:read' } },
  { path: '/v2/openapi.json', methods: ['GET'], target: 'docs', apiKey: false },
  { path: '/v1/shorten', methods: ['POST'], target: 'create', apiKey: false },
  { path: '/v1/shorten/batch', methods: ['POST'], target: 'batch', apiKey: false },
  { path: '/health', methods: ['GET'], target: 'health', apiKey: false },
  { path: '/docs', methods: ['GET'], target: 'docs', apiKey: false },
  { path: '/{code}', methods: ['GET', 'HEAD', 'POST'], target: 'redirect', apiKey: false },
  // A customer domain's root (its rootUrl); the shared domain's edge function answers it 404 before it gets here.
  { path: '/', methods: ['GET', 'HEAD'], target: 'redirect', apiKey: false },
] as const satisfies readonly Route[];

type RouteKeys<R> = R extends { path: infer P extends string; methods: readonly (infer M extends string)[]; target: infer T } ? (T extends 'redirect' ? never : `${M} ${P}`) : never;

/** `${method} ${path}` of every API route: the visitor's redirect is a page, not part of the API's document. */
export type ApiRouteKey = RouteKeys<(typeof ROUTES)[number]>;

/** First path segments that belong to the API, never to a visitor's short code. */
export const API_PATH_SEGMENTS = [...new Set(ROUTES.filter((route) => route.target !== 'redirect').map((route) => route.path.split('/')[1] ?? ''))];

/** Whether the route template `resource` is a person's own (names no workspace). */
export function isPersonalRoute(resource: string): boolean {
  const route: Route | undefined = ROUTES.find((candidate) => candidate.path === resource);
  return route?.personal === true;
}

/** The permission `method` on the route template `resource` (API Gateway's `event.resource`) needs; none for unguarded routes. */
export function permissionFor(resource: string, method: string): Permission | undefined {
  const route: Route | undefined = ROUTES.find((candidate) => candidate.path === resource);
  return route?.permissions?.[method.toUpperCase()];
}
