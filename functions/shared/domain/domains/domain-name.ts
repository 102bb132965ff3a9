import { parse } from 'tldts';
import { isHomographHost } from '../links/homographs';
import { asciiDomain } from './host-name';

/** Cloud providers' shared names: a tenant there would be someone else's resource, never the customer's own name. */
const CLOUD_PROVIDER_SUFFIXES = ['cloudfront.net', 'amazonaws.com'];

const isUnder = (name: string, suffix: string) => name === suffix || name.endsWith(`.${suffix}`);

/**
 * A name a customer may bring: a public host name of at least two labels under a real (ICANN) public suffix, not
 * an address, not a suffix itself, not under a provider's shared suffix (the private section of the Public Suffix
 * List: github.io, cloudfront.net...), not one of this deployment's own hosts, not a look-alike. Its stored form,
 * or undefined. The Public Suffix List is most of the domains function's code, so this module is a bundle of its
 * own beside it, loaded when a domain is first added (see ClaimableDomain); it throws nothing, since an error
 * class from another bundle would not be the one error-responses.ts knows.
 */
export function claimableDomain(input: string, ownHosts: readonly string[]): string | undefined {
  const name = asciiDomain(input);
  if (!name || name.split('.').length < 2) return undefined;
  const icann = parse(name, { allowPrivateDomains: false });
  const withPrivate = parse(name, { allowPrivateDomains: true });
  const acceptable =
    !icann.isIp &&
    icann.isIcann === true &&
    icann.domain !== null &&
    withPrivate.isPrivate !== true &&
    !CLOUD_PROVIDER_SUFFIXES.some((suffix) => isUnder(name, suffix)) &&
    !ownHosts.some((host) => isUnder(name, host)) &&
    !isHomographHost(name);
  return acceptable ? name : undefined;
}

export type ClaimableDomain = typeof claimableDomain;
