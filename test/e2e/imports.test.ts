import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { StackOutputs } from '../../lib/stack-outputs';
import { createApiKey, dynamo, eventually, http, jsonHeaders, stackOutput } from '../support/local-stack';

/**
 * Issue 31 end to end: a Shlink export through POST /v2/imports, the chunk queue and the worker, into links with
 * their history; the same file again creates nothing; another workspace cannot see the job.
 */
const api = (apiKey: string, method: string, route: string, body?: object) => http(method, route, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });
const unique = Date.now().toString(36);
/** The Shlink sample with slugs of this run, so the shared domain's codes are free. */
const content = readFileSync(path.join(__dirname, '../fixtures/imports/shlink.csv'), 'utf8').replace('abc12', `abc12${unique}`).replace('legacy', `legacy${unique}`);

async function finished(apiKey: string, id: string) {
  return eventually(async () => {
    const answer = await api(apiKey, 'GET', `/v2/imports/${id}`);
    expect(answer.status).toBe(200);
    const summary = answer.json() as { status: string };
    expect(summary.status).toBe('done');
    return summary as Record<string, unknown>;
  }, 30_000);
}

interface AuditEntry {
  actor: { kind: string; keyId?: string };
  action: string;
  target: { type: string; id: string };
  changes: Record<string, { before?: unknown; after?: unknown }>;
  requestId?: string;
}
const linkCreations = async (apiKey: string) =>
  (await api(apiKey, 'GET', '/v2/audit-log?action=link.created&limit=100')).json<{ records: AuditEntry[] }>().records;

