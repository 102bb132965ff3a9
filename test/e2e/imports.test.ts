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
