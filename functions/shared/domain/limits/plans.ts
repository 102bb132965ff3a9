import { PlanRequired } from '../errors';

export const PLANS = ['FREE', 'INDIE', 'PRO', 'ENTERPRISE'] as const;
export type Plan = (typeof PLANS)[number];

export const FEATURES = ['linkExpiration', 'customAliases', 'passwordProtection', 'clickLimits', 'customDomains', 'smartLinks', 'webhooks', 'singleSignOn', 'linkHealth'] as const;
export type Feature = (typeof FEATURES)[number];

/** What a plan's 403 names: a feature the plan lacks, or `seats`, a count it caps (members and pending invitations). */
export const PLAN_GATES = [...FEATURES, 'seats'] as const;
export type PlanGate = (typeof PLAN_GATES)[number];

interface PlanTerms {
  features: readonly Feature[];
  /** Calls per calendar month (UTC); null means no cap. */
  monthlyCalls: number | null;
  /** Custom domains an account may hold at once; null means no cap. */
  customDomains: number | null;
  /** People in a workspace at once, members and pending invitations together; null means no cap. */
  seats: number | null;
}

/** Single sign-on for a company's email domain (issue 29) is ENTERPRISE's alone. */
const PRO_FEATURES = FEATURES.filter((feature) => feature !== 'singleSignOn');
/** Smart links' rules and variants (issue 18) and the broken-links filter and events (issue 31) are sold from PRO up. */
const INDIE_FEATURES = PRO_FEATURES.filter((feature) => feature !== 'smartLinks' && feature !== 'linkHealth');

/** The billing plans, cheapest first: the order is what "or higher" means. */
const PLAN_TERMS: Record<Plan, PlanTerms> = {
  FREE: { features: ['linkExpiration'], monthlyCalls: 1_000, customDomains: 0, seats: 1 },
  INDIE: { features: INDIE_FEATURES, monthlyCalls: 10_000, customDomains: 1, seats: 3 },
  PRO: { features: PRO_FEATURES, monthlyCalls: 100_000, customDomains: 10, seats: 10 },
  ENTERPRISE: { features: FEATURES, monthlyCalls: null, customDomains: null, seats: null },
};

/** The start of each 403 message, verb included so the grammar holds. */
const FEATURE_REQUIRES: Record<Feature, string> = {
  linkExpiration: 'Link expiration requires',
  customAliases: 'Custom aliases require',
  passwordProtection: 'Password protection requires',
  clickLimits: 'Click limits require',
  customDomains: 'Custom domains require',
  smartLinks: 'Smart links (rules and variants) require',
  webhooks: 'Webhooks require',
  singleSignOn: 'Single sign-on requires',
  linkHealth: 'Link health alerts (the broken-links filter and its events) require',
};

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}

/** A key's own monthly limit wins over its plan's; null means no cap. */
export function monthlyCallLimit(plan: Plan, override?: number): number | null {
  return override ?? PLAN_TERMS[plan].monthlyCalls;
}

export function cheapestPlanWith(feature: Feature): Plan {
  const plan = PLANS.find((candidate) => PLAN_TERMS[candidate].features.includes(feature));
  if (!plan) throw new Error(`no plan includes ${feature}`);
  return plan;
}

export function assertPlanIncludes(plan: Plan, feature: Feature): void {
  if (PLAN_TERMS[plan].features.includes(feature)) return;
  const required = cheapestPlanWith(feature);
  throw new PlanRequired(feature, plan, required, `${FEATURE_REQUIRES[feature]} the ${required} plan or higher.`);
}

/** How many custom domains the plan lets an account hold at once; null means no cap. */
export function customDomainAllowance(plan: Plan): number | null {
  return PLAN_TERMS[plan].customDomains;
}

/**
 * The 403 of an account whose plan's domains are all in use: it names the limit and the cheapest plan that allows
 * more. (The count itself is kept exact by the store's claim transaction.)
 */
export function domainLimitReached(plan: Plan): PlanRequired {
  const allowance = customDomainAllowance(plan) ?? Infinity;
  const next = PLANS.find((candidate) => (customDomainAllowance(candidate) ?? Infinity) > allowance) ?? plan;
  return new PlanRequired('customDomains', plan, next, `The ${plan} plan allows ${allowance} custom domain${allowance === 1 ? '' : 's'}; more require the ${next} plan or higher.`);
}

/** How many people (members and pending invitations) the plan lets a workspace hold at once; null means no cap. */
export function seatAllowance(plan: Plan): number | null {
  return PLAN_TERMS[plan].seats;
}

/** The 403 of a workspace whose seats are all taken: the limit, what counts, and the cheapest plan with more. */
export function seatLimitReached(plan: Plan): PlanRequired {
  const allowance = seatAllowance(plan) ?? Infinity;
  const next = PLANS.find((candidate) => (seatAllowance(candidate) ?? Infinity) > allowance) ?? plan;
  return new PlanRequired('seats', plan, next, `The ${plan} plan allows ${allowance} seat${allowance === 1 ? '' : 's'} (members and pending invitations); more require the ${next} plan or higher.`);
}
