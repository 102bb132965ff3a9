import type { ShortenerClient } from '../../clients/typescript/src';
import type { paths } from '../../clients/typescript/src/schema';
import { ROLES, type Role } from '../../functions/shared/domain/accounts/permissions';
import { ApiRefusal, messageOf, type Io } from './commands';
import { UsageError } from './csv-links';

type MemberView = paths['/v2/members']['get']['responses'][200]['content']['application/json']['members'][number];
type InvitationView = paths['/v2/invitations']['get']['responses'][200]['content']['application/json']['invitations'][number];

/** A role named on the command line, checked here so a typo stops with exit code 2 before any call. */
function roleOf(text: string): Role {
  const role = text.trim().toLowerCase();
  if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  return role as Role;
}

const memberLine = (member: MemberView) => `${member.userId}\t${member.role}\t${member.email}\tjoined ${member.joinedAt}\n`;
const invitationLine = (invitation: InvitationView) => `${invitation.id}\t${invitation.role}\t${invitation.email}\tby ${invitation.invitedBy.email}\texpires ${invitation.expiresAt}\n`;

export async function listMembers(client: ShortenerClient, options: { json?: boolean }, io: Io): Promise<void> {
  const { data, error, response } = await client.GET('/v2/members');
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  if (options.json) io.out(`${JSON.stringify(data.members, null, 2)}\n`);
  else for (const member of data.members) io.out(memberLine(member));
}

/** The invitation goes by mail (its token never appears here): the person accepts it signed in as that email. */
export async function invite(client: ShortenerClient, email: string, options: { role: string; json?: boolean }, io: Io): Promise<void> {
  const { data, error, response } = await client.POST('/v2/invitations', { body: { email, role: roleOf(options.role) } });
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  io.out(options.json ? `${JSON.stringify(data, null, 2)}\n` : invitationLine(data));
}

export async function changeRole(client: ShortenerClient, userId: string, options: { role: string; json?: boolean }, io: Io): Promise<void> {
  const { data, error, response } = await client.PATCH('/v2/members/{userId}', { params: { path: { userId } }, body: { role: roleOf(options.role) } });
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  io.out(options.json ? `${JSON.stringify(data, null, 2)}\n` : memberLine(data));
}

export async function removeMember(client: ShortenerClient, userId: string, io: Io): Promise<void> {
  const { error, response } = await client.DELETE('/v2/members/{userId}', { params: { path: { userId } } });
  if (response.status !== 204) throw new ApiRefusal(messageOf(error, response.status));
  io.out(`${userId} removed: their next request is refused\n`);
}

export async function listInvitations(client: ShortenerClient, options: { json?: boolean }, io: Io): Promise<void> {
  const { data, error, response } = await client.GET('/v2/invitations');
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  if (options.json) io.out(`${JSON.stringify(data.invitations, null, 2)}\n`);
  else for (const invitation of data.invitations) io.out(invitationLine(invitation));
}

export async function revokeInvitation(client: ShortenerClient, id: string, io: Io): Promise<void> {
  const { error, response } = await client.DELETE('/v2/invitations/{id}', { params: { path: { id } } });
  if (response.status !== 204) throw new ApiRefusal(messageOf(error, response.status));
  io.out(`${id} revoked: its link no longer works\n`);
}
