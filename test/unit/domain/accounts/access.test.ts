import { assertPermitted } from '../../../../functions/shared/domain/accounts/access';
import { MfaRequired, NotPermitted } from '../../../../functions/shared/domain/errors';
import { OwnMessages } from '../../../../functions/shared/domain/messages';
import { PEOPLE_POWERS, ROLE_PERMISSIONS, ROLES, SCOPES, needsMembership, roleAllows, scopesOfRole, splitScopes, joinScopes, type Permission } from '../../../../functions/shared/domain/accounts/permissions';
import { ROUTES } from '../../../../functions/shared/http/routes';
import { keyCaller } from '../../../support/callers';

const base = { keyId: 'key_1', accountId: 'acct_1', owner: 'acct:acct_1', plan: 'PRO' } as const;
const person = (role: (typeof ROLES)[number]) => keyCaller({ ...base, keyId: 'user_u1', scopes: scopesOfRole(role), actor: { kind: 'user', userId: 'u1', email: 'ana@example.com', role } });

function refusal(run: () => void): NotPermitted | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof NotPermitted) return error;
    throw error;
  }
}

describe('the permission table', () => {
  it('ranks the roles: each holds everything of the one below it, and only owners manage owners, plans and sign-in rules', () => {
    const ranks = ['viewer', 'member', 'admin', 'owner'] as const;
    for (let index = 1; index < ranks.length; index++) {
      const lower = ROLE_PERMISSIONS[ranks[index - 1]!];
      expect(lower.every((permission) => roleAllows(ranks[index]!, permission))).toBe(true);
    }
    expect(ROLES.filter((role) => roleAllows(role, 'owners:manage'))).toEqual(['owner']);
    expect(ROLES.filter((role) => roleAllows(role, 'plan:manage'))).toEqual(['owner']);
    expect(ROLES.filter((role) => roleAllows(role, 'links:write'))).toEqual(['owner', 'admin', 'member']);
    expect(ROLES.filter((role) => roleAllows(role, 'audit:read'))).toEqual(['owner', 'admin']);
    expect(scopesOfRole('viewer')).toEqual(['links:read', 'stats:read', 'domains:read', 'webhooks:read']);
  });

  it('names a scope or a people\'s power for every method of every guarded route', () => {
    for (const route of ROUTES) {
      if (!route.apiKey) continue;
      const permissions = (route as { permissions?: Record<string, string> }).permissions ?? {};
      expect(Object.keys(permissions).sort()).toEqual([...route.methods].sort());
      for (const permission of Object.values(permissions)) expect([...SCOPES, ...PEOPLE_POWERS]).toContain(permission);
    }
  });

  it('carries scopes through the authorizer\'s string context and drops words it does not know', () => {
    expect(splitScopes(joinScopes(['links:read', 'audit:read']))).toEqual(['links:read', 'audit:read']);
    expect(splitScopes('links:read admin:everything  ')).toEqual(['links:read']);
  });
});

describe('what a caller may do', () => {
  it('lets a key do what its scopes say and refuses the rest naming the scope', () => {
    const reader = keyCaller({ ...base, scopes: ['links:read'] });
    expect(refusal(() => assertPermitted(reader, 'links:read'))).toBeUndefined();
    const refused = refusal(() => assertPermitted(reader, 'links:write'));
    expect(refused?.permission).toBe('links:write');
    expect(refused?.message).toBe('This API key lacks the links:write scope');
  });

  it('never lets a key use a people\'s power, however many scopes it holds', () => {
    expect(refusal(() => assertPermitted(keyCaller(base), 'keys:manage'))?.message).toBe('keys:manage is for people signed in, not API keys');
  });

  it('lets a person do what their current role allows', () => {
    expect(refusal(() => assertPermitted(person('member'), 'links:write'))).toBeUndefined();
    expect(refusal(() => assertPermitted(person('viewer'), 'links:write'))?.message).toBe('Your role (viewer) does not allow links:write');
    expect(refusal(() => assertPermitted(person('admin'), 'owners:manage'))?.permission).toBe('owners:manage');
  });

  it('lets any signed-in person accept an invitation, in a workspace or none, and never a key or an operator', () => {
    const outsider = { kind: 'person' as const, keyId: 'user_u9', userId: 'u9', email: 'zoe@example.com' };
    expect(refusal(() => assertPermitted(outsider, 'invitations:accept'))).toBeUndefined();
    for (const role of ROLES) expect(refusal(() => assertPermitted(person(role), 'invitations:accept'))).toBeUndefined();
    expect(refusal(() => assertPermitted(keyCaller(base), 'invitations:accept'))?.message).toBe('invitations:accept is for people signed in, not API keys');
    expect(refusal(() => assertPermitted(keyCaller({ ...base, actor: { kind: 'operator' } }), 'invitations:accept'))?.permission).toBe('invitations:accept');
  });

  it('refuses a person outside any workspace everything that needs a membership', () => {
    const outsider = { kind: 'person' as const, keyId: 'user_u9', userId: 'u9', email: 'zoe@example.com' };
    for (const permission of ['links:read', 'workspace:read', 'members:manage'] as const) {
      expect(refusal(() => assertPermitted(outsider, permission))?.message).toBe(`${permission} needs a workspace you are a member of`);
    }
    expect(ROLES.filter((role) => roleAllows(role, 'invitations:accept'))).toEqual([]);
    expect(needsMembership('invitations:accept')).toBe(false);
    expect(PEOPLE_POWERS.filter((power) => !needsMembership(power))).toEqual(['profile:read', 'invitations:accept']);
  });

  it('marks personal exactly the routes whose permissions need no membership, so the authorizer and the guard agree', () => {
    for (const route of ROUTES) {
      if (!route.apiKey) continue;
      const permissions = Object.values((route as { permissions?: Record<string, Permission> }).permissions ?? {});
      expect([route.path, (route as { personal?: boolean }).personal === true]).toEqual([route.path, permissions.every((permission) => !needsMembership(permission))]);
    }
  });

  it('asks nothing of v1\'s anonymous callers or of routes without a requirement', () => {
    expect(refusal(() => assertPermitted({ kind: 'anonymous', client: 'c' }, 'links:write'))).toBeUndefined();
    expect(refusal(() => assertPermitted(keyCaller({ ...base, scopes: [] }), undefined))).toBeUndefined();
  });
});

describe('a workspace that requires MFA', () => {
  const signedIn = (role: (typeof ROLES)[number], mfa: { used: boolean; required: boolean }) => ({ ...person(role), mfa });

  it('refuses a person whose sign-in did not use it on every route of the workspace, whatever their role, saying what to do', () => {
    for (const role of ROLES) {
      expect(() => assertPermitted(signedIn(role, { used: false, required: true }), 'links:read')).toThrow(new MfaRequired(OwnMessages.mfaRequired));
    }
  });

  it('lets in a person who signed in with MFA, and anyone where it is not required', () => {
    expect(() => assertPermitted(signedIn('viewer', { used: true, required: true }), 'links:read')).not.toThrow();
    expect(() => assertPermitted(signedIn('viewer', { used: false, required: false }), 'links:read')).not.toThrow();
  });

  it('never refuses a key for it (keys sign in with no person)', () => {
    const key = keyCaller({ ...base, scopes: ['links:read'], actor: { kind: 'key', keyId: 'key_1' } });
    expect(() => assertPermitted(key, 'links:read')).not.toThrow();
  });
});
