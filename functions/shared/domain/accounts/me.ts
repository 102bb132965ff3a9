import type { Membership } from '../ports';
import type { Role } from './permissions';

/** `GET /v2/me`: the signed-in person and the workspaces they are in, with their role in each. */
export interface MeView {
  user: { sub: string; email: string | null };
  workspaces: Array<{ workspaceId: string; role: Role; joinedAt: string }>;
}

/**
 * The person as their token names them; their email from the token when it carries one (the local provider's do),
 * else from a membership (Cognito's access tokens carry none), else unknown (null) for a person in no workspace.
 * Workspaces in the order the person joined them.
 */
export function meView(person: { userId: string; email?: string }, memberships: readonly Membership[]): MeView {
  const joined = [...memberships].sort((a, b) => a.joinedAt.localeCompare(b.joinedAt) || a.workspaceId.localeCompare(b.workspaceId));
  return {
    user: { sub: person.userId, email: person.email ?? joined[0]?.email ?? null },
    workspaces: joined.map(({ workspaceId, role, joinedAt }) => ({ workspaceId, role, joinedAt })),
  };
}
