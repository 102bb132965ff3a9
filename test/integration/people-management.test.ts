import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoKeyStore } from '../../functions/shared/adapters/dynamo-key-store';
import { DynamoMemberStore } from '../../functions/shared/adapters/dynamo-member-store';
import { DynamoWorkspaceSettings } from '../../functions/shared/adapters/dynamo-workspace-settings';
import { RECORD_EVERYTHING } from '../../functions/shared/domain/analytics/analytics-switches';
import { verdictFor } from '../../functions/shared/domain/accounts/api-keys';
import { createKey, type KeyContext } from '../../functions/shared/domain/accounts/key-management';
import type { Role, Scope } from '../../functions/shared/domain/accounts/permissions';
import { DependencyUnavailable, InvitationNotFound, MemberNotFound, MembershipConflict, MfaRequired, NotPermitted, PlanRequired } from '../../functions/shared/domain/errors';
import type { Plan } from '../../functions/shared/domain/limits/plans';
import type { Membership, OutgoingMail } from '../../functions/shared/domain/ports';
import { hashInvitationToken, newInvitationToken } from '../../functions/shared/domain/workspaces/invitation';
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
  type PeopleContext,
  type PeopleDeps,
} from '../../functions/shared/domain/workspaces/people-management';
import { OwnMessages } from '../../functions/shared/domain/messages';
import { StackOutputs } from '../../lib/stack-outputs';
import { keyCaller } from '../support/callers';
import { dynamo, freshTables } from '../support/local-stack';

/** The people's rules through the real store, against DynamoDB Local: transactions, seats, tokens and audit records. */
const run = Date.now().toString(36);
let counter = 0;
let deps: PeopleDeps;
let store: DynamoMemberStore;
let keyStore: DynamoKeyStore;
let auditTable: string;
const mailbox: OutgoingMail[] = [];
/** The user pool's verified emails, by sub: who an acceptance is checked against. */
const verifiedEmails = new Map<string, string>();
/** Whom the user pool was asked to sign out everywhere, in order; a sub here makes the next sign-out fail. */
const signedOut: string[] = [];
let signOutFailsFor: string | undefined;

beforeAll(async () => {
  const tables = await freshTables();
  auditTable = tables[StackOutputs.auditTable] as string;
  store = new DynamoMemberStore(dynamo(), tables[StackOutputs.membersTable] as string, auditTable);
  keyStore = new DynamoKeyStore(dynamo(), tables[StackOutputs.apiKeysTable] as string, auditTable);
  const mailer = { send: async (mail: OutgoingMail) => void mailbox.push(mail) };
  const people = {
    verifiedEmailOf: async (userId: string) => verifiedEmails.get(userId),
    signOutEverywhere: async (userId: string) => {
      if (userId === signOutFailsFor) throw new Error('the user pool is unreachable');
      signedOut.push(userId);
    },
  };
  deps = { members: store, keys: keyStore, workspaces: new DynamoWorkspaceSettings(dynamo(), tables[StackOutputs.accountsTable] as string, auditTable), mailer, people, dashboardUrl: 'http://localhost:3000/app/' };
});

interface Person {
  userId: string;
  email: string;
}

function person(): Person {
  counter += 1;
  const someone = { userId: `sub-${run}-${counter}`, email: `person${counter}.${run}@example.com` };
  verifiedEmails.set(someone.userId, someone.email);
  return someone;
}

/** A workspace with its first owner, as the ops CLI or the dev user's seeding makes one. */
async function workspace(plan: Plan = 'PRO'): Promise<{ id: string; plan: Plan; owner: Person }> {
  counter += 1;
  const id = `acct_${run}${counter}`;
  const owner = person();
  await store.addMember({ workspaceId: id, ...owner, role: 'owner', joinedAt: new Date().toISOString() });
  return { id, plan, owner };
}