describe('importing a Shlink export', () => {
  let apiKey: string;
  let keyId: string;
  let firstId: string;

  beforeAll(async () => {
    ({ apiKey, keyId } = await createApiKey('PRO'));
  });

  it('answers 202 with the job, which makes the links with their history, renaming what cannot be kept', async () => {
    const started = await api(apiKey, 'POST', '/v2/imports', { source: 'shlink', content, onConflict: 'rename' });
    expect(started.status).toBe(202);
    firstId = (started.json() as { id: string }).id;
    const summary = await finished(apiKey, firstId);
    expect(summary).toMatchObject({ id: firstId, source: 'shlink', status: 'done', read: 4, created: 2, renamed: 1, skipped: 0, failed: 1, existing: 0 });
    const results = summary.results as Array<{ row: number; outcome: string; code?: string; reason?: string }>;
    expect(results.map(({ row, outcome }) => [row, outcome])).toEqual([[2, 'renamed'], [4, 'failed']]);
    expect(results[0]?.reason).toBe(`the slug cannot be kept here: Alias must be between 3 and 50 characters; created as ${results[0]?.code}`);

    const { Item } = await dynamo().send(new GetCommand({ TableName: stackOutput(StackOutputs.linksTable), Key: { code: `abc12${unique}` } }));
    expect(Item).toMatchObject({ url: 'https://example-shop.com/a', title: 'Product A', tags: ['shop', 'product'], createdAt: '2021-05-04T08:00:00.000Z', clicks: 0, importedClicks: 58, importedFrom: { source: 'shlink' } });
    const redirect = await http('GET', `/abc12${unique}`);
    expect([redirect.status, redirect.headers.location]).toEqual([302, 'https://example-shop.com/a']);
  });

  it('shows the clicks before import and where the link came from in its view, the list and its stats, never in total', async () => {
    // The visit of the first test is this service's one click: the 58 before import are shown apart, never added.
    const stats = await eventually(async () => {
      const answer = (await api(apiKey, 'GET', `/v2/links/abc12${unique}/stats?days=7`)).json<{ total: number }>();
      expect(answer.total).toBe(1);
      return answer;
    }, 30_000);
    expect(stats).toMatchObject({ total: 1, importedClicks: 58 });
    const view = await api(apiKey, 'GET', `/v2/links/abc12${unique}`);
    expect(view.json()).toMatchObject({ clicks: 1, importedClicks: 58, importedFrom: { source: 'shlink', sourceId: expect.any(String), importId: firstId } });
    const listed = (await api(apiKey, 'GET', '/v2/links?limit=100')).json<{ links: Array<{ shortCode: string; importedClicks?: number }> }>().links;
    expect(listed.find((link) => link.shortCode === `abc12${unique}`)).toMatchObject({ importedClicks: 58 });
  });

  it('records each link it made as created by the key that started the import, in that request, naming the import', async () => {
    const records = await eventually(async () => {
      const found = await linkCreations(apiKey);
      expect(found).toHaveLength(3);
      return found;
    }, 30_000);
    expect(records.map((record) => record.target.id)).toContain(`abc12${unique}`);
    for (const record of records) {
      expect(record).toMatchObject({ actor: { kind: 'key', keyId }, action: 'link.created', target: { type: 'link' }, requestId: expect.any(String) });
      expect(record.changes.importedFrom?.after).toMatchObject({ source: 'shlink', importId: firstId });
    }
    // One request started them all.
    expect(new Set(records.map((record) => record.requestId)).size).toBe(1);
  });

  it('creates nothing new when the same file is imported again', async () => {
    const again = await api(apiKey, 'POST', '/v2/imports', { source: 'shlink', content, onConflict: 'rename' });
    expect(again.status).toBe(202);
    const summary = await finished(apiKey, (again.json() as { id: string }).id);
    expect(summary).toMatchObject({ read: 4, created: 0, renamed: 0, existing: 3, failed: 1 });
    const listed = await api(apiKey, 'GET', '/v2/imports');
    expect((listed.json() as { imports: Array<{ id: string }> }).imports.map(({ id }) => id)).toContain(firstId);
    // Nothing made, nothing recorded.
    expect(await linkCreations(apiKey)).toHaveLength(3);
  });

  it('refuses a file no parser can read, a source it does not know, and another workspace\'s job', async () => {
    const unreadable = await api(apiKey, 'POST', '/v2/imports', { source: 'kutt', content: '{"data": 3}' });
    expect([unreadable.status, (unreadable.json() as { message: string }).message]).toEqual([400, expect.stringContaining("not kutt's links listing")]);
    const unknown = await api(apiKey, 'POST', '/v2/imports', { source: 'tinyurl', content: 'x' });
    expect([unknown.status, (unknown.json() as { message: string }).message]).toEqual([400, 'source must be one of bitly, rebrandly, shortio, dub, shlink, kutt, yourls, csv']);
    const stranger = (await createApiKey('PRO')).apiKey;
    const peek = await api(stranger, 'GET', `/v2/imports/${firstId}`);
    expect([peek.status, peek.json()]).toEqual([404, { statusCode: 404, message: 'Import not found', error: 'Not Found' }]);
  });
});

describe('POST /v2/imports/preview', () => {
  it('shows the first rows as the import would make them, stores nothing, and refuses what the import refuses', async () => {
    const { apiKey, accountId } = await createApiKey('PRO');
    const preview = await api(apiKey, 'POST', '/v2/imports/preview', { source: 'shlink', content, onConflict: 'rename' });
    expect(preview.status).toBe(200);
    expect(preview.json()).toEqual({
      source: 'shlink',
      read: 4,
      rows: [
        { row: 1, outcome: 'ready', url: 'https://example-shop.com/a', slug: `abc12${unique}`, title: 'Product A', tags: ['shop', 'product'], createdAt: '2021-05-04T08:00:00.000Z', importedClicks: 58, notes: [] },
        expect.objectContaining({ row: 2, outcome: 'ready', notes: [expect.stringContaining('the slug cannot be kept here'), expect.any(String)] }),
        expect.objectContaining({ row: 3, outcome: 'ready' }),
        { row: 4, outcome: 'failed', reason: expect.any(String) },
      ],
    });
    expect((await api(apiKey, 'GET', '/v2/imports')).json()).toEqual({ imports: [] });
    const unreadable = await api(apiKey, 'POST', '/v2/imports/preview', { source: 'kutt', content: '{"data": 3}' });
    expect(unreadable.status).toBe(400);
    // A key that may only read links previews nothing: the preview is the import's first step.
    const reader = (await createApiKey('PRO', { accountId, scopes: ['links:read'] })).apiKey;
    const refused = await api(reader, 'POST', '/v2/imports/preview', { source: 'shlink', content });
    expect([refused.status, refused.json<{ permission: string }>().permission]).toEqual([403, 'links:write']);
  });
});

