import { meView } from '../../../../functions/shared/domain/accounts/me';
import type { Membership } from '../../../../functions/shared/domain/ports';

const membership = (workspaceId: string, joinedAt: string, role: Membership['role'] = 'member'): Membership => ({ workspaceId, userId: 'u1', email: 'ada@members.example', role, joinedAt });

describe('GET /v2/me\'s answer', () => {
  it('lists the person\'s workspaces with their roles, in the order they joined', () => {
    const view = meView({ userId: 'u1', email: 'ada@example.com' }, [membership('acct_b', '2026-02-01T00:00:00.000Z', 'owner'), membership('acct_a', '2026-01-01T00:00:00.000Z')]);
    expect(view).toEqual({
      user: { sub: 'u1', email: 'ada@example.com' },
      workspaces: [
        { workspaceId: 'acct_a', role: 'member', joinedAt: '2026-01-01T00:00:00.000Z' },
        { workspaceId: 'acct_b', role: 'owner', joinedAt: '2026-02-01T00:00:00.000Z' },
      ],
    });
  });

  it('takes the email from a membership when the token has none, and says null for a person in no workspace', () => {
    expect(meView({ userId: 'u1' }, [membership('acct_a', '2026-01-01T00:00:00.000Z')]).user).toEqual({ sub: 'u1', email: 'ada@members.example' });
    expect(meView({ userId: 'u1' }, [])).toEqual({ user: { sub: 'u1', email: null }, workspaces: [] });
  });
});
