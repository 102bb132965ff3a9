import { PlanRequired } from '../../../../functions/shared/domain/errors';
import { assertPlanIncludes, cheapestPlanWith, monthlyCallLimit } from '../../../../functions/shared/domain/limits/plans';

describe('plans', () => {
  it('give FREE link expiration only', () => {
    expect(() => assertPlanIncludes('FREE', 'linkExpiration')).not.toThrow();
    for (const feature of ['customAliases', 'passwordProtection', 'clickLimits'] as const) {
      expect(() => assertPlanIncludes('FREE', feature)).toThrow(PlanRequired);
    }
  });

  it('give INDIE and above every feature', () => {
    for (const plan of ['INDIE', 'PRO', 'ENTERPRISE'] as const) {
      for (const feature of ['linkExpiration', 'customAliases', 'passwordProtection', 'clickLimits'] as const) {
        expect(() => assertPlanIncludes(plan, feature)).not.toThrow();
      }
    }
  });

  it('name the cheapest plan with the feature in the 403 message', () => {
    expect(cheapestPlanWith('customAliases')).toBe('INDIE');
    expect(() => assertPlanIncludes('FREE', 'customAliases')).toThrow('Custom aliases require the INDIE plan or higher.');
    expect(() => assertPlanIncludes('FREE', 'passwordProtection')).toThrow('Password protection requires the INDIE plan or higher.');
    expect(() => assertPlanIncludes('FREE', 'clickLimits')).toThrow(
      expect.objectContaining({ feature: 'clickLimits', currentPlan: 'FREE', requiredPlan: 'INDIE' }),
    );
  });

  it('cap monthly calls per plan, with a key override winning', () => {
    expect(monthlyCallLimit('FREE')).toBe(1_000);
    expect(monthlyCallLimit('INDIE')).toBe(10_000);
    expect(monthlyCallLimit('PRO')).toBe(100_000);
    expect(monthlyCallLimit('ENTERPRISE')).toBeNull();
    expect(monthlyCallLimit('FREE', 5)).toBe(5);
    expect(monthlyCallLimit('ENTERPRISE', 50)).toBe(50);
  });
});
