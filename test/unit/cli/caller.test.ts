import { mkdtempSync, statSync, writeFileSync, chmodSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { apiClient, personClient } from '../../../bin/shortener/caller';
import { credentialsPath, readCredentials, writeCredentials, type StoredSignIn } from '../../../bin/shortener/sign-in/credentials-file';

/** Who a `shortener` command calls as: a key as before, else a signed-in person, renewed when their token ends. */
const configHome = () => mkdtempSync(path.join(tmpdir(), 'shortener-config-'));

/** An API and a token endpoint in one: records what reached it, answers a refresh with a new access token. */
async function recorder(): Promise<{ url: string; seen: Array<{ path: string; authorization?: string; workspace?: string; body: string }>; close(): Promise<void> }> {
  const seen: Array<{ path: string; authorization?: string; workspace?: string; body: string }> = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ path: request.url ?? '', ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}), ...(request.headers['shortener-workspace'] ? { workspace: String(request.headers['shortener-workspace']) } : {}), body });
      const answer = request.url === '/token' ? { access_token: 'renewed-access-token', expires_in: 900, token_type: 'Bearer' } : { members: [] };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const signedIn = (apiUrl: string, overrides: Partial<StoredSignIn> = {}): StoredSignIn => ({
  apiUrl,
  issuer: `${apiUrl}/pool`,
  clientId: 'cli-client',
  tokenEndpoint: `${apiUrl}/token`,
  revocationEndpoint: `${apiUrl}/revoke`,
  accessToken: 'stored-access-token',
  refreshToken: 'stored-refresh-token',
  expiresAt: new Date(Date.now() + 600_000).toISOString(),
  workspace: 'acct_stored',
  ...overrides,
});

describe('the credentials file', () => {
  it('is written owner-only (0600 in a 0700 directory) whatever the umask, under XDG_CONFIG_HOME', async () => {
    const env = { XDG_CONFIG_HOME: configHome() };
    const previous = process.umask(0);
    try {
      const file = await writeCredentials(signedIn('http://api.test'), env);
      expect(file).toBe(path.join(env.XDG_CONFIG_HOME, 'shortener', 'credentials.json'));
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      // Written again (a renewal): still 0600.
      await writeCredentials(signedIn('http://api.test', { accessToken: 'next' }), env);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(previous);
    }
    expect(credentialsPath({ XDG_CONFIG_HOME: 'relative/dir' })).toMatch(/\.config\/shortener\/credentials\.json$/);
  });

  it('is refused once others may read it, and a file that is not JSON says how to recover', async () => {
    const env = { XDG_CONFIG_HOME: configHome() };
    const file = await writeCredentials(signedIn('http://api.test'), env);
    chmodSync(file, 0o644);
    await expect(readCredentials(env)).rejects.toThrow('is readable by other users');
    writeFileSync(file, 'not json', { mode: 0o600 });
    chmodSync(file, 0o600);
    await expect(readCredentials(env)).rejects.toThrow('is not a sign-in this command wrote');
  });
});

describe('who a command calls as', () => {
  it('a key when SHORTENER_API_KEY is set, as before; without one and without a sign-in, says so', async () => {
    await expect(apiClient({}, { SHORTENER_API_URL: 'http://api.test', XDG_CONFIG_HOME: configHome() })).rejects.toThrow(/^SHORTENER_API_KEY is not set/);
    await expect(apiClient({}, { SHORTENER_API_KEY: 'shk_x', XDG_CONFIG_HOME: configHome() })).rejects.toThrow(/^SHORTENER_API_URL is not set/);
    await expect(apiClient({}, { SHORTENER_API_URL: 'http://api.test', SHORTENER_API_KEY: 'shk_x', XDG_CONFIG_HOME: configHome() })).resolves.toBeDefined();
  });

  it('people\'s commands need a person and a workspace, never an API key', async () => {
    const base = { SHORTENER_API_URL: 'https://api.test/prod', SHORTENER_API_KEY: `shk_${'a'.repeat(43)}`, XDG_CONFIG_HOME: configHome() };
    await expect(personClient({}, base)).rejects.toThrow(/SHORTENER_TOKEN is not set and nobody is signed in/);
    await expect(personClient({}, { ...base, SHORTENER_TOKEN: 't' })).rejects.toThrow(/SHORTENER_WORKSPACE is not set/);
    await expect(personClient({ workspace: 'acct_1' }, { ...base, SHORTENER_TOKEN: 't' })).resolves.toBeDefined();
  });

  it('the stored sign-in, in its default workspace unless --workspace or SHORTENER_WORKSPACE names another', async () => {
    const api = await recorder();
    try {
      const env = { XDG_CONFIG_HOME: configHome() };
      await writeCredentials(signedIn(api.url), env);
      await (await apiClient({}, env)).GET('/v2/members');
      await (await personClient({ workspace: 'acct_flag' }, { ...env, SHORTENER_WORKSPACE: 'acct_env' })).GET('/v2/members');
      await (await personClient({}, { ...env, SHORTENER_WORKSPACE: 'acct_env' })).GET('/v2/members');
      expect(api.seen.map(({ authorization, workspace }) => [authorization, workspace])).toEqual([
        ['Bearer stored-access-token', 'acct_stored'],
        ['Bearer stored-access-token', 'acct_flag'],
        ['Bearer stored-access-token', 'acct_env'],
      ]);
    } finally {
      await api.close();
    }
  });

  it('renews an access token about to end with the refresh token, keeps the new one (still 0600), and never asks twice', async () => {
    const api = await recorder();
    try {
      const env = { XDG_CONFIG_HOME: configHome() };
      const file = await writeCredentials(signedIn(api.url, { expiresAt: new Date(Date.now() + 5_000).toISOString() }), env);
      await (await personClient({}, env)).GET('/v2/members');
      await (await personClient({}, env)).GET('/v2/members');
      expect(api.seen.map((request) => request.path)).toEqual(['/token', '/v2/members', '/v2/members']);
      expect(Object.fromEntries(new URLSearchParams(api.seen[0]?.body))).toEqual({ grant_type: 'refresh_token', client_id: 'cli-client', refresh_token: 'stored-refresh-token' });
      expect(api.seen[1]?.authorization).toBe('Bearer renewed-access-token');
      const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredSignIn;
      expect([stored.accessToken, stored.refreshToken, statSync(file).mode & 0o777]).toEqual(['renewed-access-token', 'stored-refresh-token', 0o600]);
      expect(Date.parse(stored.expiresAt)).toBeGreaterThan(Date.now() + 800_000);
    } finally {
      await api.close();
    }
  });

  it('an ended sign-in without a refresh token asks for a new login', async () => {
    const env = { XDG_CONFIG_HOME: configHome() };
    await writeCredentials(signedIn('http://api.test', { refreshToken: undefined, expiresAt: new Date(Date.now() - 1000).toISOString() }), env);
    await expect(personClient({}, env)).rejects.toThrow('your sign-in has expired: run `shortener login` again');
  });
});
