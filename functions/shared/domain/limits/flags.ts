import { InvalidRequest, UnderMaintenance } from '../errors';
import { Messages, OwnMessages } from '../messages';

/** Operator switches, stored as SSM parameters named after these keys. */
export const FLAG_NAMES = ['shortening', 'customAliases', 'passwordProtection', 'expiration', 'maintenance', 'customDomains', 'smartLinks', 'webhooks'] as const;
export type FlagName = (typeof FLAG_NAMES)[number];
export type Flags = Record<FlagName, boolean>;

/** What the platform does when no flag can be read at all: serve, with every feature on. */
export const SAFE_DEFAULT_FLAGS: Flags = {
  shortening: true,
  customAliases: true,
  passwordProtection: true,
  expiration: true,
  maintenance: false,
  customDomains: true,
  smartLinks: true,
  webhooks: true,
};

export function isFlagName(value: string): value is FlagName {
  return (FLAG_NAMES as readonly string[]).includes(value);
}

/** SSM stores strings; anything but an explicit "off" value keeps a feature on, so a typo never takes it down. */
export function parseFlagValue(name: FlagName, raw: string | undefined): boolean {
  if (raw === undefined) return SAFE_DEFAULT_FLAGS[name];
  const value = raw.trim().toLowerCase();
  if (['on', 'true', '1', 'enabled'].includes(value)) return true;
  if (['off', 'false', '0', 'disabled'].includes(value)) return false;
  return SAFE_DEFAULT_FLAGS[name];
}

export function formatFlagValue(enabled: boolean): string {
  return enabled ? 'on' : 'off';
}

export function assertNotInMaintenance(flags: Flags): void {
  if (flags.maintenance) throw new UnderMaintenance(Messages.maintenance);
}

export function assertShorteningEnabled(flags: Flags): void {
  if (!flags.shortening) throw new InvalidRequest(Messages.shorteningDisabled);
}

/** Custom domains (issue 17) follow the other switches: off means 400 for every request that uses them. */
export function assertCustomDomainsEnabled(flags: Flags): void {
  if (!flags.customDomains) throw new InvalidRequest(OwnMessages.domainsDisabled);
}

/** Webhooks (issue 19): off means 400 on their routes and no new events queued (queued ones are still delivered). */
export function assertWebhooksEnabled(flags: Flags): void {
  if (!flags.webhooks) throw new InvalidRequest(OwnMessages.webhooksDisabled);
}
