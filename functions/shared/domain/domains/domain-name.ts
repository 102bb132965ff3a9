import { parse } from 'tldts';
import { InvalidRequest } from '../errors';
import { isHomographHost } from '../links/homographs';
import { OwnMessages } from '../messages';
import { asciiDomain } from './host-name';

/** Cloud providers' shared names: a tenant there would be someone else's resource, never the customer's own name. */
const CLOUD_PROVIDER_SUFFIXES = ['cloudfront.net', 'amazonaws.com'];

const isUnder = (name: string, suffix: string) => name === suffix || name.endsWith(`.${suffix}`);

/**
 * A name a customer may bring: a public host name of at least two labels under a real (ICANN) public suffix, not
 * an address, not a suffix itself, not under a provider's shared suffix (the private section of the Public Suffix
 * List: github.io, cloudfront.net...), not one of this deployment's own hosts, not a look-alike. The stored form.
 */
export function parseDomainName(input: unknown, ownHosts: readonly string[]): string {
  const name = typeof input === 'string' ? asciiDomain(input) : undefined;
  if (!name || name.split('.').length < 2) throw new InvalidRequest(OwnMessages.domainInvalid);
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
  if (!acceptable) throw new InvalidRequest(OwnMessages.domainInvalid);
  return name;
}
