/**
 * Who may do what in a workspace: the one permission table. The API's guard, the authorizer, key creation, the
 * OpenAPI document, the dashboard and the tests all read it; nothing else says what a role or a scope allows.
 */

/** What a request needs: each API route names one per method (http/routes.ts). */
export const SCOPES = ['links:read', 'links:write', 'stats:read', 'domains:read', 'domains:write', 'webhooks:read', 'webhooks:write', 'audit:read'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * Powers only people hold, never a key: keys are made by people (a key cannot mint keys), members are managed by
 * people, and the plan, the workspace's deletion and its sign-in rules are the owners'. `profile:read`: a person reads
 * who they are and which workspaces they are in (`GET /v2/me`), whatever their role. `keys:create`: a member makes
 * keys for their own work, holding no scope beyond their role's; `keys:manage`: admins see and revoke every key.
 */
export const PEOPLE_POWERS = ['profile:read', 'workspace:read', 'workspace:write', 'keys:create', 'keys:manage', 'members:manage', 'owners:manage', 'security:manage', 'plan:manage', 'invitations:accept'] as const;
export type PeoplePower = (typeof PEOPLE_POWERS)[number];

/**
 * What a signed-in person may do in no workspace of theirs, so no role holds it: accept an invitation, which is how
 * they come to have one. The authorizer checks such a route's person by their access token alone (no workspace
 * header, no membership read); the invitation itself says which workspace, and to whom it was sent.
 */
export const WITHOUT_MEMBERSHIP: readonly PeoplePower[] = ['invitations:accept'];

export function needsMembership(permission: Permission | undefined): boolean {
  return permission === undefined || !(WITHOUT_MEMBERSHIP as readonly string[]).includes(permission);
}

/** A route's requirement: a scope (keys and people), or a power (people only). */
export type Permission = Scope | PeoplePower;

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const VIEWER: readonly Permission[] = ['profile:read', 'links:read', 'stats:read', 'domains:read', 'webhooks:read', 'workspace:read'];
const MEMBER: readonly Permission[] = [...VIEWER, 'links:write', 'keys:create'];
const ADMIN: readonly Permission[] = [...MEMBER, 'domains:write', 'webhooks:write', 'audit:read', 'workspace:write', 'keys:manage', 'members:manage'];
const OWNER: readonly Permission[] = [...ADMIN, 'owners:manage', 'security:manage', 'plan:manage'];

/**
 * Viewer: reads everything but keys' secrets (which nobody reads twice); member: also creates and edits links, and
 * makes keys within their own scopes; admin: also domains, webhooks, every key, members other than owners, and the
 * audit log; owner: everything.
 */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = { viewer: VIEWER, member: MEMBER, admin: ADMIN, owner: OWNER };

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function isPeoplePower(permission: Permission): permission is PeoplePower {
  return (PEOPLE_POWERS as readonly string[]).includes(permission);
}

export function roleAllows(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** The scopes a role's holder may give a key they make: a key never outranks the person who made it. */
export function scopesOfRole(role: Role): Scope[] {
  return SCOPES.filter((scope) => roleAllows(role, scope));
}

/** Keys made before scopes existed hold every scope, as they could do everything then. */
export const ALL_SCOPES: readonly Scope[] = SCOPES;

/** Scopes travel through the authorizer's context as one string (its values must be strings). */
export function joinScopes(scopes: readonly Scope[]): string {
  return scopes.join(' ');
}

/** Unknown words are dropped: a context is written by the authorizer, never by a caller. */
export function splitScopes(text: string): Scope[] {
  return text.split(' ').filter(isScope);
}
