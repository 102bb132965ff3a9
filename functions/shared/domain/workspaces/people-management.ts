import type { ApiKeyCaller } from '../accounts/caller';
import { revokeKeysBeyondRole } from '../accounts/key-management';
import { roleAllows, type Role } from '../accounts/permissions';
import { RECORD_EVERYTHING, type AnalyticsSwitches } from '../analytics/analytics-switches';
import { auditRecord, fieldChanges, type AuditRecord } from '../audit/audit-record';
import { DependencyUnavailable, InvitationNotFound, MemberNotFound, MembershipConflict, MfaRequired, NotPermitted } from '../errors';
import { seatAllowance, seatLimitReached, type Plan } from '../limits/plans';
import { DEPENDENCY_UNAVAILABLE_MESSAGE, OwnMessages } from '../messages';
import type { Mailer, Membership, MemberStore, PeopleDirectory, WorkspaceKeyStore, WorkspaceSettings } from '../ports';
import { parseOrRefuse } from '../request-parsing';
import {
  emailKeyOf,
  hashInvitationToken,
  INVITATION_LIFETIME_MS,
  isExpired,
  isInvitationIdShaped,
  isTokenShaped,
  newInvitationId,
  newInvitationToken,
  toInvitationView,
  type Invitation,
  type InvitationView,
} from './invitation';
import { acceptUrlOf, invitationMail } from './invitation-mail';
import { invitationRequestSchema, memberPatchSchema, workspacePatchSchema } from './people-requests';
import { assertMayManage, assertMayRemove, managerOf } from './role-rules';
import { seatsTaken } from './seats';

/** A request of a workspace's person: who, when, and the request id the audit record keeps. */
export interface PeopleContext {
  caller: ApiKeyCaller;
  nowMs: number;
  requestId?: string;
}

export interface PeopleDeps {
  members: MemberStore;
  /** The workspace's keys: those a person made follow their role here (revokeKeysBeyondRole). */
  keys: WorkspaceKeyStore;
  workspaces: WorkspaceSettings;
  mailer: Mailer;
  /** Whose email an acceptance is checked against: the pool's verified one. */
  people: PeopleDirectory;
  /** The dashboard's address, under which the invitation page is (`<dashboardUrl>invitations/<token>`). */
  dashboardUrl: string;
}

export type MemberView = Pick<Membership, 'userId' | 'email' | 'role' | 'joinedAt'>;

export interface WorkspaceView {
  id: string;
  name: string | null;
  plan: Plan;
  createdAt: string | null;
  /** Members and pending invitations, and the plan's cap (null: none). */
  seats: { used: number; limit: number | null };
  /** The caller's own role here. */
  role: Role;
  /** The workspace's sign-in rules: whether its people must sign in with MFA. */
  security: { mfaRequired: boolean };
  /** What the stats record (issue 30): each switch, true unless switched off. */
  analytics: AnalyticsSwitches;
}

/** A change can lose a race with another (a role moved, a member left): it is decided again, a few times at most. */
const MAX_DECISIONS = 3;

const toMemberView = ({ userId, email, role, joinedAt }: Membership): MemberView => ({ userId, email, role, joinedAt });

function record(context: PeopleContext, fields: Pick<AuditRecord, 'action' | 'target' | 'changes'> & { workspaceId?: string }): AuditRecord {
  return auditRecord({
    workspaceId: context.caller.accountId,
    actor: context.caller.actor,
    ...(context.requestId ? { requestId: context.requestId } : {}),
    nowMs: context.nowMs,
    ...fields,
  });
}

function conflict(message: string): never {
  throw new MembershipConflict(message);
}

/** GET /v2/workspace */
export async function viewWorkspace(context: PeopleContext, deps: Pick<PeopleDeps, 'members' | 'workspaces'>): Promise<WorkspaceView> {
  const manager = managerOf(context.caller.actor);
  const { accountId, plan } = context.caller;
  const [settings, count] = await Promise.all([deps.workspaces.find(accountId), deps.members.seatCount(accountId, context.nowMs)]);
  return {
    id: accountId,
    name: settings?.name ?? null,
    plan,
    createdAt: settings?.createdAt ?? null,
    seats: { used: seatsTaken(count, context.nowMs), limit: seatAllowance(plan) },
    role: manager.role,
    security: { mfaRequired: settings?.mfaRequired === true },
    analytics: settings?.analytics ?? RECORD_EVERYTHING,
  };
}

