import type { Actor } from '../accounts/caller';
import { roleAllows, type Role } from '../accounts/permissions';
import { NotPermitted } from '../errors';
import { OwnMessages } from '../messages';

/** The person acting in a workspace: these routes are people's powers, so the guard let no key through. */
export type Manager = Extract<Actor, { kind: 'user' }>;

export function managerOf(actor: Actor): Manager {
  if (actor.kind !== 'user') throw new NotPermitted('members:manage', OwnMessages.peopleOnly('members:manage'));
  return actor;
}

function refuse(role: Role, permission: 'members:manage' | 'owners:manage'): never {
  throw new NotPermitted(permission, OwnMessages.roleForbids(role, permission));
}

/**
 * Whether `manager` may act on people in `roles` (a member's role now and the one they would get, an invitation's
 * role): admins manage members, viewers and admins; only owners make, unmake, invite or remove owners.
 */
export function assertMayManage(manager: Role, ...roles: Role[]): void {
  if (!roleAllows(manager, 'members:manage')) refuse(manager, 'members:manage');
  if (roles.includes('owner') && !roleAllows(manager, 'owners:manage')) refuse(manager, 'owners:manage');
}

/** Anyone may leave a workspace (the store keeps its last owner); removing someone else is managing them. */
export function assertMayRemove(manager: Manager, target: { userId: string; role: Role }): void {
  if (target.userId === manager.userId) return;
  assertMayManage(manager.role, target.role);
}
