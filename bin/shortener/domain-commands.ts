import type { ShortenerClient } from '../../clients/typescript/src';
import type { paths } from '../../clients/typescript/src/schema';
import { ApiRefusal, messageOf, type Io } from './commands';

type DomainView = paths['/v2/domains/{domain}']['get']['responses'][200]['content']['application/json'];

/** One domain for people: its status and why, then the DNS records its owner must create. */
function describe(domain: DomainView): string {
  const lines = [`${domain.domain}\t${domain.status}${domain.isDefault ? '\tdefault' : ''}${domain.statusReason ? `\t${domain.statusReason}` : ''}`];
  for (const record of domain.status === 'active' ? [] : domain.dnsRecords) lines.push(`  create: ${record.type} ${record.name} → ${record.value}`);
  return `${lines.join('\n')}\n`;
}

export async function listDomains(client: ShortenerClient, options: { json?: boolean }, io: Io): Promise<void> {
  const { data, error, response } = await client.GET('/v2/domains');
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  if (options.json) io.out(`${JSON.stringify(data.domains, null, 2)}\n`);
  else for (const domain of data.domains) io.out(describe(domain));
}

export async function addDomain(client: ShortenerClient, domain: string, options: { json?: boolean }, io: Io): Promise<void> {
  const { data, error, response } = await client.POST('/v2/domains', { body: { domain } });
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  io.out(options.json ? `${JSON.stringify(data, null, 2)}\n` : describe(data));
}

export async function verifyDomain(client: ShortenerClient, domain: string, options: { json?: boolean }, io: Io): Promise<void> {
  const { data, error, response } = await client.POST('/v2/domains/{domain}/verify', { params: { path: { domain } } });
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  io.out(options.json ? `${JSON.stringify(data, null, 2)}\n` : describe(data));
}
