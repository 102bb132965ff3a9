import { ROLES, type Role } from '../../../../functions/shared/domain/accounts/permissions';
import { NotPermitted, PlanRequired } from '../../../../functions/shared/domain/errors';
import { PLANS, seatAllowance, seatLimitReached } from '../../../../functions/shared/domain/limits/plans';
import { assertMayManage, assertMayRemove } from '../../../../functions/shared/domain/workspaces/role-rules';
import { hasFreeSeat, seatsTaken, withoutExpired } from '../../../../functions/shared/domain/workspaces/seats';

function refusal(run: () => void): NotPermitted | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof NotPermitted) return error;
    throw error;
  }
}

describe('who may manage whom', () => {
  it('lets owners manage every role, admins every role but owner, and nobody below admin anyone', () => {
    const allowed = (manager: Role) => ROLES.filter((role) => !refusal(() => assertMayManage(manager, role)));
    expect(allowed('owner')).toEqual(['owner', 'admin', 'member', 'viewer']);
    expect(allowed('admin')).toEqual(['admin', 'member', 'viewer']);
    expect(allowed('member')).toEqual([]);
    expect(allowed('viewer')).toEqual([]);
  });

  it('refuses an admin demoting an owner, and an admin making anyone (themself included) an owner, naming owners:manage', () => {
    const demoting = refusal(() => assertMayManage('admin', 'owner', 'viewer'));
    expect(demoting?.permission).toBe('owners:manage');
    expect(demoting?.message).toBe('Your role (admin) does not allow owners:manage');
    expect(refusal(() => assertMayManage('admin', 'admin', 'owner'))?.permission).toBe('owners:manage');
  });

  it('refuses a member escalating, whatever the roles named', () => {
    for (const target of ROLES) expect(refusal(() => assertMayManage('member', 'member', target))?.permission).toBe('members:manage');
  });

  it('lets anyone leave, and removing someone else follow the rules above', () => {
    const viewer = { kind: 'user' as const, userId: 'u-viewer', email: 'v@example.com', role: 'viewer' as const };
    expect(refusal(() => assertMayRemove(viewer, { userId: 'u-viewer', role: 'viewer' }))).toBeUndefined();
    expect(refusal(() => assertMayRemove(viewer, { userId: 'u-other', role: 'viewer' }))?.permission).toBe('members:manage');
    const admin = { ...viewer, userId: 'u-admin', role: 'admin' as const };
    expect(refusal(() => assertMayRemove(admin, { userId: 'u-owner', role: 'owner' }))?.permission).toBe('owners:manage');
    expect(refusal(() => assertMayRemove(admin, { userId: 'u-member', role: 'member' }))).toBeUndefined();
  });
});

describe('seats', () => {
  const nowMs = Date.parse('2026-11-25T12:00:00Z');

  it('are FREE 1, INDIE 3, PRO 10 and ENTERPRISE unlimited', () => {
    expect(PLANS.map((plan) => seatAllowance(plan))).toEqual([1, 3, 10, null]);
  });

  it('count members and pending invitations, but not expired ones', () => {
    const count = { members: 2, owners: 1, pending: { inv_live: nowMs + 1, inv_gone: nowMs } };
    expect(seatsTaken(count, nowMs)).toBe(3);
    expect(withoutExpired(count, nowMs).pending).toEqual({ inv_live: nowMs + 1 });
    expect(hasFreeSeat(count, 3, nowMs)).toBe(false);
    expect(hasFreeSeat(count, 4, nowMs)).toBe(true);
    expect(hasFreeSeat({ members: 10_000, owners: 1, pending: {} }, null, nowMs)).toBe(true);
  });

  it('refuse in the plan shape, naming seats, the plan and the next plan with more', () => {
    const refused = seatLimitReached('INDIE');
    expect(refused).toBeInstanceOf(PlanRequired);
    expect({ feature: refused.feature, currentPlan: refused.currentPlan, requiredPlan: refused.requiredPlan }).toEqual({ feature: 'seats', currentPlan: 'INDIE', requiredPlan: 'PRO' });
    expect(refused.message).toBe('The INDIE plan allows 3 seats (members and pending invitations); more require the PRO plan or higher.');
    expect(seatLimitReached('FREE').message).toBe('The FREE plan allows 1 seat (members and pending invitations); more require the INDIE plan or higher.');
  });
});
