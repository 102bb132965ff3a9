import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Caller } from '../shared/domain/accounts/caller';
import {
  acceptInvitation,
  changeMemberRole,
  invite,
  listInvitations,
  listMembers,
  removeMember,
  updateWorkspace,
  revokeInvitation,
  viewWorkspace,
  type Invitee,
  type PeopleContext,
  type PeopleDeps,
} from '../shared/domain/workspaces/people-management';
import { accountCaller } from '../shared/http/account-caller';
import type { Admission } from '../shared/http/api-guard';
import { MAX_BODY_BYTES } from '../shared/http/body-limits';
import type { Operation } from '../shared/http/guarded-handler';
import { readJsonObject } from '../shared/http/json-body';
import { json, noContent } from '../shared/http/responses';

const context = (event: APIGatewayProxyEvent, admission: Admission): PeopleContext => ({
  caller: accountCaller(admission),
  nowMs: Date.now(),
  requestId: event.requestContext.requestId,
});

const parameter = (event: APIGatewayProxyEvent, name: 'userId' | 'id') => event.pathParameters?.[name] ?? '';

/** The person accepting: signed in outside any workspace, or (a client naming one of theirs) as a member of it. */
function invitee(caller: Caller): Invitee {
  if (caller.kind === 'person') return { userId: caller.userId };
  if (caller.kind === 'apiKey' && caller.actor.kind === 'user') return { userId: caller.actor.userId };
  // The guard lets only people through (invitations:accept is a people's power): anything else is a wiring bug.
  throw new Error('an invitation reached without a signed-in person');
}

/** Each route of the function: parse, one domain call, the answer. Keyed by `${method} ${resource}`. */
export const OPERATIONS: Record<string, Operation<PeopleDeps>> = {
  'GET /v2/workspace': async (event, admission, deps) => json(200, await viewWorkspace(context(event, admission), deps)),
  'PATCH /v2/workspace': async (event, admission, deps) => json(200, await updateWorkspace(readJsonObject(event, MAX_BODY_BYTES.patch), context(event, admission), deps)),
  'GET /v2/members': async (event, admission, deps) => json(200, await listMembers(context(event, admission), deps)),
  'PATCH /v2/members/{userId}': async (event, admission, deps) =>
    json(200, await changeMemberRole(parameter(event, 'userId'), readJsonObject(event, MAX_BODY_BYTES.patch), context(event, admission), deps)),
  'DELETE /v2/members/{userId}': async (event, admission, deps) => {
    await removeMember(parameter(event, 'userId'), context(event, admission), deps);
    return noContent();
  },
  'GET /v2/invitations': async (event, admission, deps) => json(200, await listInvitations(context(event, admission), deps)),
  'POST /v2/invitations': async (event, admission, deps) => json(201, await invite(readJsonObject(event, MAX_BODY_BYTES.patch), context(event, admission), deps)),
  'DELETE /v2/invitations/{id}': async (event, admission, deps) => {
    await revokeInvitation(parameter(event, 'id'), context(event, admission), deps);
    return noContent();
  },
  'POST /v2/invitations/{id}/accept': async (event, admission, deps) =>
    json(200, await acceptInvitation(parameter(event, 'id'), invitee(admission.caller), { nowMs: Date.now(), requestId: event.requestContext.requestId }, deps)),
};
