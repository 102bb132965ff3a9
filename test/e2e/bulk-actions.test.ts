import { BulkMessages, OwnMessages } from '../../functions/shared/domain/messages';
import { MAX_BULK_CODES } from '../../functions/shared/domain/links/bulk-request';
import { bulkResultBody } from '../../functions/shared/http/openapi/response-bodies';
import { createApiKey, eventually, http, jsonHeaders, type HttpResult } from '../support/local-stack';
import { ISO_MS } from '../support/spec-shapes';
import { receiverPorts, verify, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 31's bulk actions through the local stack: the route, its permission, its 400s, and each link's webhook
 * event and audit record, which follow from each link's own write through the links table's stream.
 */
const run = Date.now().toString(36);
const api = (apiKey: string, method: string, path: string, body?: object) => http(method, path, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });
const bulk = (apiKey: string, body: object) => api(apiKey, 'POST', '/v2/links/bulk', body);
const receiver = new WebhookReceiver(receiverPorts()[0] as number);

beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

async function shorten(apiKey: string, fields: Record<string, unknown>): Promise<string> {
  const answer = await api(apiKey, 'POST', '/v2/shorten', { url: 'https://example.com/bulk', ...fields });
  if (answer.status !== 201) throw new Error(`could not create the link: ${answer.text}`);
  return answer.json<{ shortCode: string }>().shortCode;
}

function expectBadRequest(answer: HttpResult, message: string): void {
  expect([answer.status, answer.json()]).toEqual([400, { statusCode: 400, timestamp: expect.stringMatching(ISO_MS), path: '/v2/links/bulk', method: 'POST', message }]);
}

describe('POST /v2/links/bulk', () => {
  it('tags links one write each, answered in order, each with its webhook event and audit record', async () => {
    const { apiKey } = await createApiKey('PRO');
    const hook = await api(apiKey, 'POST', '/v2/webhooks', { url: receiver.url(`/bulk-${run}`), events: ['link.updated'] });
    const { secret } = hook.json<{ secret: string }>();
    const codes = [await shorten(apiKey, { tags: ['q3'] }), await shorten(apiKey, {}), await shorten(apiKey, {})];
    const answer = await bulk(apiKey, { codes: [codes[2], 'missing1', codes[0], codes[1]], action: 'addTags', tags: ['Launch', 'q3'] });
    expect(answer.status).toBe(200);
    expect(bulkResultBody.parse(answer.json())).toEqual({
      results: [
        { code: codes[2], success: true },
        { code: 'missing1', success: false, error: OwnMessages.linkNotFound },
        { code: codes[0], success: true },
        { code: codes[1], success: true },
      ],
    });
    expect((await api(apiKey, 'GET', `/v2/links/${codes[0]}`)).json()).toMatchObject({ tags: ['q3', 'launch'] });
    const deliveries = await eventually(async () => {
      const received = receiver.on(`/bulk-${run}`);
      expect(received.map((delivery) => (delivery.event.data as { shortCode: string }).shortCode).sort()).toEqual([...codes].sort());
      return received;
    }, 20_000);
    for (const delivery of deliveries) verify(secret, delivery);
    const records = await eventually(async () => {
      const log = (await api(apiKey, 'GET', '/v2/audit-log?action=link.updated')).json<{ records: Array<{ target: { id: string }; requestId?: string }> }>();
      expect(log.records).toHaveLength(3);
      return log.records;
    }, 20_000);
    expect(records.map((record) => record.target.id).sort()).toEqual([...codes].sort());
    expect(new Set(records.map((record) => record.requestId)).size).toBe(1);
  });

  it('deletes what a filter picks and nothing of another workspace, whose codes answer as missing ones', async () => {
    const mine = await createApiKey('PRO');
    const theirs = await createApiKey('PRO');
    const tag = `gone-${run}`;
    const own = [await shorten(mine.apiKey, { tags: [tag] }), await shorten(mine.apiKey, { tags: [tag] }), await shorten(mine.apiKey, { tags: ['stay'] })];
    const foreign = await shorten(theirs.apiKey, { tags: [tag] });
    const filtered = await bulk(mine.apiKey, { filter: { tag }, action: 'delete' });
    expect(filtered.json()).toEqual({ results: [{ code: own[1], success: true }, { code: own[0], success: true }] });
    const probed = await bulk(mine.apiKey, { codes: [foreign, own[2], own[0]], action: 'update', changes: { url: 'https://example.com/mine' } });
    expect(probed.json()).toEqual({
      results: [
        { code: foreign, success: false, error: OwnMessages.linkNotFound },
        { code: own[2], success: true },
        { code: own[0], success: false, error: OwnMessages.linkGone },
      ],
    });
    expect((await api(theirs.apiKey, 'GET', `/v2/links/${foreign}`)).json()).toMatchObject({ status: 'active', url: 'https://example.com/bulk', tags: [tag] });
  });

  it('refuses a request as a whole in the spec\'s 400 shape, and a key without links:write with 403', async () => {
    const { apiKey, accountId } = await createApiKey('PRO');
    expectBadRequest(await bulk(apiKey, { codes: Array.from({ length: MAX_BULK_CODES + 1 }, (_, n) => `c${n}`), action: 'delete' }), BulkMessages.codesInvalid(MAX_BULK_CODES));
    expectBadRequest(await bulk(apiKey, { codes: ['abc1234'], action: 'addTags', tags: ['étiquette'] }), BulkMessages.tagsInvalid);
    expectBadRequest(await bulk(apiKey, { filter: { tag: 'ü' }, action: 'delete' }), OwnMessages.tagParameter);
    expectBadRequest(await bulk(apiKey, { filter: { search: '' }, action: 'delete' }), OwnMessages.searchParameter);
    expectBadRequest(await bulk(apiKey, { codes: ['abc1234'], action: 'update', changes: { alias: 'x' } }), OwnMessages.aliasUnchangeable);
    // A search in any script is a search: no link of this workspace matches, and nothing crashes.
    expect((await bulk(apiKey, { filter: { search: 'ünïcødé 🚀 ' }, action: 'delete' })).json()).toEqual({ results: [] });
    const reader = await createApiKey('PRO', { accountId, scopes: ['links:read'] });
    const refused = await bulk(reader.apiKey, { codes: ['abc1234'], action: 'delete' });
    expect([refused.status, refused.json()]).toEqual([403, expect.objectContaining({ statusCode: 403, error: 'Forbidden', permission: 'links:write' })]);
  });
});