function as(space: { id: string; plan: Plan }, who: Person, role: Role, nowMs = Date.now(), mfaUsed = false): PeopleContext {
  return {
    caller: keyCaller({ keyId: `user_${who.userId}`, accountId: space.id, owner: `acct:${space.id}`, plan: space.plan, actor: { kind: 'user', ...who, role }, mfa: { used: mfaUsed, required: false } }),
    nowMs,
    requestId: `req-${counter}`,
  };
}

/** The token the invitation mail to `email` carried (its link's last segment). */
function tokenMailedTo(email: string): string {
  const mail = mailbox.filter((each) => each.to === email).at(-1);
  const token = /\/app\/invitations\/([A-Za-z0-9_-]+)$/m.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no invitation mailed to ${email}`);
  return token;
}

/** Invites `who` with `role` and accepts as them: a member of the workspace. */
async function join(space: { id: string; plan: Plan; owner: Person }, who: Person, role: Role): Promise<void> {
  await invite({ email: who.email, role }, as(space, space.owner, 'owner'), deps);
  await acceptInvitation(tokenMailedTo(who.email), who, { nowMs: Date.now() }, deps);
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

async function auditOf(workspaceId: string): Promise<Array<Record<string, unknown>>> {
  const { Items } = await dynamo().send(new QueryCommand({ TableName: auditTable, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `ws#${workspaceId}` }, ConsistentRead: true }));
  return Items ?? [];
}

