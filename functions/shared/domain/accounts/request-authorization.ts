import { Messages } from '../messages';
import type { Plan } from '../limits/plans';
import type { AccessTokenVerifier, MembershipReader } from '../ports';
import type { AccountRecord } from './accounts';
import { bearerToken, couldBeApiKey, verdictFor, type ApiKeyRecord } from './api-keys';
import { userLimitId, type Actor, type SignInMfa } from './caller';
import { scopesOfRole, type Scope } from './permissions';

/**
 * The authorizer's decision for a v2 request: an API key (as before issue 29), or a person's access token with the
 * workspace the request names. A person is authorized by their membership as it is now (read consistently on every
 * request: a removed member's still-valid token is refused on the next request) and acts with their role's scopes.
 */
export type CallerVerdict =
  | {
      allowed: true;
      kind: 'workspace';
      /** The per-minute limit's subject: the key's id, or `user_<sub>`. */
      keyId: string;
      accountId: string;
      owner: string;
      plan: Plan;
      monthlyLimit?: number;
      scopes: readonly Scope[];
      actor: Actor;
      /** A person's: their sign-in's MFA and the workspace's requirement, enforced by the guard (a 403 it can say). */
      mfa?: SignInMfa;
    }
  /** A person on their own route (`GET /v2/me`): who they are, no workspace. */
  | { allowed: true; kind: 'personal'; keyId: string; userId: string; email?: string }
  | { allowed: false; message: string };

/** Compact JWS: three base64url parts (the last empty for `alg: none`, which the verifier refuses). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** Cognito's access tokens are about 1 KB; anything past this is not one and is refused without parsing. */
const MAX_ACCESS_TOKEN_LENGTH = 8192;
/** Workspace ids are account ids (`acct_` and 16 characters; keys made before accounts: `acct_` and their key's id). */
const WORKSPACE_ID_SHAPE = /^acct_[A-Za-z0-9]{1,64}$/;

export function couldBeAccessToken(token: string): boolean {
  return token.length <= MAX_ACCESS_TOKEN_LENGTH && JWT_SHAPE.test(token);
}

/** What a person's request needs read: their token checked, their membership and the workspace's account. */
export interface PeopleAccess {
  tokens: AccessTokenVerifier;
  memberships: MembershipReader;
  account(accountId: string): Promise<AccountRecord | undefined>;
}

export interface AuthorizationSources {
  findKeyByHash: (keyHash: string) => Promise<ApiKeyRecord | undefined>;
  /** Absent where no user pool is configured: then only keys are accepted. */
  people?: PeopleAccess;
}

/**
 * Keys first, by shape, exactly as before (one read); a JWT-shaped token is checked only when it cannot be a key.
 * Any other token is refused without a read.
 */
export async function authorizeCaller(
  request: { authorization: string | undefined; workspace: string | undefined; personalRoute: boolean },
  sources: AuthorizationSources,
  nowMs: number,
): Promise<CallerVerdict> {
  const token = bearerToken(request.authorization);
  if (token !== undefined && !couldBeApiKey(token) && sources.people && couldBeAccessToken(token)) {
    return request.personalRoute ? personalVerdict(token, sources.people) : personVerdict(token, request.workspace, sources.people);
  }
  const verdict = await verdictFor(request.authorization, sources.findKeyByHash, nowMs);
  if (!verdict.allowed) return verdict;
  const { label, ...granted } = verdict;
  return { kind: 'workspace', ...granted, actor: { kind: 'key', keyId: verdict.keyId, ...(label !== undefined ? { name: label } : {}) } };
}

/** A person's own route needs their token only: they may belong to no workspace yet. */
async function personalVerdict(token: string, people: PeopleAccess): Promise<CallerVerdict> {
  const person = await people.tokens.verify(token);
  if (!person) return { allowed: false, message: Messages.apiKeyInvalid };
  return { allowed: true, kind: 'personal', keyId: userLimitId(person.sub), userId: person.sub, ...(person.email !== undefined ? { email: person.email } : {}) };
}

/**
 * A person's request. A token that does not verify, a missing or malformed workspace header, a workspace the person
 * is not a member of and one that does not exist all get the same 401 as an unknown key: the authorizer can only
 * allow or deny, and the same answer for all of them tells a caller nothing about which workspaces exist.
 */
export async function personVerdict(token: string, workspace: string | undefined, people: PeopleAccess): Promise<CallerVerdict> {
  const refused = { allowed: false, message: Messages.apiKeyInvalid } as const;
  const person = await people.tokens.verify(token);
  if (!person) return refused;
  const workspaceId = workspace?.trim();
  if (!workspaceId || !WORKSPACE_ID_SHAPE.test(workspaceId)) return refused;
  const [membership, account] = await Promise.all([people.memberships.membership(workspaceId, person.sub), people.account(workspaceId)]);
  if (!membership || !account) return refused;
  return {
    allowed: true,
    kind: 'workspace',
    keyId: userLimitId(person.sub),
    accountId: account.accountId,
    owner: account.owner,
    plan: account.plan,
    ...(account.monthlyLimit !== undefined ? { monthlyLimit: account.monthlyLimit } : {}),
    scopes: scopesOfRole(membership.role),
    actor: { kind: 'user', userId: person.sub, email: person.email ?? membership.email, role: membership.role },
    mfa: { used: person.mfa, required: account.mfaRequired === true },
  };
}
