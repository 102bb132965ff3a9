import type { ShortenerClient } from '../../clients/typescript/src';
import type { paths } from '../../clients/typescript/src/schema';
import { ApiRefusal, messageOf, type Io } from './commands';
import { UsageError } from './csv-links';

type KeyView = paths['/v2/keys']['get']['responses'][200]['content']['application/json']['keys'][number];
type NewKey = paths['/v2/keys']['post']['requestBody']['content']['application/json'];

const creator = (key: KeyView) => (key.createdBy.kind === 'user' ? key.createdBy.email : 'operator');

/** One key for people: id, state, name, scopes, expiry, last use and maker; never a secret. */
function describe(key: KeyView): string {
  return `${key.id}\t${key.status}\t${key.name}\t${key.scopes.join(',')}\texpires ${key.expiresAt ?? 'never'}\tlast used ${key.lastUsedAt ?? 'never'}\tby ${creator(key)}\n`;
}

/** The secret is in this answer only: printed on its own line, after a reminder to keep it. */
export async function createKey(client: ShortenerClient, name: string, options: { scopes: string; expiresAt?: string; json?: boolean }, io: Io): Promise<void> {
  const scopes = options.scopes.split(',').map((scope) => scope.trim()).filter(Boolean);
  if (scopes.length === 0) throw new UsageError('--scopes needs at least one scope, e.g. links:read,stats:read');
  const body: NewKey = { name, scopes: scopes as NewKey['scopes'], ...(options.expiresAt !== undefined ? { expiresAt: options.expiresAt } : {}) };
  const { data, error, response } = await client.POST('/v2/keys', { body });
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  if (options.json) io.out(`${JSON.stringify(data, null, 2)}\n`);
  else io.out(`${describe(data)}key (shown once, keep it): ${data.secret}\n`);
}

export async function listKeys(client: ShortenerClient, options: { json?: boolean }, io: Io): Promise<void> {
  const { data, error, response } = await client.GET('/v2/keys');
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  if (options.json) io.out(`${JSON.stringify(data.keys, null, 2)}\n`);
  else for (const key of data.keys) io.out(describe(key));
}

export async function revokeKey(client: ShortenerClient, id: string, io: Io): Promise<void> {
  const { error, response } = await client.DELETE('/v2/keys/{id}', { params: { path: { id } } });
  if (response.status !== 204) throw new ApiRefusal(messageOf(error, response.status));
  io.out(`${id} revoked: its next request is refused\n`);
}