describe('an invitation', () => {
  it('mails a link to the dashboard, holds a seat, and makes the invited person a member once; every step audited without the token', async () => {
    const space = await workspace('INDIE');
    const guest = person();
    const made = await invite({ email: guest.email.toUpperCase(), role: 'admin' }, as(space, space.owner, 'owner'), deps);
    expect(made).toMatchObject({ email: guest.email.toUpperCase(), role: 'admin', invitedBy: space.owner });
    const token = tokenMailedTo(guest.email.toUpperCase());
    expect(mailbox.at(-1)?.text).toContain(`http://localhost:3000/app/invitations/${token}`);
    expect((await listInvitations(as(space, space.owner, 'owner'), deps)).invitations.map((each) => each.id)).toEqual([made.id]);
    expect((await viewWorkspace(as(space, space.owner, 'owner'), deps)).seats).toEqual({ used: 2, limit: 3 });

    // Bound to the email case-insensitively: the guest signs in with it in lower case.
    const accepted = await acceptInvitation(token, guest, { nowMs: Date.now(), requestId: 'req-accept' }, deps);
    expect(accepted).toEqual({ workspaceId: space.id, member: { ...guest, role: 'admin', joinedAt: expect.any(String) } });
    expect(await store.membership(space.id, guest.userId)).toMatchObject({ role: 'admin' });
    expect((await listInvitations(as(space, space.owner, 'owner'), deps)).invitations).toEqual([]);
    expect((await viewWorkspace(as(space, guest, 'admin'), deps)).seats).toEqual({ used: 2, limit: 3 });

    // Replayed, by the same person or anyone: gone.
    expect(await failure(acceptInvitation(token, guest, { nowMs: Date.now() }, deps))).toEqual(new InvitationNotFound('Invitation not found'));

    const records = await auditOf(space.id);
    expect(records.map((record) => record.action).sort()).toEqual(['invitation.accepted', 'invitation.created', 'member.added']);
    expect(records.find((record) => record.action === 'member.added')).toMatchObject({ actor: { kind: 'user', userId: guest.userId, role: 'admin' }, requestId: 'req-accept', target: { type: 'member', id: guest.userId } });
    const stored = JSON.stringify(records);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(hashInvitationToken(token));
  });

  it('refuses another email than the invited one (403), leaving the invitation for its recipient', async () => {
    const space = await workspace();
    const guest = person();
    await invite({ email: guest.email, role: 'member' }, as(space, space.owner, 'owner'), deps);
    const token = tokenMailedTo(guest.email);
    const intruder = person();
    expect(await failure(acceptInvitation(token, intruder, { nowMs: Date.now() }, deps))).toEqual(
      new NotPermitted('invitations:accept', 'This invitation was sent to another email address: sign in as its recipient to accept it'),
    );
    expect(await store.membership(space.id, intruder.userId)).toBeUndefined();
    // The token's holder whose email the pool has not verified (or who is gone from it) is refused alike.
    verifiedEmails.delete(guest.userId);
    expect(await failure(acceptInvitation(token, guest, { nowMs: Date.now() }, deps))).toBeInstanceOf(NotPermitted);
    verifiedEmails.set(guest.userId, guest.email);
    await acceptInvitation(token, guest, { nowMs: Date.now() }, deps);
    expect(await store.membership(space.id, guest.userId)).toMatchObject({ role: 'member' });
  });

  it('answers one 404 to guessed, malformed, revoked and expired tokens alike', async () => {
    const space = await workspace();
    const guest = person();
    const notFound = new InvitationNotFound('Invitation not found');
    for (const guess of [newInvitationToken().token, 'short', '', `${'A'.repeat(43)}`, '../../members', 'ünïcode-ünïcode-ünïcode-ünïcode-ünïcode-ünï']) {
      expect(await failure(acceptInvitation(guess, guest, { nowMs: Date.now() }, deps))).toEqual(notFound);
    }
    const revoked = await invite({ email: guest.email, role: 'viewer' }, as(space, space.owner, 'owner'), deps);
    const revokedToken = tokenMailedTo(guest.email);
    await revokeInvitation(revoked.id, as(space, space.owner, 'owner'), deps);
    expect(await failure(acceptInvitation(revokedToken, guest, { nowMs: Date.now() }, deps))).toEqual(notFound);

    await invite({ email: guest.email, role: 'viewer' }, as(space, space.owner, 'owner'), deps);
    const late = Date.now() + 7 * 24 * 60 * 60_000 + 1;
    expect(await failure(acceptInvitation(tokenMailedTo(guest.email), guest, { nowMs: late }, deps))).toEqual(notFound);
    expect(await store.membership(space.id, guest.userId)).toBeUndefined();
  });

  it('lets many racing acceptances of one token make one membership', async () => {
    const space = await workspace();
    const guest = person();
    await invite({ email: guest.email, role: 'member' }, as(space, space.owner, 'owner'), deps);
    const token = tokenMailedTo(guest.email);
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => failure(acceptInvitation(token, guest, { nowMs: Date.now() }, deps))));
    expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome instanceof InvitationNotFound || outcome instanceof MembershipConflict)).toHaveLength(5);
    expect((await listMembers(as(space, space.owner, 'owner'), deps)).members).toHaveLength(2);
  });

  it('is taken back when its mail cannot be sent: 503, the seat free again, both steps audited', async () => {
    const space = await workspace('INDIE');
    const guest = person();
    const failing = { ...deps, mailer: { send: () => Promise.reject(new Error('SES refused')) } };
    expect(await failure(invite({ email: guest.email, role: 'member' }, as(space, space.owner, 'owner'), failing))).toBeInstanceOf(DependencyUnavailable);
    expect((await listInvitations(as(space, space.owner, 'owner'), deps)).invitations).toEqual([]);
    expect((await viewWorkspace(as(space, space.owner, 'owner'), deps)).seats.used).toBe(1);
    expect((await auditOf(space.id)).map((record) => record.action).sort()).toEqual(['invitation.created', 'invitation.revoked']);
  });

  it('refuses a second pending invitation to one email and an invitation to a member', async () => {
    const space = await workspace();
    const guest = person();
    await invite({ email: guest.email, role: 'member' }, as(space, space.owner, 'owner'), deps);
    expect(await failure(invite({ email: guest.email.toUpperCase(), role: 'viewer' }, as(space, space.owner, 'owner'), deps))).toEqual(new MembershipConflict('This email already has a pending invitation: revoke it to send another'));
    expect(await failure(invite({ email: space.owner.email, role: 'viewer' }, as(space, space.owner, 'owner'), deps))).toEqual(new MembershipConflict('This person is already a member of the workspace'));
  });
});

