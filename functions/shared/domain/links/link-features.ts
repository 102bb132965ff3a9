import { InvalidRequest } from '../errors';
import type { FlagName, Flags } from '../limits/flags';
import type { LinkRequest } from './link-request';
import { Messages, OwnMessages } from '../messages';
import { assertPlanIncludes, type Feature, type Plan } from '../limits/plans';

type RequestField = 'alias' | 'password' | 'expiresIn' | 'maxClicks' | 'rules' | 'variants';

/** Each optional request field, the operator flag that can switch it off and the plan feature that sells it. */
const OPTIONAL_FIELDS: ReadonlyArray<{
  field: RequestField;
  flag?: { name: FlagName; disabledMessage: string };
  feature: Feature;
}> = [
  { field: 'alias', flag: { name: 'customAliases', disabledMessage: Messages.aliasesDisabled }, feature: 'customAliases' },
  { field: 'password', flag: { name: 'passwordProtection', disabledMessage: Messages.passwordsDisabled }, feature: 'passwordProtection' },
  { field: 'expiresIn', flag: { name: 'expiration', disabledMessage: Messages.expirationDisabled }, feature: 'linkExpiration' },
  { field: 'maxClicks', feature: 'clickLimits' },
  { field: 'rules', flag: { name: 'smartLinks', disabledMessage: OwnMessages.smartLinksDisabled }, feature: 'smartLinks' },
  { field: 'variants', flag: { name: 'smartLinks', disabledMessage: OwnMessages.smartLinksDisabled }, feature: 'smartLinks' },
];

/** Flags before plans (spec order of checks): a feature switched off for everyone is a 400, not an upsell. */
export function assertFeaturesAllowed(request: Partial<Pick<LinkRequest, RequestField>>, flags: Flags, plan: Plan): void {
  const requested = OPTIONAL_FIELDS.filter(({ field }) => request[field] !== undefined);
  for (const { flag } of requested) {
    if (flag && !flags[flag.name]) throw new InvalidRequest(flag.disabledMessage);
  }
  for (const { feature } of requested) assertPlanIncludes(plan, feature);
}
