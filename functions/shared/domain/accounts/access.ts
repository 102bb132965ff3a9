import { NotPermitted } from '../errors';
import { OwnMessages } from '../messages';
import type { Caller } from './caller';
import { isPeoplePower, roleAllows, type Permission } from './permissions';

/**
 * Refuses a request its caller may not make (403 naming what is missing). A key holds its scopes and no people's
 * power; a person holds what their current role allows. v1's anonymous routes need nothing.
 */
export function assertPermitted(caller: Caller, permission: Permission | undefined): void {
  if (permission === undefined || caller.kind === 'anonymous') return;
  const { actor } = caller;
  if (actor.kind === 'user') {
    if (!roleAllows(actor.role, permission)) throw new NotPermitted(permission, OwnMessages.roleForbids(actor.role, permission));
    return;
  }
  if (actor.kind === 'operator') return;
  if (isPeoplePower(permission)) throw new NotPermitted(permission, OwnMessages.peopleOnly(permission));
  if (!(caller.scopes as readonly string[]).includes(permission)) throw new NotPermitted(permission, OwnMessages.scopeMissing(permission));
}
