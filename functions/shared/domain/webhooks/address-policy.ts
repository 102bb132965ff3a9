/**
 * Where a delivery may connect is a destination's rule (`isPublicAddress` in links/url-policy.ts: global unicast
 * only, 2000::/3 for IPv6, IPv4 inside IPv6 refused), checked on each address the name resolves to at delivery, the
 * one connected to included, so DNS rebinding gains nothing. What is the webhooks' own: a local run's receivers.
 */

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
