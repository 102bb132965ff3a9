import type * as z from 'zod/mini';
import { INVITATION_LIFETIME_MS } from '../../domain/workspaces/invitation';
import type { ErrorStatus, OperationDoc } from './operations';
import { acceptedInvitationBody, invitationListBody, invitationViewBody, memberListBody, memberViewBody, workspaceViewBody } from './people-bodies';

const json = (schema: z.ZodMiniType) => ({ 'application/json': { schema } });
const DAYS = INVITATION_LIFETIME_MS / 86_400_000;

/** People's powers: a key is refused (403) on every one of these routes. */
const PEOPLE_ERRORS = [401, 403, 429, 500, 503] as const satisfies readonly ErrorStatus[];
const peopleRoute = (doc: Omit<OperationDoc, 'tag' | 'bearer' | 'guarded' | 'errors'> & { errors?: readonly ErrorStatus[] }): OperationDoc => ({
  tag: 'Workspace',
  bearer: true,
  guarded: true,
  errors: PEOPLE_ERRORS,
  ...doc,
});

const ROLE_RULES = 'Admins manage admins, members and viewers; only owners make, unmake, invite or remove owners, and a workspace always keeps one owner (409).';

/** The workspace's people routes (issue 29), spread into OPERATIONS. */
export const PEOPLE_OPERATIONS = {
  'GET /v2/workspace': peopleRoute({
    operationId: 'getWorkspace',
    summary: 'The workspace',
    description: 'Its id, name, plan, seats (members and pending invitations, and the plan\'s cap), the caller\'s role, its sign-in rules (`security.mfaRequired`) and its analytics switches (`analytics`: each dimension the stats record, true unless switched off). For people signed in, not API keys.',
    success: { status: 200, description: 'The workspace.', content: json(workspaceViewBody) },
  }),
  'PATCH /v2/workspace': peopleRoute({
    operationId: 'renameWorkspace',
    summary: "Change the workspace's name, analytics dimensions or sign-in rules",
    description:
      'Sets any of `name` (1 to 100 characters), `analytics` (`{"city": false, "referrer": false, "campaign": false}`: any of country, region, city, referrer, device, browser, os and campaign, true or false; those not named keep their value) and `security.mfaRequired`, all in one change with one audit record (`workspace.updated`). `name` and `analytics`: admins and owners; `security`: owners (`security:manage`). A dimension switched off is not recorded from the next click the aggregator folds (within a few seconds); what was recorded before stays. While MFA is required, a person whose sign-in did not use it is refused on every route of the workspace (403 with `requirement: "mfa"`); keys are not affected. An owner signed in without MFA cannot require it (403).',
    body: 'workspacePatch',
    success: { status: 200, description: 'The workspace as changed.', content: json(workspaceViewBody) },
    errors: [400, 413, ...PEOPLE_ERRORS],
  }),
  'GET /v2/members': peopleRoute({
    operationId: 'listMembers',
    summary: "List the workspace's members",
    description: 'Every member, oldest first, with their role.',
    success: { status: 200, description: 'The members.', content: json(memberListBody) },
  }),
  'PATCH /v2/members/{userId}': peopleRoute({
    operationId: 'changeMemberRole',
    summary: "Change a member's role",
    description: `Sets \`role\`. ${ROLE_RULES} The keys the member made here that hold a scope the new role lacks are revoked. Another workspace's member and nobody answer the same 404.`,
    body: 'memberPatch',
    success: { status: 200, description: 'The member as changed.', content: json(memberViewBody) },
    errors: [400, 404, 409, 413, ...PEOPLE_ERRORS],
  }),
  'DELETE /v2/members/{userId}': peopleRoute({
    operationId: 'removeMember',
    summary: 'Remove a member, or leave',
    description: `Anyone may remove themself, except the last owner (409); removing someone else follows the role rules. ${ROLE_RULES}`,
    success: { status: 204, description: 'The member was removed: their next request is refused, and every key they made in the workspace is revoked.' },
    errors: [404, 409, ...PEOPLE_ERRORS],
  }),
  'GET /v2/invitations': peopleRoute({
    operationId: 'listInvitations',
    summary: 'List pending invitations',
    description: 'Invitations neither accepted, revoked nor expired, oldest first. Admins and owners.',
    success: { status: 200, description: 'The invitations.', content: json(invitationListBody) },
  }),
  'POST /v2/invitations': peopleRoute({
    operationId: 'invite',
    summary: 'Invite someone by email',
    description: `Mails \`email\` a link to accept, valid once for ${DAYS} days, for whoever signs in with that email. A pending invitation takes a seat (403 in the plan shape, \`feature: seats\`, when none is free). ${ROLE_RULES}`,
    body: 'invitation',
    success: { status: 201, description: 'The invitation (its token goes by mail only).', content: json(invitationViewBody) },
    errors: [400, 409, 413, ...PEOPLE_ERRORS],
  }),
  'DELETE /v2/invitations/{id}': peopleRoute({
    operationId: 'revokeInvitation',
    summary: 'Revoke an invitation',
    description: 'Its link accepts nothing any more and its seat is free.',
    success: { status: 204, description: 'The invitation was revoked.' },
    errors: [404, ...PEOPLE_ERRORS],
  }),
  'POST /v2/invitations/{id}/accept': peopleRoute({
    operationId: 'acceptInvitation',
    summary: 'Accept an invitation',
    description:
      'Here `id` is the token the invitation mail carried. Signed in as the invited email (403 otherwise), with no workspace named: the caller becomes a member with the invited role. A token unknown, used, revoked or expired answers 404 `Invitation not found`.',
    success: { status: 200, description: 'The workspace joined and the membership.', content: json(acceptedInvitationBody) },
    errors: [404, 409, ...PEOPLE_ERRORS],
  }),
} as const satisfies Record<string, OperationDoc>;
