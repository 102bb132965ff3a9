import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'csv-parse/sync';
import { DynamoMemberStore } from '../../functions/shared/adapters/dynamo-member-store';
import { credentialsPath, type StoredSignIn } from '../../bin/shortener/sign-in/credentials-file';
import { StackOutputs } from '../../lib/stack-outputs';
import { baseUrl, createApiKey, dynamo, stackOutput } from '../support/local-stack';
import { createUser, localCliClientId, signInThrough } from '../support/sign-in';

/**
 * Issues 29 and 31 on the command line: `shortener login` through the local user pool's provider (the printed
 * authorization request signed in as a person would, the redirect landing on the command's loopback listener),
 * then people's commands with the stored sign-in (members, invitations), and `import --from` following a job.
 */
const root = path.join(__dirname, '..', '..');
const work = mkdtempSync(path.join(tmpdir(), 'shortener-login-'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command as a child process; `onStderr` sees stderr as it grows (the login prints its address there). */
function shortener(args: string[], env: Record<string, string>, onStderr?: (stderr: string) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SHORTENER_')));
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/shortener.ts', ...args], { cwd: root, env: { ...inherited, SHORTENER_API_URL: baseUrl(), ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      onStderr?.(stderr);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A new PRO workspace whose owner is a new person (not yet signed in). */
async function ownedWorkspace() {
  const { accountId, apiKey } = await createApiKey('PRO');
  const owner = await createUser();
  await members().addMember({ workspaceId: accountId, userId: owner.sub, email: owner.email, role: 'owner', joinedAt: new Date().toISOString() });
  return { workspaceId: accountId, owner, apiKey };
}

const members = () => new DynamoMemberStore(dynamo(), stackOutput(StackOutputs.membersTable));
const issuer = () => process.env.LOCAL_SIGN_IN_ISSUER as string;
/** What a browser does with `localhost` when only 127.0.0.1 answers (it tries both); Node's fetch may try ::1 only. */
const onLoopback = (url: string) => url.replace('//localhost:', '//127.0.0.1:');

describe('npm run shortener -- login, then people\'s commands', () => {
  it('signs in through the provider onto the loopback listener, keeps the tokens 0600 and unprinted, renews them, manages members, and logs out', async () => {
    const { workspaceId, owner } = await ownedWorkspace();
    const home = { XDG_CONFIG_HOME: mkdtempSync(path.join(work, 'config-')) };

    let signedIn: Promise<void> | undefined;
    const forged: number[] = [];
    const run = shortener(['login', '--no-browser', '--workspace', workspaceId, '--issuer', issuer(), '--client-id', localCliClientId()], home, (stderr) => {
      const printed = /^(http:\/\/\S+\/auth\?\S+)$/m.exec(stderr)?.[1];
      if (!printed || signedIn) return;
      signedIn = (async () => {
        const redirectUri = new URL(printed).searchParams.get('redirect_uri') as string;
        // Another page or process on the machine answering first, with a state of its own: refused, nothing done.
        forged.push((await fetch(onLoopback(`${redirectUri}?code=forged&state=guessed`))).status);
        const callback = await signInThrough(owner, printed, redirectUri);
        expect((await fetch(onLoopback(callback))).status).toBe(200);
        // Only once: the listener is gone.
        await expect(fetch(onLoopback(callback))).rejects.toThrow();
      })();
    });
    const login = await run;
    await signedIn;
    expect(forged).toEqual([400]);
    expect([login.code, login.stdout]).toEqual([0, `${workspaceId}\towner\tdefault\n`]);
    expect(login.stderr).toContain(`signed in as ${owner.email}; kept in ${credentialsPath(home)} (yours only)`);

    const file = credentialsPath(home);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredSignIn;
    expect(stored).toMatchObject({ apiUrl: baseUrl(), issuer: issuer(), workspace: workspaceId, email: owner.email, refreshToken: expect.any(String) });
    for (const secret of [stored.accessToken, stored.refreshToken as string]) expect(login.stdout + login.stderr).not.toContain(secret);

    // No key anywhere: the stored person, in the stored workspace.
    const listed = await shortener(['members', 'list'], home);
    expect([listed.code, listed.stdout]).toEqual([0, expect.stringMatching(new RegExp(`^${owner.sub}\towner\t${owner.email}\tjoined \\S+\n$`))]);
    expect((await shortener(['list'], home)).code).toBe(0);

    const guest = `guest-${Date.now().toString(36)}@example.com`;
    const invited = await shortener(['members', 'invite', guest, '--role', 'member'], home);
    expect([invited.code, invited.stdout]).toEqual([0, expect.stringMatching(new RegExp(`^inv_\\S+\tmember\t${guest}\tby ${owner.email}\texpires `))]);
    const invitationId = invited.stdout.split('\t')[0] as string;
    expect((await shortener(['invitations', 'list'], home)).stdout).toContain(`${invitationId}\tmember\t${guest}`);
    expect((await shortener(['invitations', 'revoke', invitationId], home)).stdout).toBe(`${invitationId} revoked: its link no longer works\n`);
    expect((await shortener(['invitations', 'list'], home)).stdout).toBe('');
    expect((await shortener(['members', 'invite', guest, '--role', 'boss'], home)).code).toBe(2);

    const colleague = await createUser();
    await members().addMember({ workspaceId, userId: colleague.sub, email: colleague.email, role: 'member', joinedAt: new Date().toISOString() });
    expect((await shortener(['members', 'role', colleague.sub, '--role', 'viewer'], home)).stdout).toMatch(new RegExp(`^${colleague.sub}\tviewer\t`));
    const lastOwner = await shortener(['members', 'role', owner.sub, '--role', 'viewer'], home);
    expect([lastOwner.code, lastOwner.stderr.trim()]).toEqual([1, 'A workspace must keep at least one owner: make another member an owner first (409)']);
    expect((await shortener(['members', 'remove', colleague.sub], home)).stdout).toBe(`${colleague.sub} removed: their next request is refused\n`);
    // Another workspace named with --workspace: the API's 404/403, not this person's data elsewhere.
    const elsewhere = await shortener(['--workspace', (await createApiKey('PRO')).accountId, 'members', 'list'], home);
    expect(elsewhere.code).toBe(1);

    // The access token ended: the next command renews it with the refresh token, and keeps the file 0600.
    writeFileSync(file, JSON.stringify({ ...stored, expiresAt: new Date(Date.now() - 1000).toISOString() }), { mode: 0o600 });
    expect((await shortener(['members', 'list'], home)).code).toBe(0);
    const renewed = JSON.parse(readFileSync(file, 'utf8')) as StoredSignIn;
    expect(renewed.accessToken).not.toBe(stored.accessToken);
    expect(Date.parse(renewed.expiresAt)).toBeGreaterThan(Date.now());
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const logout = await shortener(['logout'], home);
    expect([logout.code, logout.stderr]).toEqual([0, `signed out ${owner.email}: the refresh token is revoked\n`]);
    expect(existsSync(file)).toBe(false);
    const discovery = (await (await fetch(`${issuer()}/.well-known/openid-configuration`)).json()) as { token_endpoint: string };
    const refresh = await fetch(discovery.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: stored.clientId, refresh_token: stored.refreshToken as string }).toString(),
    });
    expect(refresh.status).toBe(400);
    const after = await shortener(['members', 'list'], home);
    expect([after.code, after.stderr]).toEqual([2, expect.stringMatching(/^SHORTENER_TOKEN is not set and nobody is signed in/)]);
  }, 120_000);

  it('with a key configured, people\'s commands still refuse the key and ordinary ones use it as before', async () => {
    const { apiKey } = await createApiKey('PRO');
    const home = { XDG_CONFIG_HOME: mkdtempSync(path.join(work, 'config-')) };
    const people = await shortener(['members', 'list'], { ...home, SHORTENER_API_KEY: apiKey });
    expect([people.code, people.stderr]).toEqual([2, expect.stringMatching(/^SHORTENER_TOKEN is not set and nobody is signed in/)]);
    expect((await shortener(['list'], { ...home, SHORTENER_API_KEY: apiKey })).code).toBe(0);
  });
});

