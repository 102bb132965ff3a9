import { MfaRequired, NotPermitted } from '../errors';
import { OwnMessages } from '../messages';
import type { Caller } from './caller';
import { isPeoplePower, needsMembership, roleAllows, type Permission } from './permissions';

/**
 * Refuses a request its caller may not make (403 naming what is missing). A key holds its scopes and no people's
 * power; a person holds what their current role allows, and without a workspace only what needs no membership.
 * v1's anonymous routes need nothing. A workspace that requires MFA refuses a person whose sign-in did not use it.
 */
export function assertPermitted(caller: Caller, permission: Permission | undefined): void {
  if (permission === undefined || caller.kind === 'anonymous') return;
  // Accepting an invitation is any signed-in person's, in a workspace or none: who they are decides, not a role.
  if (!needsMembership(permission)) {
    if (caller.kind === 'person' || caller.actor.kind === 'user') return;
    throw new NotPermitted(permission, OwnMessages.peopleOnly(permission));
  }
  if (caller.kind === 'person') throw new NotPermitted(permission, OwnMessages.membershipRequired(permission));
  const { actor } = caller;
  if (actor.kind === 'user') {
    // Before the role: whatever the person may do, they do it here only signed in as the workspace requires.
    if (caller.mfa?.required && !caller.mfa.used) throw new MfaRequired(OwnMessages.mfaRequired);
    if (!roleAllows(actor.role, permission)) throw new NotPermitted(permission, OwnMessages.roleForbids(actor.role, permission));
    return;
  }
  if (actor.kind === 'operator') return;
  if (isPeoplePower(permission)) throw new NotPermitted(permission, OwnMessages.peopleOnly(permission));
  if (!(caller.scopes as readonly string[]).includes(permission)) throw new NotPermitted(permission, OwnMessages.scopeMissing(permission));
}
