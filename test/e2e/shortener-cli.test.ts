import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'csv-parse/sync';
import { accountDirectory, baseUrl, createApiKey, eventually, http, jsonHeaders } from '../support/local-stack';
import { publishDnsRecords } from '../support/local-dns';
import { receiverPorts, verify, WebhookReceiver, type Received } from '../support/webhook-receiver';
import { OwnMessages } from '../../functions/shared/domain/messages';

/** Issue 12: `npm run shortener -- import | list | stats | qr` against the local stack, as a user runs it. */
const root = path.join(__dirname, '..', '..');
const work = mkdtempSync(path.join(tmpdir(), 'shortener-cli-'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command as a child process; `until` may stop it (SIGKILL, as a closed laptop would) once stderr says so. */
function shortener(args: string[], apiKey: string, until?: (stderr: string) => boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    // One process (tsx as a loader, not its wrapper), so a kill stops the import itself.
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/shortener.ts', ...args], {
      cwd: root,
      env: { ...process.env, SHORTENER_API_URL: baseUrl(), SHORTENER_API_KEY: apiKey },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (until?.(stderr)) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function accountLinkCount(apiKey: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const page = await http('GET', `/v2/links?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers: jsonHeaders(apiKey) });
    const body = page.json<{ links: unknown[]; nextCursor: string | null }>();
    count += body.links.length;
    cursor = body.nextCursor;
  } while (cursor);
  return count;
}

/** 1,000 rows: quoted commas, Unicode, every field; every 17th URL and every 29th expiresIn bad. */
function importFile(): { csv: string; good: number } {
  const lines = ['url,alias,password,expiresIn,maxClicks'];
  let good = 0;
  for (let index = 0; index < 1_000; index += 1) {
    const badUrl = index % 17 === 0;
    const badExpiry = index % 29 === 0;
    if (!badUrl && !badExpiry) good += 1;
    const url = badUrl ? `not a url ${index}` : index % 3 === 0 ? `https://例え.jp/页面/${index}` : `"https://example.com/import?row=${index},a"`;
    const password = index % 5 === 0 ? `"pass, word ${index}"` : '';
    const expiresIn = badExpiry ? 'soon' : index % 4 === 0 ? '86400' : '';
    const maxClicks = index % 7 === 0 ? '10' : '';
    lines.push([url, '', password, expiresIn, maxClicks].join(','));
  }
  return { csv: `${lines.join('\n')}\n`, good };
}

describe('npm run shortener -- import', () => {
  it('imports 1,000 rows in order, and after an interruption a second run makes no duplicates', async () => {
    const { apiKey } = await createApiKey('PRO');
    const { csv, good } = importFile();
    const input = path.join(work, 'links.csv');
    const output = path.join(work, 'results.csv');
    writeFileSync(input, csv);

    const interrupted = await shortener(['import', input, '--out', output], apiKey, (stderr) => /imported (1[5-9]\d|[2-9]\d\d)\//.test(stderr));
    expect(interrupted.code).toBeNull();
    const madeBeforeTheStop = await accountLinkCount(apiKey);
    expect(madeBeforeTheStop).toBeGreaterThan(0);
    expect(madeBeforeTheStop).toBeLessThan(good);

    const finished = await shortener(['import', input, '--out', output], apiKey);
    expect(finished.code).toBe(0);
    // Not a terminal: plain progress lines, one per batch of 50.
    expect(finished.stderr.match(/^imported \d+\/1000 rows/gm)).toHaveLength(20);
    expect(finished.stderr).toContain(`1000 rows: ${good} links, ${1_000 - good} failed`);

    const inputRows = parse(csv, { columns: true }) as Array<Record<string, string>>;
    const results = parse(readFileSync(output, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(results).toHaveLength(1_000);
    results.forEach((row, index) => {
      expect(row.url).toBe(inputRows[index]?.url);
      expect(Boolean(row.shortUrl) !== Boolean(row.error)).toBe(true);
    });
    expect(results.filter((row) => row.shortUrl)).toHaveLength(good);
    expect(results[17]?.error).toBe('Please provide a valid URL');
    expect(results[29]?.error).toBe('expiresIn must be a whole number of seconds');
    expect(new Set(results.map((row) => row.shortUrl).filter(Boolean)).size).toBe(good);

    expect(await accountLinkCount(apiKey)).toBe(good);
    // Two runs over 1,000 rows, 200 of them hashing a password: about 20 s here, past the default 30 s on a busy machine.
  }, 90_000);

  it.each([
    ['a file that is not there', null, /^cannot read .*missing\.csv: ENOENT$/m],
    ['a file without a url column', 'link,alias\nhttps://example.com,\n', /has no url column/],
    ['a file that is not CSV', 'url,alias\n"https://example.com/unclosed,x\n', /is not a CSV file this command can read/],
  ])('stops on %s with one line and exit code 2', async (_case, content, message) => {
    const file = path.join(work, content === null ? 'missing.csv' : `bad-${Math.random().toString(36).slice(2)}.csv`);
    if (content !== null) writeFileSync(file, content);
    const run = await shortener(['import', file], 'shk_unused');
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });
});

describe('npm run shortener -- list, stats, qr', () => {
  it('lists the links, shows their clicks and saves a QR code', async () => {
    const { apiKey } = await createApiKey('PRO');
    const created = await http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url: 'https://example.com/cli' } });
    const { shortCode } = created.json<{ shortCode: string }>();

    const list = await shortener(['list'], apiKey);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[1]).toMatch(new RegExp(`^${shortCode}\tactive\t0\thttp://.+/${shortCode}\thttps://example.com/cli$`));

    const stats = await shortener(['stats', shortCode, '--json'], apiKey);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ shortCode, total: 0 });
    // Issue 30: the new dimensions, printed; without a code, the whole workspace.
    const printed = await shortener(['stats', shortCode, '--bots'], apiKey);
    expect(printed.stdout).toContain(`${shortCode}: 0 clicks in all, 0 in the last 30 days; 0 bots counted apart`);
    for (const line of ['unique visitors: 0', 'browsers:  none', 'systems:   none', 'regions:   none', 'cities:    none', 'utm_campaign: none']) expect(printed.stdout).toContain(line);
    const workspace = await shortener(['stats', '--days', '7', '--tag', 'spring'], apiKey);
    expect([workspace.code, workspace.stdout.split('\n')[0]]).toEqual([0, 'workspace: 0 clicks and 0 bots in the last 7 days']);

    const svg = path.join(work, `${shortCode}.svg`);
    const qr = await shortener(['qr', shortCode, '--out', svg], apiKey);
    expect(qr.code).toBe(0);
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg /);

    const missing = await shortener(['stats', 'nosuchcode'], apiKey);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('Link not found (404)');
  });

  it('says which setting is missing, with exit code 2', async () => {
    const run = await shortener(['list'], '');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^SHORTENER_API_KEY is not set/);
  });
});