describe('seats', () => {
  it('count pending invitations: past the plan\'s seats an invitation is refused in the plan shape, a revocation frees one', async () => {
    const free = await workspace('FREE');
    const refused = await failure(invite({ email: person().email, role: 'member' }, as(free, free.owner, 'owner'), deps));
    expect(refused).toBeInstanceOf(PlanRequired);
    expect(refused).toMatchObject({ feature: 'seats', currentPlan: 'FREE', requiredPlan: 'INDIE' });

    const indie = await workspace('INDIE');
    const first = await invite({ email: person().email, role: 'member' }, as(indie, indie.owner, 'owner'), deps);
    await invite({ email: person().email, role: 'member' }, as(indie, indie.owner, 'owner'), deps);
    expect(await failure(invite({ email: person().email, role: 'member' }, as(indie, indie.owner, 'owner'), deps))).toBeInstanceOf(PlanRequired);
    await revokeInvitation(first.id, as(indie, indie.owner, 'owner'), deps);
    await invite({ email: person().email, role: 'member' }, as(indie, indie.owner, 'owner'), deps);
  });

  it('hold under concurrency: of 10 racing invitations to a 3-seat workspace with one member, exactly 2 are made', async () => {
    const space = await workspace('INDIE');
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => failure(invite({ email: person().email, role: 'viewer' }, as(space, space.owner, 'owner'), deps))));
    expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(2);
    expect(outcomes.filter((outcome) => outcome instanceof PlanRequired)).toHaveLength(8);
    expect((await listInvitations(as(space, space.owner, 'owner'), deps)).invitations).toHaveLength(2);
    expect((await viewWorkspace(as(space, space.owner, 'owner'), deps)).seats).toEqual({ used: 3, limit: 3 });
  });

  it('are freed by an invitation\'s expiry, though TTL has not removed it yet', async () => {
    const space = await workspace('FREE');
    const guest = person();
    const pending = { ...as(space, space.owner, 'owner'), caller: { ...as(space, space.owner, 'owner').caller, plan: 'INDIE' as const } };
    await invite({ email: guest.email, role: 'member' }, pending, deps);
    const later = Date.now() + 8 * 24 * 60 * 60_000;
    expect((await viewWorkspace({ ...pending, nowMs: later }, deps)).seats.used).toBe(1);
    expect((await listInvitations({ ...pending, nowMs: later }, deps)).invitations).toEqual([]);
  });
});