describe('npm run shortener -- import --from', () => {
  it('sends a Dub export to POST /v2/imports, follows the job with plain progress lines, prints the summary and writes the results file', async () => {
    const { apiKey } = await createApiKey('PRO');
    const home = { XDG_CONFIG_HOME: mkdtempSync(path.join(work, 'config-')), SHORTENER_API_KEY: apiKey };
    const unique = Date.now().toString(36);
    const file = path.join(work, `dub-${unique}.csv`);
    writeFileSync(
      file,
      [
        'Short link,Destination URL,Clicks,Created at,Link ID,Tags',
        `https://dub.sh/cli-a-${unique},https://example.com/a,1024,2024-01-15T10:00:00.000Z,link_a_${unique},"marketing, launch"`,
        `https://dub.sh/cli-b-${unique},https://example.com/b,7,2024-01-16T10:00:00.000Z,link_b_${unique},`,
        `not a link,https://example.com/n,0,2024-01-17T10:00:00.000Z,link_n_${unique},`,
        '',
      ].join('\n'),
    );
    const first = await shortener(['import', '--from', 'dub', file], home);
    expect(first.code).toBe(0);
    const [id, status, ...counts] = first.stdout.trim().split('\t');
    expect([status, ...counts]).toEqual(['done', 'read 3', 'created 2', 'renamed 0', 'skipped 0', 'existing 0', 'failed 1']);
    // Not a terminal: a plain line per step, ending at every row settled.
    expect(first.stderr).toMatch(/^imported 3\/3 rows, 1 failed/m);
    const results = path.join(work, `dub-${unique}.${id}.results.csv`);
    expect(first.stderr).toContain(`results (every failed, renamed or skipped row and why) in ${results}`);
    const rows = parse(readFileSync(results, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows).toEqual([{ row: '3', outcome: 'failed', code: '', domain: '', reason: expect.any(String) }]);

    // The same file again: nothing new, every good row already there.
    const again = await shortener(['import', '--from', 'dub', file, '--out', path.join(work, `again-${unique}.csv`)], home);
    expect(again.stdout.trim().split('\t').slice(1)).toEqual(['done', 'read 3', 'created 0', 'renamed 0', 'skipped 0', 'existing 2', 'failed 1']);

    const unknown = await shortener(['import', '--from', 'tinyurl', file], home);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([2, '--from must be one of bitly, rebrandly, shortio, dub, shlink, kutt, yourls, csv']);
  }, 60_000);
});
