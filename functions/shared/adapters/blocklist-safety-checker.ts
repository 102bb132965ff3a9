import blocklist from '../domain/links/blocklist.json';
import type { SafetyChecker } from '../domain/ports';

function isBlocked(url: string, hosts: readonly string[], patterns: readonly RegExp[]): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  const lower = url.toLowerCase();
  return hosts.some((host) => hostname === host || hostname.endsWith(`.${host}`)) || patterns.some((pattern) => pattern.test(lower));
}

/** Flags URLs on a host and pattern list shipped with the code: the default wherever Google is not configured. */
export class BlocklistSafetyChecker implements SafetyChecker {
  private readonly hosts = blocklist.hosts.map((host) => host.toLowerCase());
  private readonly patterns = blocklist.patterns.map((pattern) => new RegExp(pattern));

  async findUnsafe(urls: readonly string[]): Promise<ReadonlySet<string>> {
    return new Set(urls.filter((url) => isBlocked(url, this.hosts, this.patterns)));
  }
}