/**
/**
 * PATCH /v2/workspace: the name and the analytics switches (those named; the rest keep their value), both
 * `workspace:write`, and the sign-in rules (`security:manage`, owners'), in one audited write (`workspace.updated`,
 * each changed field before and after); nothing is written when nothing changes. Requiring MFA is refused to an
 * owner signed in without it: they would be the first one locked out, and nobody could switch it off again without
 * signing in with MFA.
 */
export async function updateWorkspace(body: object, context: PeopleContext, deps: Pick<PeopleDeps, 'members' | 'workspaces'>): Promise<WorkspaceView> {
  const manager = managerOf(context.caller.actor);
  const { name, analytics, security } = parseOrRefuse(workspacePatchSchema(), body);
  if (security && !roleAllows(manager.role, 'security:manage')) throw new NotPermitted('security:manage', OwnMessages.roleForbids(manager.role, 'security:manage'));
  if (security?.mfaRequired && !context.caller.mfa?.used) throw new MfaRequired(OwnMessages.mfaBeforeRequiring);
  const { accountId, owner, plan } = context.caller;
  const before = await deps.workspaces.find(accountId);
  const analyticsBefore = before?.analytics ?? RECORD_EVERYTHING;
  const wanted = {
    ...(name !== undefined ? { name } : {}),
    ...(analytics !== undefined ? { analytics: { ...analyticsBefore, ...analytics } } : {}),
    ...(security ? { mfaRequired: security.mfaRequired } : {}),
  };
  const was = {
    ...(name !== undefined ? { name: before?.name } : {}),
    ...(analytics !== undefined ? { analytics: analyticsBefore } : {}),
    ...(security ? { mfaRequired: before?.mfaRequired === true } : {}),
  };
  const changes = fieldChanges(was, wanted);
  if (Object.keys(changes).length > 0) {
    const audit = record(context, { action: 'workspace.updated', target: { type: 'workspace', id: accountId }, changes });
    await deps.workspaces.update({ workspaceId: accountId, owner, plan }, wanted, audit);
  }
  return viewWorkspace(context, deps);
}

/** GET /v2/members: oldest member first. */
export async function listMembers(context: PeopleContext, deps: Pick<PeopleDeps, 'members'>): Promise<{ members: MemberView[] }> {
  managerOf(context.caller.actor);
  const members = await deps.members.members(context.caller.accountId);
  return { members: members.sort((a, b) => a.joinedAt.localeCompare(b.joinedAt) || a.userId.localeCompare(b.userId)).map(toMemberView) };
}

/** The caller's workspace's member, or 404 (another workspace's member and nobody answer the same). */
async function memberOf(userId: string, context: PeopleContext, members: MemberStore): Promise<Membership> {
  // Cognito's subjects are UUIDs; anything far from an id is nobody, without a read.
  const found = /^[\w-]{1,128}$/.test(userId) ? await members.membership(context.caller.accountId, userId) : undefined;
  if (!found) throw new MemberNotFound(OwnMessages.memberNotFound);
  return found;
}

/**
 * PATCH /v2/members/{userId}: the role (`member.role_changed`). The keys the member made here that the new role does
 * not allow are revoked first, as on removal. A change that then loses a race with another (the store answers stale,
 * and the next decision refuses it) leaves those keys revoked: a key is never left above a role asked for, and its
 * maker makes it again if the role stays.
 */
export async function changeMemberRole(userId: string, body: object, context: PeopleContext, deps: Pick<PeopleDeps, 'members' | 'keys'>): Promise<MemberView> {
  const manager = managerOf(context.caller.actor);
  const { role } = parseOrRefuse(memberPatchSchema(), body);
  for (let decision = 0; decision < MAX_DECISIONS; decision += 1) {
    const target = await memberOf(userId, context, deps.members);
    assertMayManage(manager.role, target.role, role);
    if (target.role === role) return toMemberView(target);
    await assertKeepsAnOwner(target, role, context, deps.members);
    await revokeKeysBeyondRole(target.userId, role, context, deps.keys);
    const audit = record(context, { action: 'member.role_changed', target: { type: 'member', id: target.userId }, changes: fieldChanges({ role: target.role }, { role }) });
    const outcome = await deps.members.changeRole(target, role, audit);
    if (outcome === 'lastOwner') conflict(OwnMessages.lastOwner);
    if (outcome === 'changed') return toMemberView({ ...target, role });
  }
  throw new DependencyUnavailable(DEPENDENCY_UNAVAILABLE_MESSAGE);
}

