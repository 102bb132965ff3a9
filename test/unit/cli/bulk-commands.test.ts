import { createShortenerClient } from '../../../clients/typescript/src';
import { bulkChange, type BulkDeps, type BulkOptions } from '../../../bin/shortener/bulk-commands';
import { ApiRefusal } from '../../../bin/shortener/commands';
import { UsageError } from '../../../bin/shortener/csv-links';
import { BulkMessages, OwnMessages } from '../../../functions/shared/domain/messages';

/** `shortener bulk` (issue 31): arguments checked before any call, codes 100 a call, a filter followed to its end. */
function recordingClient(...answers: Response[]) {
  const seen: Array<{ method: string; url: URL; body: Record<string, unknown> }> = [];
  const client = createShortenerClient({
    baseUrl: 'https://api.test',
    apiKey: 'shk_test',
    retry: { maxRetries: 0 },
    fetch: async (request) => {
      seen.push({ method: request.method, url: new URL(request.url), body: (await request.json()) as Record<string, unknown> });
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next;
    },
  });
  return { client, seen };
}

const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const results = (codes: readonly unknown[], failing: Record<string, string> = {}) =>
  codes.map((code) => (failing[code as string] ? { code, success: false, error: failing[code as string] } : { code, success: true }));
const NOW = Date.parse('2026-11-26T00:00:00Z');

type Client = ReturnType<typeof recordingClient>['client'];

/** `connect` makes the client (a sign-in may be renewed there): by default the recording one. */
async function run(client: Client, action: string, options: BulkOptions, stdin = '', connect = async () => client) {
  const out: string[] = [];
  const err: string[] = [];
  const deps: BulkDeps = { readStdin: async () => stdin, now: () => NOW };
  const outcome = await bulkChange(connect, action, options, { out: (text) => void out.push(text), err: (text) => void err.push(text) }, deps).then(
    () => undefined,
    (error: unknown) => error,
  );
  return { outcome, out: out.join(''), err };
}

describe('shortener bulk: arguments', () => {
  it.each<[string, string, BulkOptions, string]>([
    ['an unknown action', 'archive', { codes: 'a' }, 'the action must be one of delete, add-tags, remove-tags, update'],
    ['no links named', 'delete', {}, 'say which links: --codes a,b,c (or --codes - to read them from stdin) or a filter (--tag, --search, --status, --domain)'],
    ['codes and a filter', 'delete', { codes: 'a', tag: 'q3' }, 'give either --codes or a filter (--tag, --search, --status, --domain), not both'],
    ['a delete over a filter without --yes', 'delete', { domain: 'go.example.com' }, 'delete over a filter deletes every link it picks: check it with `shortener list`, then add --yes'],
    ['a tag outside A-Z a-z 0-9 - _', 'add-tags', { codes: 'a', tags: 'launch,café' }, `--tags: ${BulkMessages.tagsInvalid}`],
    ['eleven tags', 'remove-tags', { codes: 'a', tags: Array.from({ length: 11 }, (_, index) => `t${index}`).join(',') }, `--tags: ${BulkMessages.tagsInvalid}`],
    ['no tags for a tag action', 'add-tags', { codes: 'a' }, `--tags: ${BulkMessages.tagsInvalid}`],
    ['a Unicode filter tag', 'remove-tags', { tag: 'été', tags: 'x' }, `--tag: ${OwnMessages.tagParameter}`],
    ['an unknown status', 'add-tags', { status: 'archived', tags: 'x' }, '--status must be one of active, expired, used-up, disabled, deleted'],
    ['--tags with delete', 'delete', { codes: 'a', tags: 'x' }, '--tags goes with add-tags or remove-tags'],
    ['--url with a tag action', 'add-tags', { codes: 'a', tags: 'x', url: 'https://example.com/' }, '--url and --expires-at go with update'],
    ['an update of nothing', 'update', { codes: 'a' }, 'update needs --url or --expires-at'],
    ['an expiry without a zone', 'update', { codes: 'a', expiresAt: '2027-01-01T00:00:00' }, '--expires-at must be an ISO 8601 time with a time zone (2027-01-31T18:00:00Z), or none to remove the expiry'],
    ['an expiry in the past', 'update', { codes: 'a', expiresAt: '2026-11-25T00:00:00Z' }, '--expires-at must be at least a minute and at most 10 years from now'],
    ['--codes with commas only', 'delete', { codes: ' , ,' }, '--codes needs at least one code, e.g. --codes abc123,spring'],
    ['--codes - on an empty stdin', 'delete', { codes: '-' }, '--codes -: stdin held no codes (one a line)'],
  ])('refuses %s before any call (exit 2)', async (_case, action, options, message) => {
    const { client, seen } = recordingClient();
    const connect = jest.fn(async () => client);
    const { outcome } = await run(client, action, options, '\n  \n', connect);
    expect(connect).not.toHaveBeenCalled();
    expect(outcome).toEqual(new UsageError(message));
    expect(outcome).toBeInstanceOf(UsageError);
    expect(seen).toHaveLength(0);
  });
});

