import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { ApiKeyCaller, Caller } from '../domain/accounts/caller';
import type { ChangeAuthor } from '../domain/audit/audit-stamp';

/** Who a workspace's change is by, for its audit record: the authorizer's actor and API Gateway's request id. */
export function changeAuthor(caller: ApiKeyCaller, event: Pick<APIGatewayProxyEvent, 'requestContext'>): ChangeAuthor {
  const requestId = event.requestContext?.requestId;
  return { actor: caller.actor, ...(requestId ? { requestId } : {}) };
}

/** The author of a creation: a workspace's caller; v1's anonymous callers' links belong to no workspace and have none. */
export function creationAuthor(caller: Caller, event: Pick<APIGatewayProxyEvent, 'requestContext'>): ChangeAuthor | undefined {
  return caller.kind === 'apiKey' ? changeAuthor(caller, event) : undefined;
}