/**
 * DELETE /v2/members/{userId}: a manager removes someone, or anyone leaves (`member.removed`). Someone removed is
 * signed out everywhere first (their refresh tokens revoked: Cognito's are the person's, not the workspace's), so a
 * failure to do it changes nothing and can be retried; their access token is refused at once anyway, the
 * membership being read on every request. Someone leaving keeps their sessions for their other workspaces.
 *
 * Every key they made here is revoked next, still before the membership goes: a failure in between leaves them a
 * member with fewer keys, and the retry finishes; the other order could leave a gone person's key working with
 * nothing left to retry (the removal answers 404 from then on). Not in the membership's transaction: a person may
 * hold all of a workspace's 100 keys (MAX_KEYS_PER_WORKSPACE), two items each with its audit record, past the 100
 * items of a DynamoDB transaction.
 */
export async function removeMember(userId: string, context: PeopleContext, deps: Pick<PeopleDeps, 'members' | 'people' | 'keys'>): Promise<void> {
  const manager = managerOf(context.caller.actor);
  for (let decision = 0; decision < MAX_DECISIONS; decision += 1) {
    const target = await memberOf(userId, context, deps.members);
    assertMayRemove(manager, target);
    await assertKeepsAnOwner(target, undefined, context, deps.members);
    if (target.userId !== manager.userId) await signOutEverywhere(target.userId, deps.people);
    await revokeKeysBeyondRole(target.userId, undefined, context, deps.keys);
    const audit = record(context, { action: 'member.removed', target: { type: 'member', id: target.userId }, changes: fieldChanges({ email: target.email, role: target.role }, undefined) });
    const outcome = await deps.members.removeMember(target, audit);
    if (outcome === 'lastOwner') conflict(OwnMessages.lastOwner);
    if (outcome === 'removed') return;
  }
  throw new DependencyUnavailable(DEPENDENCY_UNAVAILABLE_MESSAGE);
}

/**
 * The store keeps a workspace's last owner whatever happens; asked here as well, before anything else is done, so that
 * a change it would refuse revokes none of that owner's keys. Two owners unmaking each other at once both pass here:
 * the store lets one through, and the other stays an owner with fewer keys than owners may hold, never with more.
 */
async function assertKeepsAnOwner(target: Membership, role: Role | undefined, context: PeopleContext, members: MemberStore): Promise<void> {
  if (target.role !== 'owner' || role === 'owner') return;
  if ((await members.seatCount(target.workspaceId, context.nowMs)).owners <= 1) conflict(OwnMessages.lastOwner);
}

async function signOutEverywhere(userId: string, people: PeopleDirectory): Promise<void> {
  try {
    await people.signOutEverywhere(userId);
  } catch (error) {
    throw new DependencyUnavailable(DEPENDENCY_UNAVAILABLE_MESSAGE, { cause: error });
  }
}

/**
 * POST /v2/invitations (`invitation.created`): a seat is taken at once, the token goes by mail only. A mail that
 * cannot be sent takes the invitation back (`invitation.revoked`), since nobody could ever accept it, and answers 503.
 */
export async function invite(body: object, context: PeopleContext, deps: PeopleDeps): Promise<InvitationView> {
  const manager = managerOf(context.caller.actor);
  const { email, role } = parseOrRefuse(invitationRequestSchema(), body);
  assertMayManage(manager.role, role);
  const { accountId, plan } = context.caller;
  const emailKey = emailKeyOf(email);
  const [members, pending, settings] = await Promise.all([
    deps.members.members(accountId),
    deps.members.invitations(accountId, context.nowMs),
    deps.workspaces.find(accountId),
  ]);
  if (members.some((member) => emailKeyOf(member.email) === emailKey)) conflict(OwnMessages.alreadyMember);
  if (pending.some((invitation) => invitation.emailKey === emailKey)) conflict(OwnMessages.alreadyInvited);
  const invitation: Invitation = {
    id: newInvitationId(),
    workspaceId: accountId,
    email,
    emailKey,
    role,
    invitedBy: { userId: manager.userId, email: manager.email },
    createdAt: new Date(context.nowMs).toISOString(),
    expiresAt: new Date(context.nowMs + INVITATION_LIFETIME_MS).toISOString(),
  };
  const { token, tokenHash } = newInvitationToken();
  const created = record(context, { action: 'invitation.created', target: { type: 'invitation', id: invitation.id }, changes: fieldChanges(undefined, { email, role, expiresAt: invitation.expiresAt }) });
  if ((await deps.members.invite(invitation, tokenHash, seatAllowance(plan), created)) === 'noSeat') throw seatLimitReached(plan);
  try {
    await deps.mailer.send(invitationMail(invitation, settings?.name ?? accountId, acceptUrlOf(deps.dashboardUrl, token)));
  } catch (error) {
    const revoked = record(context, { action: 'invitation.revoked', target: { type: 'invitation', id: invitation.id }, changes: fieldChanges({ email, role }, undefined) });
    await deps.members.revokeInvitation(invitation, revoked);
    throw new DependencyUnavailable(DEPENDENCY_UNAVAILABLE_MESSAGE, { cause: error });
  }
  return toInvitationView(invitation);
}

