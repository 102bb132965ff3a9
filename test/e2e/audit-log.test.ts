import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { issueApiKey } from '../../functions/shared/domain/accounts/api-keys';
import { OwnMessages } from '../../functions/shared/domain/messages';
import { auditPageBody } from '../../functions/shared/http/openapi/response-bodies';
import { StackOutputs } from '../../lib/stack-outputs';
import { accountDirectory, createApiKey, dynamo, eventually, http, jsonHeaders, stackOutput, type HttpResult } from '../support/local-stack';
import { ops } from '../support/ops-cli';
import { receiverPorts } from '../support/webhook-receiver';

/**
 * Issue 29's audit log end to end: a key changes links (single, batch, PATCH, DELETE), a domain and a webhook; an
 * operator takes a link down; the records come back newest first through GET /v2/audit-log, by the key (or the
 * operator), with the request id, filtered and paged, never with a password or a secret, and only to whom may read them.
 */
const run = Date.now().toString(36);
const api = (apiKey: string, method: string, path: string, body?: object) => http(method, path, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });

interface Entry {
  id: string;
  at: string;
  actor: { kind: string; keyId?: string };
  action: string;
  target: { type: string; id: string };
  changes: Record<string, { before?: unknown; after?: unknown }>;
  requestId?: string;
}
const page = (answer: HttpResult) => answer.json<{ records: Entry[]; nextCursor: string | null }>();
const auditLog = (apiKey: string, query = '') => api(apiKey, 'GET', `/v2/audit-log${query}`);

const EXPECTED = ['link.created', 'link.updated', 'link.deleted', 'domain.claimed', 'domain.updated', 'domain.removed', 'webhook.created', 'webhook.updated', 'webhook.secret-rotated', 'webhook.deleted'];

let owner: { apiKey: string; keyId: string; accountId: string };
let code: string;
let takenDown: string;
let webhookSecrets: string[] = [];
let records: Entry[];

/** The setup's calls must succeed: a failure names the call and what it answered. */
async function must(answer: Promise<HttpResult>, status: number, what: string): Promise<HttpResult> {
  const settled = await answer;
  if (settled.status !== status) throw new Error(`${what} answered ${settled.status}: ${settled.text.slice(0, 200)}`);
  return settled;
}

beforeAll(async () => {
  owner = await createApiKey('PRO');
  const created = await must(api(owner.apiKey, 'POST', '/v2/shorten', { url: 'https://example.com/audit', password: 'hunter2-audit' }), 201, 'creating a link');
  code = created.json<{ shortCode: string }>().shortCode;
  await must(api(owner.apiKey, 'PATCH', `/v2/links/${code}`, { url: 'https://example.com/audit-2', password: 'another-secret' }), 200, 'editing it');
  await must(api(owner.apiKey, 'DELETE', `/v2/links/${code}`), 204, 'deleting it');
  const batch = await must(api(owner.apiKey, 'POST', '/v2/shorten/batch', { urls: [{ url: 'https://example.com/b1' }, { url: 'https://example.com/b2' }] }), 200, 'a batch');
  takenDown = (batch.json<{ results: Array<{ shortCode: string }> }>().results[0] as { shortCode: string }).shortCode;
  const takedown = await ops('links', 'disable', takenDown, '--reason', 'audit e2e');
  if (takedown.code !== 0) throw new Error(`ops links disable failed: ${takedown.stderr}`);

  const domain = `audit1.acme-${run}.com`;
  await must(api(owner.apiKey, 'POST', '/v2/domains', { domain }), 201, 'claiming a domain');
  await must(api(owner.apiKey, 'PATCH', `/v2/domains/${domain}`, { rootUrl: 'https://example.com/root' }), 200, 'setting its root URL');
  await must(api(owner.apiKey, 'DELETE', `/v2/domains/${domain}`), 204, 'removing it');

  const hook = await must(api(owner.apiKey, 'POST', '/v2/webhooks', { url: `http://127.0.0.1:${receiverPorts()[0]}/audit-${run}`, events: ['quota.warning'] }), 201, 'adding a webhook');
  const { id, secret } = hook.json<{ id: string; secret: string }>();
  await must(api(owner.apiKey, 'PATCH', `/v2/webhooks/${id}`, { description: 'CRM ✓' }), 200, 'editing it');
  const rotated = await must(api(owner.apiKey, 'POST', `/v2/webhooks/${id}/rotate-secret`), 200, 'rotating its secret');
  webhookSecrets = [secret, rotated.json<{ secret: string }>().secret];
  await must(api(owner.apiKey, 'DELETE', `/v2/webhooks/${id}`), 204, 'deleting it');

  // Links' records come off the table's stream: they appear within moments.
  records = await eventually(async () => {
    const found = page(await must(auditLog(owner.apiKey, '?limit=100'), 200, 'reading the log')).records;
    const actions = found.map((record) => record.action);
    const missing = [...EXPECTED, 'link.disabled'].filter((action) => !actions.includes(action));
    if (missing.length > 0 || actions.filter((action) => action === 'link.created').length !== 3) throw new Error(`not yet: ${missing.join(', ')}`);
    return found;
  }, 30_000);
}, 120_000);

