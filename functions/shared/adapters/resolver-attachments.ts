import { lookup } from 'node:dns/promises';
import { readFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { addressParser } from '../domain/address-parser';
import type { DnsRecord } from '../domain/domains/custom-domain';
import type { AttachmentCheck, DomainAttachments } from '../domain/ports';

/** Names from a hosts-format file ("127.0.0.1 go.acme.com"): comments and blank lines skipped, names lower-cased. */
export function parseHostsFile(text: string): Map<string, string[]> {
  const hosts = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const [address, ...names] = (line.split('#')[0] ?? '').trim().split(/\s+/);
    if (!address || names.length === 0 || !addressParser().isValid(address)) continue;
    for (const name of names) hosts.set(name.toLowerCase(), [...(hosts.get(name.toLowerCase()) ?? []), address]);
  }
  return hosts;
}

function isThisMachine(address: string): boolean {
  const ipaddr = addressParser();
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() === 'loopback') return true;
  return Object.values(networkInterfaces()).some((entries) => entries?.some((entry) => entry.address === parsed.toString()));
}

/**
 * The local run's stand-in for CloudFront tenants, and it says so: there is no certificate to issue on a laptop, so a
 * domain serves as soon as its name resolves to this machine. The file named by LOCAL_HOSTS_FILE is read first
 * (tests add names there without touching the machine), then the system resolver (/etc/hosts, DNS). The claim's
 * TXT challenge is checked before this, as on AWS (domain-verification.ts, dns-txt-records.ts).
 */
export class ResolverAttachments implements DomainAttachments {
  constructor(private readonly hostsFile: string | undefined) {}

  dnsRecordsFor(domain: string): DnsRecord[] {
    return [{ type: 'A', name: domain, value: '127.0.0.1' }];
  }

  async check(domain: string): Promise<AttachmentCheck> {
    const addresses = (await this.fromHostsFile(domain)) ?? (await this.fromResolver(domain));
    if (addresses.length === 0) return { serving: false, reason: `${domain} does not resolve yet: add the DNS record shown (locally, a hosts-file line)` };
    if (addresses.some(isThisMachine)) return { serving: true };
    return { serving: false, reason: `${domain} resolves to ${addresses.join(', ')}, not to this service` };
  }

  detach(): Promise<boolean> {
    return Promise.resolve(true);
  }

  private async fromHostsFile(domain: string): Promise<string[] | undefined> {
    if (!this.hostsFile) return undefined;
    const text = await readFile(this.hostsFile, 'utf8').catch(() => '');
    return parseHostsFile(text).get(domain);
  }

  private async fromResolver(domain: string): Promise<string[]> {
    try {
      return (await lookup(domain, { all: true })).map((entry) => entry.address);
    } catch {
      return [];
    }
  }
}