/** GET /v2/invitations: pending ones, oldest first. */
export async function listInvitations(context: PeopleContext, deps: Pick<PeopleDeps, 'members'>): Promise<{ invitations: InvitationView[] }> {
  managerOf(context.caller.actor);
  return { invitations: (await deps.members.invitations(context.caller.accountId, context.nowMs)).map(toInvitationView) };
}

/** DELETE /v2/invitations/{id} (`invitation.revoked`): its seat is free again and its token accepts nothing. */
export async function revokeInvitation(id: string, context: PeopleContext, deps: Pick<PeopleDeps, 'members'>): Promise<void> {
  const manager = managerOf(context.caller.actor);
  const invitation = isInvitationIdShaped(id) ? await deps.members.invitation(context.caller.accountId, id) : undefined;
  if (!invitation || isExpired(invitation, context.nowMs)) throw new InvitationNotFound(OwnMessages.invitationNotFound);
  assertMayManage(manager.role, invitation.role);
  const audit = record(context, { action: 'invitation.revoked', target: { type: 'invitation', id }, changes: fieldChanges({ email: invitation.email, role: invitation.role }, undefined) });
  if ((await deps.members.revokeInvitation(invitation, audit)) === 'gone') throw new InvitationNotFound(OwnMessages.invitationNotFound);
}

/** Who accepts: the signed-in person, by their token's subject (their email is the user pool's, verified). */
export interface Invitee {
  userId: string;
}

/**
 * POST /v2/invitations/{token}/accept (`invitation.accepted` and `member.added`): the token's holder joins with the
 * invited role if they are signed in as the invited email. A token that is malformed, unknown, expired, revoked or
 * used answers one 404, so probing learns nothing; only a real token's holder learns that it was sent to another
 * address (403).
 */
export async function acceptInvitation(
  token: string,
  invitee: Invitee,
  { nowMs, requestId }: { nowMs: number; requestId?: string },
  deps: Pick<PeopleDeps, 'members' | 'people'>,
): Promise<{ workspaceId: string; member: MemberView }> {
  const invitation = isTokenShaped(token) ? await deps.members.invitationByToken(hashInvitationToken(token)) : undefined;
  if (!invitation || isExpired(invitation, nowMs)) throw new InvitationNotFound(OwnMessages.invitationNotFound);
  // A real token's holder signed in as someone else (or with no verified email): 403 in the permission shape, the
  // invitation left for its recipient.
  const email = await deps.people.verifiedEmailOf(invitee.userId);
  if (email === undefined || emailKeyOf(email) !== invitation.emailKey) throw new NotPermitted('invitations:accept', OwnMessages.invitationForAnotherEmail);
  const member: Membership = { workspaceId: invitation.workspaceId, userId: invitee.userId, email, role: invitation.role, joinedAt: new Date(nowMs).toISOString() };
  const actor = { kind: 'user' as const, userId: invitee.userId, email, role: invitation.role };
  const common = { workspaceId: invitation.workspaceId, actor, nowMs, ...(requestId ? { requestId } : {}) };
  const audits = [
    auditRecord({ ...common, action: 'invitation.accepted', target: { type: 'invitation', id: invitation.id }, changes: fieldChanges({ email: invitation.email }, undefined) }),
    auditRecord({ ...common, action: 'member.added', target: { type: 'member', id: invitee.userId }, changes: fieldChanges(undefined, { email, role: invitation.role }) }),
  ];
  const outcome = await deps.members.acceptInvitation(invitation, member, audits);
  if (outcome === 'gone') throw new InvitationNotFound(OwnMessages.invitationNotFound);
  if (outcome === 'alreadyMember') conflict(OwnMessages.alreadyMember);
  return { workspaceId: invitation.workspaceId, member: toMemberView(member) };
}