describe('GET /v2/audit-log', () => {
  it('shows every change, newest first, in the documented shape, by the key and with the request id', () => {
    expect(auditPageBody.safeParse({ records, nextCursor: null }).success).toBe(true);
    const times = records.map((record) => record.at);
    expect(times).toEqual([...times].sort().reverse());
    for (const record of records.filter((entry) => entry.actor.kind !== 'operator')) {
      expect(record.actor).toEqual({ kind: 'key', keyId: owner.keyId });
      expect(record.requestId).toEqual(expect.any(String));
    }
    expect(records.find((record) => record.action === 'link.disabled')).toMatchObject({ actor: { kind: 'operator' }, target: { type: 'link', id: takenDown }, changes: { disabled: { after: true } } });
    expect(records.find((record) => record.action === 'link.updated')).toMatchObject({ target: { id: code }, changes: { url: { before: 'https://example.com/audit', after: 'https://example.com/audit-2' }, passwordHash: { after: { changed: true } } } });
    expect(records.find((record) => record.action === 'domain.updated')?.changes).toEqual({ rootUrl: { after: 'https://example.com/root' } });
  });

  it('never holds a password, its hash or a webhook secret', () => {
    const text = JSON.stringify(records);
    for (const secret of ['hunter2-audit', 'another-secret', 'scrypt', 'whsec_', ...webhookSecrets]) expect(text).not.toContain(secret);
  });

  it('filters by action, target, actor and time, and pages with an opaque cursor', async () => {
    expect(page(await auditLog(owner.apiKey, '?action=link.updated')).records.map((record) => record.target.id)).toEqual([code]);
    expect(page(await auditLog(owner.apiKey, `?target=${code}`)).records.map((record) => record.action)).toEqual(['link.deleted', 'link.updated', 'link.created']);
    // The operator made the workspace's key (the keys' own record) and took a link down.
    expect(page(await auditLog(owner.apiKey, '?actor=operator')).records.map((record) => record.action)).toEqual(['link.disabled', 'key.created']);
    expect(page(await auditLog(owner.apiKey, `?actor=${owner.keyId}&limit=100`)).records).toHaveLength(records.length - 2);
    expect(page(await auditLog(owner.apiKey, `?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).records).toEqual([]);
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const answer = page(await auditLog(owner.apiKey, `?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
      seen.push(...answer.records.map((record) => record.id));
      cursor = answer.nextCursor;
    }
    expect(seen).toEqual(records.map((record) => record.id));
  });

  it('refuses a bad filter or a made-up cursor with the spec\'s 400', async () => {
    for (const [query, message] of [
      ['?action=DROP TABLE', OwnMessages.auditActionParameter],
      ['?from=yesterday', OwnMessages.auditTimeParameter('from')],
      ['?cursor=eyJ3cyI6ImFjY3RfZXZpbCJ9', OwnMessages.cursorParameter],
    ] as const) {
      const answer = await auditLog(owner.apiKey, query);
      expect([answer.status, answer.json()]).toEqual([400, { statusCode: 400, timestamp: expect.any(String), path: '/v2/audit-log', method: 'GET', message }]);
    }
  });

  it('shows an operator\'s change of the workspace\'s plan', async () => {
    const workspace = await createApiKey('FREE');
    const changed = await ops('accounts', 'set-plan', workspace.accountId, 'PRO');
    expect(changed.code).toBe(0);
    expect(page(await auditLog(workspace.apiKey, '?action=workspace.updated')).records).toEqual([
      expect.objectContaining({ actor: { kind: 'operator' }, action: 'workspace.updated', target: { type: 'workspace', id: workspace.accountId }, changes: { plan: { before: 'FREE', after: 'PRO' } } }),
    ]);
  });

  it('records a change made after visits used some of a limited link\'s clicks (they drop its stamp), and nothing for the visits', async () => {
    const workspace = await createApiKey('PRO');
    const created = await must(api(workspace.apiKey, 'POST', '/v2/shorten', { url: 'https://example.com/limited', maxClicks: 50 }), 201, 'creating a limited link');
    const limited = created.json<{ shortCode: string }>().shortCode;
    for (let visit = 0; visit < 3; visit++) expect((await http('GET', `/${limited}`)).status).toBe(302);
    await must(api(workspace.apiKey, 'PATCH', `/v2/links/${limited}`, { tags: ['after-clicks'] }), 200, 'editing it');
    const actions = await eventually(async () => {
      const found = page(await must(auditLog(workspace.apiKey, `?target=${limited}`), 200, 'reading the log')).records.map((record) => record.action);
      // A batch's records are put side by side: the edit's may show before the creation's.
      if (!found.includes('link.updated') || !found.includes('link.created')) throw new Error(`not yet: ${found.join(', ')}`);
      return found;
    }, 30_000);
    expect(actions).toEqual(['link.updated', 'link.created']);
    const stats = await must(api(workspace.apiKey, 'GET', `/v2/links/${limited}`), 200, 'reading the link');
    expect(stats.json<{ clicks: number; tags: string[] }>()).toMatchObject({ clicks: 3, tags: ['after-clicks'] });
  });

  it('shows another workspace nothing of this one', async () => {
    const other = await createApiKey('PRO');
    expect(page(await auditLog(other.apiKey, `?target=${code}`)).records).toEqual([]);
  });

  it('is refused to a key without audit:read, naming the scope, and has no way to change a record', async () => {
    const account = await accountDirectory().find(owner.accountId);
    if (!account) throw new Error('the workspace is gone');
    const { apiKey, record } = issueApiKey(account, { nowMs: Date.now(), label: 'links only' });
    await dynamo().send(new PutCommand({ TableName: stackOutput(StackOutputs.apiKeysTable), Item: { ...record, scopes: ['links:read', 'links:write'] } }));
    const refused = await auditLog(apiKey);
    expect([refused.status, refused.json()]).toEqual([403, { statusCode: 403, message: OwnMessages.scopeMissing('audit:read'), error: 'Forbidden', permission: 'audit:read' }]);
    // A key that may read the log still cannot write it: the route takes GET only.
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect((await api(owner.apiKey, method, '/v2/audit-log', {})).status).not.toBe(200);
    expect(page(await auditLog(owner.apiKey, '?limit=100')).records.length).toBeGreaterThanOrEqual(records.length);
  });
});