describe('shortener bulk: codes', () => {
  it('sends stdin\'s codes 100 a call, each once, and prints every link not changed with its reason, then exits 1', async () => {
    const codes = Array.from({ length: 250 }, (_, index) => `c${index}`);
    const stdin = `${codes.slice(0, 120).join('\r\n')}\n\n  c5  \nnope-ü\n${codes.slice(120).join('\n')}\n`;
    const sent = [...codes.slice(0, 120), 'nope-ü', ...codes.slice(120)];
    const { client, seen } = recordingClient(
      answer(200, { results: results(sent.slice(0, 100)) }),
      answer(200, { results: results(sent.slice(100, 200), { 'nope-ü': OwnMessages.linkNotFound, c150: BulkMessages.changedMeanwhile }) }),
      answer(200, { results: results(sent.slice(200)) }),
    );
    const { outcome, out, err } = await run(client, 'add-tags', { codes: '-', tags: 'Launch, q3', domain: 'go.example.com' }, stdin);
    expect(seen.map((request) => request.body.codes)).toEqual([sent.slice(0, 100), sent.slice(100, 200), sent.slice(200)]);
    expect(seen.map((request) => `${request.method} ${request.url.pathname} ${request.url.searchParams.get('domain')}`)).toEqual(Array(3).fill('POST /v2/links/bulk go.example.com'));
    expect(seen[0]?.body).toEqual({ codes: sent.slice(0, 100), action: 'addTags', tags: ['Launch', 'q3'] });
    expect(out).toBe(`nope-ü\t${OwnMessages.linkNotFound}\nc150\t${BulkMessages.changedMeanwhile}\n`);
    expect(err).toEqual(['100 links so far (0 not changed), going on\n', '200 links so far (2 not changed), going on\n']);
    expect(outcome).toEqual(new ApiRefusal('249 changed, 2 not changed'));
    expect(outcome).toBeInstanceOf(ApiRefusal);
  });

  it('updates the destination and the expiry as seconds from now, and says all changed with exit 0', async () => {
    const { client, seen } = recordingClient(answer(200, { results: results(['a', 'b']) }));
    const { outcome, out, err } = await run(client, 'update', { codes: 'a, b,a', url: 'https://bücher.example/küche', expiresAt: '2026-11-26T01:00:00+00:00' });
    expect(seen[0]?.body).toEqual({ codes: ['a', 'b'], action: 'update', changes: { url: 'https://bücher.example/küche', expiresIn: 3600 } });
    expect(seen[0]?.url.searchParams.has('domain')).toBe(false);
    expect([outcome, out, err]).toEqual([undefined, '', ['2 changed, 0 not changed\n']]);
  });

  it('removes the expiry with --expires-at none', async () => {
    const { client, seen } = recordingClient(answer(200, { results: results(['a']) }));
    await run(client, 'update', { codes: 'a', expiresAt: 'none' });
    expect(seen[0]?.body).toEqual({ codes: ['a'], action: 'update', changes: { expiresIn: null } });
  });

  it('stops at a refusal of a whole call, with the count so far and the API\'s words (exit 1)', async () => {
    const codes = Array.from({ length: 150 }, (_, index) => `c${index}`).join(',');
    const message = 'Rate limit exceeded';
    const { client, seen } = recordingClient(answer(200, { results: results(codes.split(',').slice(0, 100)) }), answer(429, { statusCode: 429, message }));
    const { outcome, err } = await run(client, 'delete', { codes });
    expect(seen).toHaveLength(2);
    expect(err.at(-1)).toBe('100 changed, 0 not changed before the API refused:\n');
    expect(outcome).toEqual(new ApiRefusal(`${message} (429)`));
    expect(outcome).toBeInstanceOf(ApiRefusal);
  });
});

describe('shortener bulk: a filter', () => {
  it('follows the cursor with the same filter until the API says done, counting on stderr', async () => {
    const { client, seen } = recordingClient(
      answer(200, { results: [{ code: 'a', domain: 'go.example.com', success: true }, { code: 'b', success: false, error: OwnMessages.linkGone }], cursor: 'cur1' }),
      answer(200, { results: results(['c']) }),
    );
    const filter = { tag: 'Q3', search: 'küche', domain: 'go.example.com', status: 'active' };
    const { outcome, out, err } = await run(client, 'remove-tags', { ...filter, tags: 'q3' });
    expect(seen.map((request) => request.body)).toEqual([
      { filter, action: 'removeTags', tags: ['q3'] },
      { filter, cursor: 'cur1', action: 'removeTags', tags: ['q3'] },
    ]);
    expect(seen.every((request) => !request.url.searchParams.has('domain'))).toBe(true);
    expect(out).toBe(`b\t${OwnMessages.linkGone}\n`);
    expect(err).toEqual(['2 links so far (1 not changed), going on\n']);
    expect(outcome).toEqual(new ApiRefusal('2 changed, 1 not changed'));
    expect(outcome).toBeInstanceOf(ApiRefusal);
  });

  it('deletes over a filter with --yes, naming a custom domain\'s link with its domain', async () => {
    const { client, seen } = recordingClient(answer(200, { results: [{ code: 'a', domain: 'go.example.com', success: false, error: OwnMessages.linkDisabled }] }));
    const { out } = await run(client, 'delete', { status: 'active', yes: true });
    expect(seen[0]?.body).toEqual({ filter: { status: 'active' }, action: 'delete' });
    expect(out).toBe(`go.example.com/a\t${OwnMessages.linkDisabled}\n`);
  });
});
