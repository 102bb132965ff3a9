import { Resolver } from 'node:dns/promises';
import { readFile } from 'node:fs/promises';
import type { TxtRecords } from '../domain/ports';

/** TXT lines of a local run's file ("_shortener-challenge.go.acme.com shortener-verification=…"): comments and blank lines skipped, names lower-cased. */
export function parseTxtFile(text: string): Map<string, string[]> {
  const records = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = /^\s*(\S+)\s+(.+?)\s*$/.exec(line.split('#')[0] ?? '');
    if (!match?.[1] || !match[2]) continue;
    const name = match[1].toLowerCase().replace(/\.$/, '');
    records.set(name, [...(records.get(name) ?? []), match[2].replace(/^"(.*)"$/, '$1')]);
  }
  return records;
}

/** A slow or broken name server makes a check wait this long at most, rather than the resolver's default minutes. */
const RESOLVER_OPTIONS = { timeout: 2_000, tries: 2 };

/**
 * TXT records from DNS. A local run names a file in LOCAL_DNS_TXT_FILE that is read first (tests add lines to it,
 * as LOCAL_HOSTS_FILE does for addresses), then the system resolver. A name without TXT records, or one DNS cannot
 * answer for, has none: the check says the record is not there yet and runs again on the schedule.
 */
export class ResolverTxtRecords implements TxtRecords {
  private readonly resolver = new Resolver(RESOLVER_OPTIONS);

  constructor(private readonly txtFile: string | undefined) {}

  async lookup(name: string): Promise<string[]> {
    const listed = await this.fromFile(name.toLowerCase());
    if (listed) return listed;
    try {
      // A TXT record may be split into strings of at most 255 bytes: its value is them joined.
      return (await this.resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    } catch {
      return [];
    }
  }

  private async fromFile(name: string): Promise<string[] | undefined> {
    if (!this.txtFile) return undefined;
    const text = await readFile(this.txtFile, 'utf8').catch(() => '');
    return parseTxtFile(text).get(name);
  }
}
