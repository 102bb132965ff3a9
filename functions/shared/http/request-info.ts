import type { APIGatewayProxyEvent } from 'aws-lambda';
import { userLimitId, type Actor, type Caller } from '../domain/accounts/caller';
import { ALL_SCOPES, isRole, splitScopes } from '../domain/accounts/permissions';
import { isPlan } from '../domain/limits/plans';
import type { ClientKeyer } from './client-key';
import { trustedClientIp, type OriginSecrets } from './trusted-viewer';

export interface RequestInfo {
  path: string;
  method: string;
}

export function requestInfo(event: Pick<APIGatewayProxyEvent, 'path' | 'httpMethod'>): RequestInfo {
  return { path: event.path, method: event.httpMethod };
}

/**
 * v1 routes are anonymous and limited per client address, by its keyed hash: the viewer's address when the request
 * came through the dashboard's distribution (beside the origin secret: else every viewer of one edge would share its
 * limit), API Gateway's source IP otherwise, which a client cannot forge.
 */
export function isAnonymousRoute(event: Pick<APIGatewayProxyEvent, 'resource'>): boolean {
  return event.resource.startsWith('/v1/');
}

/** The authorizer vouched for these context values; their absence on a v2 route is a wiring bug, hence a 500. */
export async function callerFrom(event: APIGatewayProxyEvent, keyClient: ClientKeyer, originSecrets: OriginSecrets): Promise<Caller> {
  if (isAnonymousRoute(event)) return { kind: 'anonymous', client: await keyClient(await trustedClientIp(event, originSecrets)) };
  const authorizer = event.requestContext.authorizer ?? {};
  const { keyId, accountId, owner, plan, userId, email } = authorizer as Record<string, unknown>;
  // A person on a route needing no membership (accepting an invitation): the authorizer vouched for who, not where.
  if (accountId === undefined && typeof userId === 'string' && typeof email === 'string') return { kind: 'person', keyId: userLimitId(userId), userId, email };
  if (typeof keyId !== 'string' || typeof accountId !== 'string' || typeof owner !== 'string' || !isPlan(plan)) {
    throw new Error('v2 request without authorizer context');
  }
  const monthlyLimit = Number(authorizer.monthlyLimit);
  return {
    kind: 'apiKey',
    keyId,
    accountId,
    owner,
    plan,
    // An authorizer deployed before scopes sent none: its keys could do everything.
    scopes: typeof authorizer.scopes === 'string' ? splitScopes(authorizer.scopes) : ALL_SCOPES,
    actor: actorFrom(authorizer.actor, keyId),
    ...(authorizer.mfaRequired !== undefined ? { mfa: { used: authorizer.mfaUsed === 'true', required: authorizer.mfaRequired === 'true' } } : {}),
    ...(authorizer.monthlyLimit !== undefined && authorizer.monthlyLimit !== '' && Number.isInteger(monthlyLimit)
      ? { monthlyLimitOverride: monthlyLimit }
      : {}),
  };
}

/** The actor the authorizer stamped (JSON in a string: its context holds only strings); a key's id without one. */
function actorFrom(text: unknown, keyId: string): Actor {
  const parsed: unknown = typeof text === 'string' ? JSON.parse(text) : undefined;
  if (typeof parsed === 'object' && parsed !== null) {
    const actor = parsed as Record<string, unknown>;
    if (actor.kind === 'user' && typeof actor.userId === 'string' && typeof actor.email === 'string' && isRole(actor.role)) {
      return { kind: 'user', userId: actor.userId, email: actor.email, role: actor.role };
    }
    if (actor.kind === 'key' && typeof actor.keyId === 'string') {
      return { kind: 'key', keyId: actor.keyId, ...(typeof actor.name === 'string' ? { name: actor.name } : {}) };
    }
  }
  return { kind: 'key', keyId };
}
