import type { Plan } from '../limits/plans';
import type { Role, Scope } from './permissions';

/**
 * Who made a change, as the audit log records it: a workspace's key (its id and name), a signed-in person (their
 * user id, email and role in the workspace at the time), or an operator through `npm run ops`.
 */
export type Actor =
  | { kind: 'key'; keyId: string; name?: string }
  | { kind: 'user'; userId: string; email: string; role: Role }
  | { kind: 'operator' };

/**
 * A v2 caller of a workspace (still called an account in the code and the tables: the same id), vouched for by the
 * authorizer: an API key, or a signed-in person acting in one of their workspaces. `keyId` is what the per-minute
 * limit counts: the key's id, or `user_<sub>` for a person; the monthly quota counts per workspace; links belong to
 * the workspace's `owner` partition. `scopes` is what this request may use: a key's own, or those of the person's
 * current role.
 */
export type ApiKeyCaller = {
  kind: 'apiKey';
  keyId: string;
  accountId: string;
  owner: string;
  plan: Plan;
  monthlyLimitOverride?: number;
  scopes: readonly Scope[];
  actor: Actor;
  /** A person's sign-in: whether it used MFA, and whether this workspace requires it (absent for keys and operators). */
  mfa?: SignInMfa;
};
export interface SignInMfa {
  used: boolean;
  required: boolean;
}
/**
 * A signed-in person on a route that needs no membership (permissions.ts, WITHOUT_MEMBERSHIP: accepting an
 * invitation): no workspace, plan or role yet, only who they are. `keyId` is `user_<sub>`, their per-minute window.
 */
export type PersonCaller = { kind: 'person'; keyId: string; userId: string; email: string };
/** `client` is a keyed hash of the anonymous caller's address (see http/client-key.ts): the address itself is never stored. */
export type Caller = ApiKeyCaller | PersonCaller | { kind: 'anonymous'; client: string };

/** v1 keeps its historical behaviour: anonymous callers get the FREE plan's features. */
export function planOf(caller: Caller): Plan {
  return caller.kind === 'apiKey' ? caller.plan : 'FREE';
}

/** Links made through v1 belong to nobody: no account's owner is ever "anonymous". */
export function ownerOf(caller: Caller): string {
  return caller.kind === 'apiKey' ? caller.owner : 'anonymous';
}

/** The per-minute limit's subject for a person: never a key's id (`key_…`), so the two never share a window. */
export function userLimitId(userId: string): string {
  return `user_${userId}`;
}