describe('import: issue 16', () => {
  it('makes one refused row that row\'s error only, and a run after the cause is fixed makes exactly the rows that failed', async () => {
    const { apiKey, accountId } = await createApiKey('FREE');
    const lines = ['url,alias,password'];
    for (let index = 0; index < 70; index += 1) {
      // Row 5: a 1.1 MB URL, more than any batch body may carry. Every 10th row: an alias, which FREE does not have.
      if (index === 5) lines.push(`https://example.com/${'a'.repeat(1_100_000)},,`);
      else lines.push(`https://example.com/fix?row=${index},${index % 10 === 0 ? `fix-${index}-${accountId.slice(-8)}` : ''},`);
    }
    const input = path.join(work, 'fixable.csv');
    writeFileSync(input, `${lines.join('\n')}\n`);
    const output = path.join(work, 'fixable-out.csv');

    const first = await shortener(['import', input, '--out', output], apiKey);
    expect(first.code).toBe(0);
    const firstResults = parse(readFileSync(output, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(firstResults[5]?.error).toMatch(/too large/);
    const aliasRows = firstResults.flatMap((row, index) => (index % 10 === 0 ? [row] : []));
    expect(aliasRows.every((row) => row.error && !row.shortUrl)).toBe(true);
    expect(firstResults.filter((row) => row.shortUrl)).toHaveLength(70 - 1 - 7);
    expect(await accountLinkCount(apiKey)).toBe(62);

    await accountDirectory().setPlan(accountId, 'PRO');
    const second = await shortener(['import', input, '--out', output], apiKey);
    expect(second.code).toBe(0);
    const secondResults = parse(readFileSync(output, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(secondResults.filter((row) => row.shortUrl)).toHaveLength(69);
    // The rows made the first time are the same links; the seven alias rows are new; none twice.
    const madeFirst = firstResults.flatMap((row, index) => (row.shortUrl ? [index] : []));
    expect(madeFirst.map((index) => secondResults[index]?.shortUrl)).toEqual(madeFirst.map((index) => firstResults[index]?.shortUrl));
    expect(await accountLinkCount(apiKey)).toBe(69);
    // A third run makes nothing more.
    await shortener(['import', input, '--out', output], apiKey);
    expect(await accountLinkCount(apiKey)).toBe(69);
  });

  it('writes no passwords, and cells a spreadsheet would run as formulas as text', async () => {
    const { apiKey } = await createApiKey('PRO');
    const input = path.join(work, 'formulas.csv');
    writeFileSync(input, 'url,alias,password,note\nhttps://example.com/f1,,s3cret-pass,"=HYPERLINK(""https://evil.example.com"")"\nhttps://example.com/f2,,,@SUM(1+1)\n=cmd|calc,,,+1\n');
    const run = await shortener(['import', input], apiKey);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('s3cret-pass');
    const rows = parse(run.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0] ?? {})).toEqual(['url', 'alias', 'note', 'shortUrl', 'error']);
    expect(rows.map((row) => row.note)).toEqual(['\'=HYPERLINK("https://evil.example.com")', "'@SUM(1+1)", "'+1"]);
    expect(rows[2]?.url).toBe("'=cmd|calc");
  });
});

describe('output into a closed pipe (issue 16)', () => {
  it.each([
    ['npm run shortener -- list', ['bin/shortener.ts', 'list']],
    ['npm run ops -- keys list', ['bin/ops.ts', 'keys', 'list']],
  ])('%s into a reader that has already left ends quietly', async (_name, args) => {
    const { apiKey } = await createApiKey('PRO');
    await http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url: 'https://example.com/pipe' } });
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env: { ...process.env, SHORTENER_API_URL: baseUrl(), SHORTENER_API_KEY: apiKey } });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      // `| head -1` once head has its line: the pipe is closed before the command's (next) write.
      child.stdout.destroy();
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(result.stderr).not.toMatch(/EPIPE|at .+\(.+:\d+:\d+\)/);
    expect(result.code).toBe(0);
  });
});

