import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { baseUrl, createApiKey, http, jsonHeaders } from '../support/local-stack';
import { BulkMessages, OwnMessages } from '../../functions/shared/domain/messages';

/** Issue 31: `npm run shortener -- bulk` against the local stack, as a user runs it. */
const root = path.join(__dirname, '..', '..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function shortener(args: string[], apiKey: string, stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/shortener.ts', ...args], {
      cwd: root,
      env: { ...process.env, SHORTENER_API_URL: baseUrl(), SHORTENER_API_KEY: apiKey },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

async function shorten(apiKey: string, url: string, tags: string[]): Promise<string> {
  const answer = await http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url, ...(tags.length > 0 ? { tags } : {}) } });
  if (answer.status !== 201) throw new Error(`could not create the link: ${answer.text}`);
  return answer.json<{ shortCode: string }>().shortCode;
}

const view = async (apiKey: string, code: string) => (await http('GET', `/v2/links/${code}`, { headers: jsonHeaders(apiKey) })).json<{ status: string; tags?: string[] }>();

describe('npm run shortener -- bulk', () => {
  it('tags by codes from stdin, untags by a Unicode search, deletes by a tag only with --yes, and says which links did not change', async () => {
    const { apiKey } = await createApiKey('PRO');
    const [a, b, c] = [await shorten(apiKey, 'https://例え.jp/页面/1', ['spring']), await shorten(apiKey, 'https://例え.jp/页面/2', ['spring']), await shorten(apiKey, 'https://例え.jp/页面/3', ['spring'])];
    const kept = await shorten(apiKey, 'https://example.com/keep', []);
    if (!a || !b || !c) throw new Error('three links expected');

    const tagged = await shortener(['bulk', 'add-tags', '--codes', '-', '--tags', 'Launch'], apiKey, `${a}\r\n${b}\n\nnope-ü\n`);
    expect([tagged.code, tagged.stdout, tagged.stderr]).toEqual([1, `nope-ü\t${OwnMessages.linkNotFound}\n`, '2 changed, 1 not changed\n']);
    expect((await view(apiKey, a)).tags).toEqual(['spring', 'launch']);

    const unicodeTag = await shortener(['bulk', 'add-tags', '--codes', c, '--tags', 'café,été'], apiKey);
    expect([unicodeTag.code, unicodeTag.stderr]).toEqual([2, `--tags: ${BulkMessages.tagsInvalid}\n`]);
    expect((await view(apiKey, c)).tags).toEqual(['spring']);

    const untagged = await shortener(['bulk', 'remove-tags', '--search', '页面', '--tags', 'spring'], apiKey);
    expect([untagged.code, untagged.stdout, untagged.stderr]).toEqual([0, '', '3 changed, 0 not changed\n']);
    expect((await view(apiKey, a)).tags).toEqual(['launch']);
    expect((await view(apiKey, c)).tags).toBeUndefined();

    const unconfirmed = await shortener(['bulk', 'delete', '--tag', 'launch'], apiKey);
    expect([unconfirmed.code, unconfirmed.stderr]).toEqual([2, 'delete over a filter deletes every link it picks: check it with `shortener list`, then add --yes\n']);
    expect((await view(apiKey, a)).status).toBe('active');

    const deleted = await shortener(['bulk', 'delete', '--tag', 'launch', '--yes'], apiKey);
    expect([deleted.code, deleted.stdout, deleted.stderr]).toEqual([0, '', '2 changed, 0 not changed\n']);
    expect(await Promise.all([a, b, c, kept].map(async (code) => (await view(apiKey, code)).status))).toEqual(['deleted', 'deleted', 'active', 'active']);
  });
});
