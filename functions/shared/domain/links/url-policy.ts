import { isIP } from 'node:net';

/** Longer destinations are almost always abuse, and some browsers cut URLs past this length. */
export const MAX_URL_LENGTH = 2048;

const PRIVATE_IPV4_RANGES: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata endpoints live here
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];

/** Names that only resolve inside someone's network. */
const PRIVATE_NAME_SUFFIXES = ['localhost', 'local', 'internal', 'intranet', 'lan', 'home.arpa', 'corp'];

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function isPrivateIpv4(address: string): boolean {
  const value = ipv4ToNumber(address);
  return PRIVATE_IPV4_RANGES.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = ipv4ToNumber(base);
    return value >= start && value < start + size;
  });
}

function isPrivateIpv6(address: string): boolean {
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped?.[1]) return isPrivateIpv4(mapped[1]);
  // The URL parser prints IPv4-mapped addresses in hex (::ffff:7f00:1): refuse the whole mapped range.
  if (lower.startsWith('::ffff:')) return true;
  return lower === '::' || lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || lower.startsWith('ff');
}

function isPublicHostname(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const ipVersion = isIP(bare);
  if (ipVersion === 4) return !isPrivateIpv4(bare);
  if (ipVersion === 6) return !isPrivateIpv6(bare);
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