describe('npm run shortener -- domains', () => {
  it('adds a domain, lists it with the DNS record to create, verifies it, and imports links onto it', async () => {
    const { apiKey } = await createApiKey('PRO');
    const name = `cli${Date.now().toString(36)}.acme-cli.com`;
    const added = await shortener(['domains', 'add', name], apiKey);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(`${name}\tpending`);
    expect(added.stdout).toContain(`create: A ${name} → 127.0.0.1`);
    const challenge = new RegExp(`create: TXT (_shortener-challenge\\.${name.replaceAll('.', '\\.')}) → (shortener-verification=[0-9a-f]{32})`).exec(added.stdout);
    expect(challenge).not.toBeNull();
    expect((await shortener(['domains', 'list', '--json'], apiKey)).stdout).toContain(`"domain": "${name}"`);

    publishDnsRecords({ dnsRecords: [{ type: 'TXT', name: String(challenge?.[1]), value: String(challenge?.[2]) }, { type: 'A', name, value: '127.0.0.1' }] });
    const verified = await shortener(['domains', 'verify', name], apiKey);
    expect([verified.code, verified.stdout.trim()]).toEqual([0, `${name}\tactive`]);
    expect((await shortener(['domains', 'add', name], apiKey)).stderr.trim()).toBe('This domain is already in use (409)');

    const csv = path.join(work, 'on-domain.csv');
    writeFileSync(csv, `url,alias,domain\nhttps://example.com/a,cli-a,${name}\nhttps://example.com/b,cli-b,\nhttps://example.com/c,cli-c,nobody.example.com\n`);
    const imported = await shortener(['import', csv], apiKey);
    const rows = parse(imported.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => [row.shortUrl, row.error])).toEqual([
      [`https://${name}/cli-a`, ''],
      [expect.stringMatching(/^http:\/\/localhost:\d+\/cli-b$/), ''],
      ['', 'domain nobody.example.com is not an active domain of this account'],
    ]);
    const listed = await shortener(['list', '--domain', name], apiKey);
    expect(listed.stdout.trim().split('\n')).toHaveLength(2);
  });
});