describe('a worker that crashes midway', () => {
  it('finishes the import with the exact counts and makes no link twice while the stack kills the worker three times (chaos signal)', async () => {
    const { apiKey } = await createApiKey('PRO');
    const stackPid = Number(process.env.LOCAL_STACK_PID);
    expect(stackPid).toBeGreaterThan(0);
    const tag = `c${Date.now().toString(36)}`;
    // Every 10th row without a slug (a generated code), every 25th a destination refused, every 50th from row 7 a slug
    // taken beforehand (renamed under a generated code: a retried chunk must keep it, not make a second one).
    const rows: string[] = [];
    const taken: string[] = [];
    let failed = 0;
    for (let index = 0; index < 1_000; index += 1) {
      const slug = index % 10 === 3 ? '' : `${tag}-${index}`;
      if (index % 25 === 0) failed += 1;
      if (index % 50 === 7) taken.push(slug);
      rows.push(`${index % 25 === 0 ? 'http://127.0.0.1/private' : `https://example.com/crash/${index}`},${slug}`);
    }
    for (const alias of taken) expect((await api(apiKey, 'POST', '/v2/shorten', { url: 'https://example.com/first', alias })).status).toBe(201);

    const started = await api(apiKey, 'POST', '/v2/imports', { source: 'csv', content: `url,alias\n${rows.join('\n')}\n`, onConflict: 'rename' });
    expect(started.status).toBe(202);
    const { id } = started.json<{ id: string }>();
    // A crash each time another ~300 rows are settled: chunks are in the worker (five at once) every time.
    for (const settled of [100, 400, 700]) {
      await eventually(async () => {
        const summary = (await api(apiKey, 'GET', `/v2/imports/${id}`)).json<{ created: number; renamed: number; failed: number; status: string }>();
        expect(summary.status).toBe('running');
        expect(summary.created + summary.renamed).toBeGreaterThanOrEqual(settled);
      }, 60_000);
      process.kill(stackPid, 'SIGUSR2');
    }

    const summary = await eventually(async () => {
      const answer = (await api(apiKey, 'GET', `/v2/imports/${id}`)).json<{ status: string; results: Array<{ outcome: string; code?: string }> } & Record<string, unknown>>();
      expect(answer.status).toBe('done');
      return answer;
    }, 120_000);
    expect(summary).toMatchObject({ read: 1_000, created: 1_000 - failed - taken.length, renamed: taken.length, skipped: 0, failed, existing: 0 });
    const renamedCodes = summary.results.filter((result) => result.outcome === 'renamed').map((result) => result.code);
    expect(new Set(renamedCodes).size).toBe(taken.length);

    // The workspace holds exactly the links the summary says were made, each once, and the ones made beforehand.
    const imported: string[] = [];
    let others = 0;
    let cursor: string | null = null;
    do {
      const answer = await api(apiKey, 'GET', `/v2/links?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      const page = answer.json<{ links: Array<{ shortCode: string; importedFrom?: unknown }>; nextCursor: string | null }>();
      for (const link of page.links) {
        if (link.importedFrom) imported.push(link.shortCode);
        else others += 1;
      }
      cursor = page.nextCursor;
    } while (cursor);
    expect(others).toBe(taken.length);
    expect(imported).toHaveLength(1_000 - failed);
    expect(imported).toEqual(expect.arrayContaining(renamedCodes));
  }, 300_000);
});
