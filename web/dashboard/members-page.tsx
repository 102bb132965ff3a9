import { useEffect, useState } from 'preact/hooks';
import { call, type Api, type Problem } from './api';
import type { paths } from '../../clients/typescript/src/schema';
import { ROLES, type Role } from '../../functions/shared/domain/accounts/permissions';
import { formatDateTime, ProblemNote } from './ui';
import { useAllowed, useCan } from './workspace';

type Workspace = paths['/v2/workspace']['get']['responses'][200]['content']['application/json'];
type Member = paths['/v2/members']['get']['responses'][200]['content']['application/json']['members'][number];
type Invitation = paths['/v2/invitations']['get']['responses'][200]['content']['application/json']['invitations'][number];

/**
 * The workspace's people: who is in it and with which role, pending invitations, inviting someone, changing a role,
 * removing a member (or leaving). Controls appear where the person's role allows them; the API decides anyway.
 * `me`: the signed-in person's user id (leaving is everyone's right; removing others is not).
 */
export function MembersPage({ api, me, onLeft }: { api: Api; me: string; onLeft: () => void }) {
  const manage = useAllowed('POST /v2/invitations');
  const manageOwners = useCan('owners:manage');
  const [workspace, setWorkspace] = useState<Workspace>();
  const [members, setMembers] = useState<Member[]>();
  const [invitations, setInvitations] = useState<Invitation[]>();
  const [problem, setProblem] = useState<Problem>();
  // Owners alone make or manage owners (functions/shared/domain/workspaces/role-rules.ts): the same rule, shown.
  const givable = ROLES.filter((role) => role !== 'owner' || manageOwners);
  const mayManage = (member: Member) => manage && (member.role !== 'owner' || manageOwners);

  const load = async () => {
    const [workspaceAnswer, membersAnswer] = await Promise.all([call(() => api.GET('/v2/workspace')), call(() => api.GET('/v2/members'))]);
    if ('problem' in workspaceAnswer) return setProblem(workspaceAnswer.problem);
    if ('problem' in membersAnswer) return setProblem(membersAnswer.problem);
    setWorkspace(workspaceAnswer.data);
    setMembers(membersAnswer.data.members);
    if (!manage) return;
    const invitationsAnswer = await call(() => api.GET('/v2/invitations'));
    if ('problem' in invitationsAnswer) return setProblem(invitationsAnswer.problem);
    setInvitations(invitationsAnswer.data.invitations);
  };
  useEffect(() => void load(), [api, manage]);

  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      <ProblemNote problem={problem} />
      {workspace && (
        <p>
          Workspace <strong>{workspace.name ?? workspace.id}</strong> ({workspace.plan}): {workspace.seats.used} of {workspace.seats.limit ?? 'unlimited'} seats used, pending invitations included. Your role:{' '}
          <strong data-testid="my-role">{workspace.role}</strong>.
        </p>
      )}
      {manage && <InviteForm api={api} roles={givable} onInvited={load} />}
      {members && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">The workspace's members</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <MemberRow key={member.userId} api={api} member={member} isMe={member.userId === me} canManage={mayManage(member)} roles={givable} onChanged={load} onLeft={onLeft} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {manage && invitations && (
        <>
          <h2>Pending invitations</h2>
          {invitations.length === 0 ? (
            <p class="empty">No pending invitations.</p>
          ) : (
            <ul class="invitations">
              {invitations.map((invitation) => (
                <InvitationItem key={invitation.id} api={api} invitation={invitation} onRevoked={load} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function InviteForm({ api, roles, onInvited }: { api: Api; roles: Role[]; onInvited: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [problem, setProblem] = useState<Problem>();
  const [said, setSaid] = useState('');
  const invite = async (event: Event) => {
    event.preventDefault();
    const answer = await call(() => api.POST('/v2/invitations', { body: { email: email.trim(), role } }));
    if ('problem' in answer) return setProblem(answer.problem);
    setProblem(undefined);
    setSaid(`Invitation sent to ${answer.data.email}.`);
    setEmail('');
    await onInvited();
  };
  return (
    <form class="panel" onSubmit={invite} noValidate>
      <h2>Invite someone</h2>
      <div class="filters">
        <div class="field">
          <label for="invite-email">Email</label>
          <input id="invite-email" type="email" autoComplete="off" value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
            {roles.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Send invitation</button>
      </div>
      <ProblemNote problem={problem} />
      <p role="status" class="said">
        {said}
      </p>
    </form>
  );
}

function MemberRow(props: { api: Api; member: Member; isMe: boolean; canManage: boolean; roles: Role[]; onChanged: () => Promise<void>; onLeft: () => void }) {
  const { api, member, isMe, canManage, roles, onChanged, onLeft } = props;
  const [problem, setProblem] = useState<Problem>();
  const path = { params: { path: { userId: member.userId } } };
  const changeRole = async (role: Role) => {
    const answer = await call(() => api.PATCH('/v2/members/{userId}', { ...path, body: { role } }));
    if ('problem' in answer) return setProblem(answer.problem);
    setProblem(undefined);
    await onChanged();
  };
  const remove = async () => {
    const answer = await call(() => api.DELETE('/v2/members/{userId}', path));
    if ('problem' in answer) return setProblem(answer.problem);
    if (isMe) return onLeft();
    await onChanged();
  };
  return (
    <tr>
      <th scope="row">
        {member.email}
        {isMe && ' (you)'}
      </th>
      <td>
        {canManage ? (
          <select aria-label={`Role of ${member.email}`} value={member.role} onChange={(event) => void changeRole(event.currentTarget.value as Role)}>
            {/* A role the person may not give still shows as the current one. */}
            {(roles.includes(member.role) ? roles : [member.role, ...roles]).map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        ) : (
          member.role
        )}
      </td>
      <td>{formatDateTime(member.joinedAt)}</td>
      <td>
        {(canManage || isMe) && (
          <button type="button" class="quiet small" onClick={() => void remove()} aria-label={isMe ? 'Leave this workspace' : `Remove ${member.email}`}>
            {isMe ? 'Leave' : 'Remove'}
          </button>
        )}
        <ProblemNote problem={problem} />
      </td>
    </tr>
  );
}

function InvitationItem({ api, invitation, onRevoked }: { api: Api; invitation: Invitation; onRevoked: () => Promise<void> }) {
  const [problem, setProblem] = useState<Problem>();
  const revoke = async () => {
    const answer = await call(() => api.DELETE('/v2/invitations/{id}', { params: { path: { id: invitation.id } } }));
    if ('problem' in answer) return setProblem(answer.problem);
    await onRevoked();
  };
  return (
    <li>
      {invitation.email} as {invitation.role}, invited by {invitation.invitedBy.email}, until {formatDateTime(invitation.expiresAt)}{' '}
      <button type="button" class="quiet small" onClick={() => void revoke()} aria-label={`Revoke the invitation of ${invitation.email}`}>
        Revoke
      </button>
      <ProblemNote problem={problem} />
    </li>
  );
}
