import { isIP } from 'node:net';
import type Address from 'ipaddr.js';
import { addressParser } from '../address-parser';

/** Longer destinations are almost always abuse, and some browsers cut URLs past this length. */
export const MAX_URL_LENGTH = 2048;

/**
 * Names that only resolve inside someone's network, plus the special-use names of IANA's registry (RFC 6761, 6762,
 * 7686, 8375, 9476): `.test`, `.example`, `.invalid` and `.localhost` never lead anywhere public, `.onion` and `.alt`
 * leave the DNS, `.arpa` is the DNS's own infrastructure. `example.com/.net/.org` are real, public hosts and stay.
 */
const PRIVATE_NAME_SUFFIXES = ['localhost', 'local', 'internal', 'intranet', 'lan', 'corp', 'test', 'example', 'invalid', 'onion', 'alt', 'arpa'];

let globalUnicastIpv6: [Address.IPv4 | Address.IPv6, number] | undefined;

/**
 * Only ordinary unicast addresses are public. ipaddr.js names every special-purpose block of IANA's IPv4 and IPv6
 * registries (private, loopback, link-local, CGNAT, documentation, benchmarking, multicast, NAT64, 6to4, Teredo,
 * IPv4-mapped and -compatible, site-local...), so an address that translates into someone's network is refused too.
 * The one policy for destinations and for where a webhook delivery may connect (webhook-sender.ts).
 */
export function isPublicAddress(address: string): boolean {
  const ipaddr = addressParser();
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.range() !== 'unicast') return false;
  // IANA has allocated only 2000::/3 as global unicast; the rest (::/96 IPv4-compatible among it) leads nowhere public.
  globalUnicastIpv6 ??= ipaddr.parseCIDR('2000::/3');
  return parsed.kind() === 'ipv4' || parsed.match(globalUnicastIpv6);
}

function isPublicHostname(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (isIP(bare) !== 0) return isPublicAddress(bare);
  const labels = bare.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((label) => /^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(label))) return false;
  const topLevel = labels[labels.length - 1] ?? '';
  if (!/^(xn--[a-z0-9-]+|[a-z]{2,63})$/.test(topLevel)) return false;
  return !PRIVATE_NAME_SUFFIXES.some((suffix) => bare === suffix || bare.endsWith(`.${suffix}`));
}

/**
 * The destination as the service stores and answers it: the WHATWG serialization of an absolute http(s) URL to a
 * public host without credentials (punycode host, percent-encoded path, query and fragment: pure ASCII, so every
 * Location header is valid and leads where the creator meant), or undefined when the URL is not acceptable.
 * Hosts are checked after parsing, which normalises tricks such as http://2130706433/ to 127.0.0.1.
 */
export function normaliseDestination(candidate: string): string | undefined {
  if (candidate.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(candidate)) return undefined;
  if (/[\s\u0000-\u001f\u007f]/.test(candidate)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(candidate);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  if (parsed.username || parsed.password) return undefined;
  if (!isPublicHostname(parsed.hostname)) return undefined;
  // Percent-encoding can triple a non-ASCII URL's length: the limit holds for what is stored and sent.
  return parsed.href.length > MAX_URL_LENGTH ? undefined : parsed.href;
}

export function isAcceptableDestination(candidate: string): boolean {
  return normaliseDestination(candidate) !== undefined;
}

/** A stored destination as a Location header: links stored before destinations were normalised may hold raw Unicode. */
export function asciiLocation(url: string): string {
  // Every destination stored since then is already ASCII: no parse on the redirect's hot path for those.
  if (/^[\x21-\x7e]*$/.test(url)) return url;
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}
