import type { Caller } from '../accounts/caller';
import { InvalidRequest } from '../errors';
import type { Flags } from '../limits/flags';
import { OwnMessages } from '../messages';
import type { DomainStore } from '../ports';
import type { DomainRecord } from './custom-domain';
import { asciiDomain } from './host-name';

export type LinkDomains = Pick<DomainStore, 'find' | 'defaultOf'>;

/** Where a new link goes on a custom domain: the name, and the claim its links carry (links/link.ts `madeUnderClaim`). */
export type LinkPlace = Pick<DomainRecord, 'domain' | 'claimId'>;

/** Who holds a custom domain now: the claim a link must have been made under to be managed through it. */
export type DomainHolder = Pick<DomainRecord, 'owner' | 'claimId'>;

/** The shared short domain, as a caller may name it: its host (with a port, locally) or its bare name. */
export function isSharedHost(requested: string, shortBaseUrl: string): boolean {
  const { host, hostname } = new URL(shortBaseUrl);
  const name = requested.trim().toLowerCase().replace(/\.$/, '');
  return name === host || name === hostname;
}

/** The account's default domain, when custom domains are on; undefined: the shared domain. */
export async function defaultDomain(caller: Caller, flags: Flags, domains: LinkDomains): Promise<string | undefined> {
  if (caller.kind !== 'apiKey' || !flags.customDomains) return undefined;
  return domains.defaultOf(caller.owner);
}

/**
 * Where new links go (creation, batch, import): the domain asked for, which must be the caller's and active, else
 * the account's default domain (which must still be active), else the shared domain (undefined). One answer per
 * name for a whole batch. A refusal is a 400 naming `domain`.
 */
export function creationDomains(caller: Caller, flags: Flags, shortBaseUrl: string, domains: LinkDomains): (requested: string | undefined) => Promise<LinkPlace | undefined> {
  // Keyed by what was asked, "no domain" (undefined) apart from "" (a domain named empty, which is refused).
  const answers = new Map<string | undefined, Promise<LinkPlace | undefined>>();
  const usable = async (name: string): Promise<LinkPlace> => {
    const record = await domains.find(name);
    if (caller.kind !== 'apiKey' || record?.owner !== caller.owner || record.status !== 'active') throw new InvalidRequest(OwnMessages.domainNotUsable(name));
    return { domain: name, claimId: record.claimId };
  };
  const decide = async (requested: string | undefined): Promise<LinkPlace | undefined> => {
    if (requested === undefined) {
      const fallback = await defaultDomain(caller, flags, domains);
      return fallback === undefined ? undefined : usable(fallback);
    }
    if (isSharedHost(requested, shortBaseUrl)) return undefined;
    if (!flags.customDomains) throw new InvalidRequest(OwnMessages.domainsDisabled);
    const name = asciiDomain(requested);
    if (!name) throw new InvalidRequest(OwnMessages.domainNotUsable(requested.slice(0, 300)));
    return usable(name);
  };
  return (requested) => {
    let answer = answers.get(requested);
    if (!answer) {
      answer = decide(requested);
      answers.set(requested, answer);
    }
    return answer;
  };
}

/**
 * The domain a management route means (`?domain=`), else the account's default, else the shared domain (undefined),
 * with whoever holds it now (absent when nobody does): a link is found under the name only if it is the caller's
 * (links are checked by owner) and was made under that holder's claim.
 */
export async function managedDomain(
  requested: string | undefined,
  caller: Caller,
  flags: Flags,
  shortBaseUrl: string,
  domains: LinkDomains,
): Promise<{ domain: string; holder?: DomainHolder } | undefined> {
  const name = await managedDomainName(requested, caller, flags, shortBaseUrl, domains);
  if (name === undefined) return undefined;
  const record = await domains.find(name);
  return { domain: name, ...(record ? { holder: { owner: record.owner, claimId: record.claimId } } : {}) };
}

async function managedDomainName(requested: string | undefined, caller: Caller, flags: Flags, shortBaseUrl: string, domains: LinkDomains): Promise<string | undefined> {
  if (requested === undefined) return defaultDomain(caller, flags, domains);
  if (isSharedHost(requested, shortBaseUrl)) return undefined;
  const name = asciiDomain(requested);
  if (!name) throw new InvalidRequest(OwnMessages.domainParameter);
  return name;
}