describe('roles', () => {
  it('keep the last owner: they can neither be demoted nor leave (409), until another owner exists', async () => {
    const space = await workspace();
    const lastOwner = new MembershipConflict('A workspace must keep at least one owner: make another member an owner first');
    expect(await failure(changeMemberRole(space.owner.userId, { role: 'admin' }, as(space, space.owner, 'owner'), deps))).toEqual(lastOwner);
    expect(await failure(removeMember(space.owner.userId, as(space, space.owner, 'owner'), deps))).toEqual(lastOwner);
    const second = person();
    await join(space, second, 'owner');
    await removeMember(space.owner.userId, as(space, space.owner, 'owner'), deps);
    expect(await store.membership(space.id, space.owner.userId)).toBeUndefined();
    expect(await failure(removeMember(second.userId, as(space, second, 'owner'), deps))).toEqual(lastOwner);
  });

  it('never leave a workspace without an owner when two owners demote each other at once', async () => {
    const space = await workspace();
    const other = person();
    await join(space, other, 'owner');
    const outcomes = await Promise.all([
      failure(changeMemberRole(other.userId, { role: 'member' }, as(space, space.owner, 'owner'), deps)),
      failure(changeMemberRole(space.owner.userId, { role: 'member' }, as(space, other, 'owner'), deps)),
    ]);
    expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome instanceof MembershipConflict)).toHaveLength(1);
    const owners = (await store.members(space.id)).filter((member) => member.role === 'owner');
    expect(owners).toHaveLength(1);
  });

  it('stop an admin demoting or removing an owner or making an owner, and a member escalating, each with the permission named', async () => {
    const space = await workspace();
    const admin = person();
    const member = person();
    await join(space, admin, 'admin');
    await join(space, member, 'member');
    const permissionOf = async (promise: Promise<unknown>) => ((await failure(promise)) as NotPermitted | undefined)?.permission;
    expect(await permissionOf(changeMemberRole(space.owner.userId, { role: 'viewer' }, as(space, admin, 'admin'), deps))).toBe('owners:manage');
    expect(await permissionOf(removeMember(space.owner.userId, as(space, admin, 'admin'), deps))).toBe('owners:manage');
    expect(await permissionOf(changeMemberRole(admin.userId, { role: 'owner' }, as(space, admin, 'admin'), deps))).toBe('owners:manage');
    expect(await permissionOf(invite({ email: person().email, role: 'owner' }, as(space, admin, 'admin'), deps))).toBe('owners:manage');
    expect(await permissionOf(changeMemberRole(member.userId, { role: 'admin' }, as(space, member, 'member'), deps))).toBe('members:manage');
    expect(await store.membership(space.id, space.owner.userId)).toMatchObject({ role: 'owner' });
    expect(await store.membership(space.id, member.userId)).toMatchObject({ role: 'member' });

    // What an admin may do: manage non-owners, with the change audited.
    expect(await changeMemberRole(member.userId, { role: 'viewer' }, as(space, admin, 'admin'), deps)).toMatchObject({ role: 'viewer' });
    const changed = (await auditOf(space.id)).find((record) => record.action === 'member.role_changed');
    expect(changed).toMatchObject({ actor: { kind: 'user', userId: admin.userId, role: 'admin' }, target: { type: 'member', id: member.userId }, changes: { role: { before: 'member', after: 'viewer' } } });
    // And anyone may leave.
    await removeMember(member.userId, as(space, member, 'viewer'), deps);
    expect(await store.membership(space.id, member.userId)).toBeUndefined();
  });

  it('sign a removed member out everywhere before removing them (their refresh tokens die), and not someone who leaves', async () => {
    const space = await workspace();
    const [removed, leaving] = [person(), person()];
    await join(space, removed, 'member');
    await join(space, leaving, 'member');
    await removeMember(removed.userId, as(space, space.owner, 'owner'), deps);
    await removeMember(leaving.userId, as(space, leaving, 'member'), deps);
    expect(signedOut.filter((userId) => userId === removed.userId || userId === leaving.userId)).toEqual([removed.userId]);
    // Refused removals sign nobody out.
    const admin = person();
    await join(space, admin, 'admin');
    await failure(removeMember(space.owner.userId, as(space, admin, 'admin'), deps));
    expect(signedOut).not.toContain(space.owner.userId);
  });

  it('keep the member when they cannot be signed out: 503, nothing changed, and a retry works', async () => {
    const space = await workspace();
    const member = person();
    await join(space, member, 'member');
    signOutFailsFor = member.userId;
    expect(await failure(removeMember(member.userId, as(space, space.owner, 'owner'), deps))).toBeInstanceOf(DependencyUnavailable);
    expect(await store.membership(space.id, member.userId)).toMatchObject({ role: 'member' });
    expect((await auditOf(space.id)).filter((record) => record.action === 'member.removed')).toEqual([]);
    signOutFailsFor = undefined;
    await removeMember(member.userId, as(space, space.owner, 'owner'), deps);
    expect(await store.membership(space.id, member.userId)).toBeUndefined();
  });

  it('answer 404 for another workspace\'s member or invitation, and for nobody', async () => {
    const [mine, theirs] = [await workspace(), await workspace()];
    const made = await invite({ email: person().email, role: 'member' }, as(theirs, theirs.owner, 'owner'), deps);
    const notFound = new MemberNotFound('Member not found');
    expect(await failure(changeMemberRole(theirs.owner.userId, { role: 'viewer' }, as(mine, mine.owner, 'owner'), deps))).toEqual(notFound);
    expect(await failure(removeMember(theirs.owner.userId, as(mine, mine.owner, 'owner'), deps))).toEqual(notFound);
    expect(await failure(removeMember('sub-nobody', as(mine, mine.owner, 'owner'), deps))).toEqual(notFound);
    expect(await failure(removeMember('../seats', as(mine, mine.owner, 'owner'), deps))).toEqual(notFound);
    expect(await failure(revokeInvitation(made.id, as(mine, mine.owner, 'owner'), deps))).toEqual(new InvitationNotFound('Invitation not found'));
    expect((await listInvitations(as(theirs, theirs.owner, 'owner'), deps)).invitations).toHaveLength(1);
  });
});

