import ipaddr from 'ipaddr.js';

/**
 * Where a delivery may connect. Only global unicast addresses: loopback, private, link-local (the cloud metadata
 * service's 169.254.169.254 among them), CGNAT, multicast, unique-local (AWS's fd00:ec2::254), reserved and
 * unspecified ranges are refused, IPv4 inside IPv6 judged as the IPv4 it carries. Checked on each address the name
 * resolves to at delivery, the one connected to included, so DNS rebinding gains nothing.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv6') {
    const range = (parsed as ipaddr.IPv6).range();
    // 6to4 and Teredo wrap IPv4 addresses the policy would judge otherwise; 64:ff9b:: (NAT64) likewise.
    return range === 'unicast' && !address.toLowerCase().startsWith('64:ff9b:');
  }
  return parsed.range() === 'unicast';
}

/**
 * A local run's receivers on this machine (LOCAL_WEBHOOK_ALLOW: `host:port` pairs, comma-separated). Only the
 * listed pairs pass; every other private address stays refused.
 */
export function parseLocalAllowList(value: string | undefined): ReadonlySet<string> {
  return new Set((value ?? '').split(',').map((pair) => pair.trim().toLowerCase()).filter((pair) => /^[^\s:]+:\d{1,5}$/.test(pair) || /^\[[0-9a-f:.]+\]:\d{1,5}$/.test(pair)));
}

/** `host:port` of a URL as the allow list names it (default ports spelled out). */
export function hostPortOf(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname.toLowerCase()}:${port}`;
}
