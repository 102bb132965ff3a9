import type { ShortenerClient } from '../../clients/typescript/src';
import type { paths } from '../../clients/typescript/src/schema';
import { ApiRefusal, messageOf, type Io } from './commands';

type AuditEntry = paths['/v2/audit-log']['get']['responses'][200]['content']['application/json']['records'][number];
export interface AuditOptions {
  actor?: string;
  action?: string;
  target?: string;
  from?: string;
  to?: string;
  /** How many records at most (the pages are followed until then); 50 by default. */
  limit?: string;
  json?: boolean;
}

/** Who, in a word: a key's id (and name), a person's email, or `operator`. */
function actorOf(entry: AuditEntry): string {
  if (entry.actor.kind === 'key') return entry.actor.name ? `${entry.actor.keyId} (${entry.actor.name})` : entry.actor.keyId;
  if (entry.actor.kind === 'user') return entry.actor.email;
  return 'operator';
}

/** One line per record: when, who, what, on what, and which fields moved. */
export function auditLine(entry: AuditEntry): string {
  return `${entry.at}\t${actorOf(entry)}\t${entry.action}\t${entry.target.type}:${entry.target.id}\t${Object.keys(entry.changes).join(',')}\n`;
}

export async function listAuditLog(client: ShortenerClient, options: AuditOptions, io: Io): Promise<void> {
  const wanted = options.limit === undefined ? 50 : Number(options.limit);
  const entries: AuditEntry[] = [];
  const filters = Object.fromEntries((['actor', 'action', 'target', 'from', 'to'] as const).flatMap((name) => (options[name] ? [[name, options[name]]] : [])));
  let cursor: string | undefined;
  do {
    const { data, error, response } = await client.GET('/v2/audit-log', {
      params: { query: { ...filters, limit: Math.max(1, Math.min(100, wanted - entries.length)), ...(cursor ? { cursor } : {}) } },
    });
    if (!data) throw new ApiRefusal(messageOf(error, response.status));
    entries.push(...data.records);
    cursor = data.nextCursor ?? undefined;
  } while (cursor && entries.length < wanted);
  if (options.json) io.out(`${JSON.stringify(entries, null, 2)}\n`);
  else for (const entry of entries) io.out(auditLine(entry));
}
