import { PlanRequired } from '../../../../functions/shared/domain/errors';
import { assertPlanIncludes, cheapestPlanWith, customDomainAllowance, domainLimitReached, monthlyCallLimit } from '../../../../functions/shared/domain/limits/plans';

describe('plans', () => {
  it('let an account hold no custom domain on FREE, 1 on INDIE, 10 on PRO, any number on ENTERPRISE', () => {
    expect((['FREE', 'INDIE', 'PRO', 'ENTERPRISE'] as const).map(customDomainAllowance)).toEqual([0, 1, 10, null]);
    expect(domainLimitReached('INDIE')).toMatchObject({ feature: 'customDomains', currentPlan: 'INDIE', requiredPlan: 'PRO', message: 'The INDIE plan allows 1 custom domain; more require the PRO plan or higher.' });
    expect(domainLimitReached('PRO')).toMatchObject({ requiredPlan: 'ENTERPRISE', message: 'The PRO plan allows 10 custom domains; more require the ENTERPRISE plan or higher.' });
  });

  it('give FREE link expiration only', () => {
    expect(() => assertPlanIncludes('FREE', 'linkExpiration')).not.toThrow();
    for (const feature of ['customAliases', 'passwordProtection', 'clickLimits', 'customDomains'] as const) {
      expect(() => assertPlanIncludes('FREE', feature)).toThrow(PlanRequired);
    }
  });

  it('give INDIE and above every feature', () => {
    for (const plan of ['INDIE', 'PRO', 'ENTERPRISE'] as const) {
      for (const feature of ['linkExpiration', 'customAliases', 'passwordProtection', 'clickLimits', 'customDomains'] as const) {
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