describe('a person\'s keys', () => {
  /** A key `who` makes in the workspace with `scopes`, as POST /v2/keys does. */
  const keyOf = async (space: { id: string; plan: Plan }, who: Person, role: Role, scopes: Scope[]) => (await createKey({ name: scopes.join(' '), scopes }, as(space, who, role), keyStore)).secret;
  const operatorKey = async (space: { id: string; plan: Plan }) => {
    const context: KeyContext = { caller: keyCaller({ keyId: 'key_ops', accountId: space.id, owner: `acct:${space.id}`, plan: space.plan, actor: { kind: 'operator' } }), nowMs: Date.now() };
    return (await createKey({ name: 'ops', scopes: ['links:write'] }, context, keyStore)).secret;
  };
  /** Whether the authorizer, reading the key table as it does, lets the key in. */
  const works = async (secret: string) => (await verdictFor(`Bearer ${secret}`, (keyHash) => keyStore.findByHash(keyHash), Date.now())).allowed;
  const revocationsOf = async (workspaceId: string) => (await auditOf(workspaceId)).filter((record) => record.action === 'key.revoked');

  it('are all revoked by their removal, those beyond their new role by a demotion, each audited; other people\'s and operators\' keys stay', async () => {
    const space = await workspace();
    const [admin, member] = [person(), person()];
    await join(space, admin, 'admin');
    await join(space, member, 'member');
    const adminWide = await keyOf(space, admin, 'admin', ['links:read', 'domains:write', 'audit:read']);
    const adminReader = await keyOf(space, admin, 'admin', ['links:read']);
    const memberWriter = await keyOf(space, member, 'member', ['links:write']);
    const ownerKey = await keyOf(space, space.owner, 'owner', ['domains:write']);
    const opsKey = await operatorKey(space);

    await changeMemberRole(admin.userId, { role: 'viewer' }, as(space, space.owner, 'owner'), deps);
    expect(await Promise.all([adminWide, adminReader, memberWriter].map(works))).toEqual([false, true, true]);
    await removeMember(member.userId, as(space, space.owner, 'owner'), deps);
    expect(await works(memberWriter)).toBe(false);
    // Leaving is a removal too.
    await removeMember(admin.userId, as(space, admin, 'viewer'), deps);
    expect(await Promise.all([adminReader, ownerKey, opsKey].map(works))).toEqual([false, true, true]);

    const revoked = await revocationsOf(space.id);
    expect(revoked).toHaveLength(3);
    expect(revoked.map((record) => (record.actor as { userId: string }).userId).sort()).toEqual([admin.userId, space.owner.userId, space.owner.userId].sort());
    for (const record of revoked) expect(record).toMatchObject({ target: { type: 'key' }, changes: { status: { before: 'active', after: 'revoked' } } });
  });

  it('stay when the change is refused (the last owner\'s); are revoked before a removal that then fails, leaving the member keyless, and its retry finishes', async () => {
    const space = await workspace();
    const ownerKey = await keyOf(space, space.owner, 'owner', ['domains:write']);
    const lastOwner = new MembershipConflict('A workspace must keep at least one owner: make another member an owner first');
    expect(await failure(changeMemberRole(space.owner.userId, { role: 'member' }, as(space, space.owner, 'owner'), deps))).toEqual(lastOwner);
    expect(await failure(removeMember(space.owner.userId, as(space, space.owner, 'owner'), deps))).toEqual(lastOwner);
    expect(await works(ownerKey)).toBe(true);

    const member = person();
    await join(space, member, 'member');
    const memberKey = await keyOf(space, member, 'member', ['links:write']);
    const unreachable = Object.assign(Object.create(store) as DynamoMemberStore, { removeMember: () => Promise.reject(new Error('DynamoDB is unreachable')) });
    expect(await failure(removeMember(member.userId, as(space, space.owner, 'owner'), { ...deps, members: unreachable }))).toBeInstanceOf(Error);
    expect(await store.membership(space.id, member.userId)).toMatchObject({ role: 'member' });
    expect(await works(memberKey)).toBe(false);
    await removeMember(member.userId, as(space, space.owner, 'owner'), deps);
    expect(await store.membership(space.id, member.userId)).toBeUndefined();
    expect(await revocationsOf(space.id)).toHaveLength(1);
  });
});