describe('npm run shortener -- webhooks', () => {
  it('adds a webhook (its secret printed once), lists it, tests it, shows the attempt, rotates, disables and deletes it', async () => {
    const { apiKey } = await createApiKey('PRO');
    const receiver = new WebhookReceiver(receiverPorts()[1] as number);
    await receiver.start();
    try {
      const added = await shortener(['webhooks', 'add', receiver.url('/cli'), '--events', 'link.created, link.clicked', '--description', 'CLI ✓'], apiKey);
      expect(added.code).toBe(0);
      const [line, secretLine] = added.stdout.trim().split('\n');
      const [id] = (line ?? '').split('\t');
      expect(line).toBe(`${id}\tenabled\t${receiver.url('/cli')}\tlink.created,link.clicked`);
      const secret = /shown once, keep it\): (whsec_\S+)$/.exec(secretLine ?? '')?.[1] as string;
      expect((await shortener(['webhooks', 'list'], apiKey)).stdout).toBe(`${line}\n`);

      expect((await shortener(['webhooks', 'test', id as string], apiKey)).stdout).toMatch(/^queued webhook\.test evt_\S+: see `webhooks deliveries wh_/);
      await eventually(async () => expect(receiver.on('/cli')).toHaveLength(1));
      verify(secret, receiver.on('/cli')[0] as Received);
      await eventually(async () => expect((await shortener(['webhooks', 'deliveries', id as string], apiKey)).stdout).toMatch(/\twebhook\.test\tevt_\S+\t#1\t200\t\d+ ms\n$/));

      expect((await shortener(['webhooks', 'rotate-secret', id as string], apiKey)).stdout).toMatch(/^new signing secret .+: whsec_/);
      expect((await shortener(['webhooks', 'disable', id as string], apiKey)).stdout).toBe(`${id}\tdisabled\t${receiver.url('/cli')}\tlink.created,link.clicked\n`);
      expect((await shortener(['webhooks', 'delete', id as string], apiKey)).stdout).toBe(`${id} deleted\n`);
      const gone = await shortener(['webhooks', 'test', id as string], apiKey);
      expect([gone.code, gone.stderr.trim()]).toEqual([1, 'Webhook not found (404)']);
      expect((await shortener(['webhooks', 'add', 'http://hooks.example.org/', '--events', 'link.created'], apiKey)).stderr.trim()).toBe(`${OwnMessages.webhookUrl} (400)`);
      expect((await shortener(['webhooks', 'add', receiver.url('/x'), '--events', ' ,'], apiKey)).code).toBe(2);
    } finally {
      await receiver.stop();
    }
  });
});
