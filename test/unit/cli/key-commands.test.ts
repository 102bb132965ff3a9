import { createShortenerClient } from '../../../clients/typescript/src';
import { ApiRefusal } from '../../../bin/shortener/commands';
import { UsageError } from '../../../bin/shortener/csv-links';
import { createKey, listKeys, revokeKey } from '../../../bin/shortener/key-commands';

/** `shortener keys`: what it sends (a person's token and workspace, the body) and what it prints. */
function recordingClient(...answers: Response[]) {
  const seen: Array<{ method: string; url: string; headers: Headers; body: string }> = [];
  const client = createShortenerClient({
    baseUrl: 'https://api.test/prod',
    apiKey: 'person-access-token',
    workspace: 'acct_0000000000000001',
    retry: { maxRetries: 0 },
    fetch: async (request) => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next;
    },
  });
  return { client, seen };
}

function io() {
  const out: string[] = [];
  return { out, io: { out: (text: string) => void out.push(text), err: () => undefined } };
}

const answer = (status: number, body?: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const view = {
  id: 'key_0123456789abcdef',
  name: 'CI déploiement',
  scopes: ['links:read', 'stats:read'],
  status: 'active',
  createdBy: { kind: 'user', userId: 'u1', email: 'ana@example.com' },
  createdAt: '2026-11-25T12:00:00.000Z',
  expiresAt: null,
  lastUsedAt: null,
};

describe('shortener keys', () => {
  it('create sends the name, scopes and expiry as the person of the workspace, and prints the key once', async () => {
    const { client, seen } = recordingClient(answer(201, { ...view, secret: `shk_${'a'.repeat(43)}` }));
    const { out, io: streams } = io();
    await createKey(client, 'CI déploiement', { scopes: 'links:read, stats:read', expiresAt: '2027-01-01T00:00:00Z' }, streams);
    expect(seen[0]).toMatchObject({ method: 'POST', url: 'https://api.test/prod/v2/keys' });
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer person-access-token');
    expect(seen[0]?.headers.get('shortener-workspace')).toBe('acct_0000000000000001');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ name: 'CI déploiement', scopes: ['links:read', 'stats:read'], expiresAt: '2027-01-01T00:00:00Z' });
    expect(out.join('')).toBe(`key_0123456789abcdef\tactive\tCI déploiement\tlinks:read,stats:read\texpires never\tlast used never\tby ana@example.com\nkey (shown once, keep it): shk_${'a'.repeat(43)}\n`);
  });

  it('create refuses an empty scope list before calling, and names the API\'s refusal with its status', async () => {
    const { client, seen } = recordingClient(answer(403, { statusCode: 403, message: 'Your role (member) does not allow domains:write', error: 'Forbidden', permission: 'domains:write' }));
    await expect(createKey(client, 'x', { scopes: ' , ' }, io().io)).rejects.toThrow(UsageError);
    expect(seen).toHaveLength(0);
    await expect(createKey(client, 'x', { scopes: 'domains:write' }, io().io)).rejects.toThrow(new ApiRefusal('Your role (member) does not allow domains:write (403)'));
  });

  it('list prints one line per key, operators\' keys as such', async () => {
    const { client } = recordingClient(answer(200, { keys: [view, { ...view, id: 'key_1', name: '', createdBy: { kind: 'operator' }, lastUsedAt: '2026-11-25T13:00:00.000Z' }] }));
    const { out, io: streams } = io();
    await listKeys(client, {}, streams);
    expect(out[1]).toBe('key_1\tactive\t\tlinks:read,stats:read\texpires never\tlast used 2026-11-25T13:00:00.000Z\tby operator\n');
  });

  it('revoke says so on 204 and refuses with the API\'s message otherwise', async () => {
    const { client, seen } = recordingClient(answer(204), answer(404, { statusCode: 404, message: 'Key not found', error: 'Not Found' }));
    const { out, io: streams } = io();
    await revokeKey(client, 'key_0123456789abcdef', streams);
    expect(seen[0]).toMatchObject({ method: 'DELETE', url: 'https://api.test/prod/v2/keys/key_0123456789abcdef' });
    expect(out).toEqual(['key_0123456789abcdef revoked: its next request is refused\n']);
    await expect(revokeKey(client, 'key_0123456789abcdef', streams)).rejects.toThrow('Key not found (404)');
  });
});