describe('the workspace', () => {
  it('is renamed with its audit record, and shows its name, plan, seats and the caller\'s role', async () => {
    const space = await workspace('INDIE');
    const renamed = await updateWorkspace({ name: ' Équipe Zoë ' }, as(space, space.owner, 'owner'), deps);
    expect(renamed).toEqual({ id: space.id, name: 'Équipe Zoë', plan: 'INDIE', createdAt: expect.any(String), seats: { used: 1, limit: 3 }, role: 'owner', security: { mfaRequired: false }, analytics: RECORD_EVERYTHING });
    const records = await auditOf(space.id);
    expect(records.find((record) => record.action === 'workspace.updated')).toMatchObject({ target: { type: 'workspace', id: space.id }, changes: { name: { after: 'Équipe Zoë' } } });
    const members: Membership[] = await store.members(space.id);
    expect(members).toHaveLength(1);
  });

  it('requires MFA when an owner signed in with it says so, with its audit record, and stops requiring it again', async () => {
    const space = await workspace();
    const owner = as(space, space.owner, 'owner', Date.now(), true);
    expect(await updateWorkspace({ security: { mfaRequired: true } }, owner, deps)).toMatchObject({ security: { mfaRequired: true } });
    expect(await viewWorkspace(owner, deps)).toMatchObject({ security: { mfaRequired: true } });
    // Saying it again changes nothing and records nothing.
    await updateWorkspace({ security: { mfaRequired: true } }, owner, deps);
    expect(await updateWorkspace({ security: { mfaRequired: false }, name: 'Both at once' }, owner, deps)).toMatchObject({ name: 'Both at once', security: { mfaRequired: false } });
    const changes = (await auditOf(space.id)).filter((record) => record.action === 'workspace.updated').map((record) => record.changes);
    expect(changes).toEqual(
      expect.arrayContaining([{ mfaRequired: { before: false, after: true } }, { mfaRequired: { before: true, after: false }, name: { after: 'Both at once' } }]),
    );
    expect(changes).toHaveLength(2);
  });

  it('refuses the sign-in rules to an admin (403 naming security:manage), even one signed in with MFA, and changes nothing', async () => {
    const space = await workspace();
    const admin = person();
    await store.addMember({ workspaceId: space.id, ...admin, role: 'admin', joinedAt: new Date().toISOString() });
    const refused = await failure(updateWorkspace({ security: { mfaRequired: true }, name: 'Sneaky' }, as(space, admin, 'admin', Date.now(), true), deps));
    expect(refused).toEqual(new NotPermitted('security:manage', OwnMessages.roleForbids('admin', 'security:manage')));
    expect(await viewWorkspace(as(space, space.owner, 'owner'), deps)).toMatchObject({ name: null, security: { mfaRequired: false } });
  });

  it('refuses to require MFA of an owner who signed in without it: they would lock themselves out', async () => {
    const space = await workspace();
    expect(await failure(updateWorkspace({ security: { mfaRequired: true } }, as(space, space.owner, 'owner'), deps))).toEqual(new MfaRequired(OwnMessages.mfaBeforeRequiring));
    // Switching it off needs no MFA of the owner (they could not be here without it while it was on).
    expect(await updateWorkspace({ security: { mfaRequired: false } }, as(space, space.owner, 'owner'), deps)).toMatchObject({ security: { mfaRequired: false } });
  });

  it.each([[{}], [{ security: { mfaRequired: 'yes' } }], [{ security: { mfaRequired: true, extra: 1 } }], [{ security: null }], [{ unknown: 1 }], [{ analytics: { city: 'no' } }], [{ analytics: { city: false, extra: true } }]])('refuses a malformed patch %j (400)', async (body) => {
    const space = await workspace();
    await expect(updateWorkspace(body, as(space, space.owner, 'owner', Date.now(), true), deps)).rejects.toThrow(/security must be|analytics must be|Send at least one setting/);
  });

  it('switches analytics dimensions off and on, those named only, each change audited with before and after (issue 30)', async () => {
    const space = await workspace();
    const owner = as(space, space.owner, 'owner');
    const off = await updateWorkspace({ analytics: { city: false, campaign: false } }, owner, deps);
    expect(off.analytics).toEqual({ ...RECORD_EVERYTHING, city: false, campaign: false });
    // A later change keeps what it does not name; the name and the switches go in one write and one record.
    const renamed = await updateWorkspace({ name: 'Zoë', analytics: { referrer: false, campaign: true } }, owner, deps);
    expect(renamed).toMatchObject({ name: 'Zoë', analytics: { ...RECORD_EVERYTHING, city: false, referrer: false } });
    expect((await viewWorkspace(as(space, space.owner, 'viewer'), deps)).analytics).toEqual({ ...RECORD_EVERYTHING, city: false, referrer: false });
    const updates = (await auditOf(space.id)).filter((record) => record.action === 'workspace.updated');
    expect(updates.map((record) => record.changes)).toEqual(
      expect.arrayContaining([
        { analytics: { before: RECORD_EVERYTHING, after: { ...RECORD_EVERYTHING, city: false, campaign: false } } },
        { name: { after: 'Zoë' }, analytics: { before: { ...RECORD_EVERYTHING, city: false, campaign: false }, after: { ...RECORD_EVERYTHING, city: false, referrer: false } } },
      ]),
    );
    // Switching to what is already set writes nothing.
    await updateWorkspace({ analytics: { city: false } }, owner, deps);
    expect((await auditOf(space.id)).filter((record) => record.action === 'workspace.updated')).toHaveLength(2);
  });

  it('applies a name, analytics switches and the MFA requirement sent together in one write with one audit record', async () => {
    const space = await workspace();
    const owner = as(space, space.owner, 'owner', Date.now(), true);
    const changed = await updateWorkspace({ name: 'Tout ensemble', analytics: { city: false }, security: { mfaRequired: true } }, owner, deps);
    expect(changed).toMatchObject({ name: 'Tout ensemble', analytics: { ...RECORD_EVERYTHING, city: false }, security: { mfaRequired: true } });
    const updates = (await auditOf(space.id)).filter((record) => record.action === 'workspace.updated');
    expect(updates.map((record) => record.changes)).toEqual([
      { name: { after: 'Tout ensemble' }, analytics: { before: RECORD_EVERYTHING, after: { ...RECORD_EVERYTHING, city: false } }, mfaRequired: { before: false, after: true } },
    ]);
  });

  it('lets an admin switch analytics (workspace:write) but not the sign-in rules sent with them: nothing of that patch is applied', async () => {
    const space = await workspace();
    const admin = person();
    await store.addMember({ workspaceId: space.id, ...admin, role: 'admin', joinedAt: new Date().toISOString() });
    const asAdmin = as(space, admin, 'admin', Date.now(), true);
    expect(await failure(updateWorkspace({ analytics: { os: false }, security: { mfaRequired: false } }, asAdmin, deps))).toEqual(
      new NotPermitted('security:manage', OwnMessages.roleForbids('admin', 'security:manage')),
    );
    expect((await viewWorkspace(asAdmin, deps)).analytics).toEqual(RECORD_EVERYTHING);
    expect((await updateWorkspace({ analytics: { os: false } }, asAdmin, deps)).analytics).toEqual({ ...RECORD_EVERYTHING, os: false });
  });
});
