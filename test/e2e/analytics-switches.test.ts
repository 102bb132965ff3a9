import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoMemberStore } from '../../functions/shared/adapters/dynamo-member-store';
import { RECORD_EVERYTHING } from '../../functions/shared/domain/analytics/analytics-switches';
import { SWITCHES_CACHE_MS } from '../../functions/shared/domain/analytics/unrecorded-dimensions';
import { OwnMessages } from '../../functions/shared/domain/messages';
import { WORKSPACE_HEADER } from '../../functions/shared/http/headers';
import { StackOutputs } from '../../lib/stack-outputs';
import { ISO_MS } from '../support/spec-shapes';
import { asCloudFront, createApiKey, dynamo, eventually, http, jsonHeaders, stackOutput } from '../support/local-stack';
import { createUser, signIn } from '../support/sign-in';

/**
 * Issue 30's switches through the local stack: an owner switches the city off with PATCH /v2/workspace, and the
 * visits after it (with CloudFront's city header beside the origin secret) leave no city in the link's or the
 * workspace's stats, while their clicks and every other dimension still count.
 */
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';
type TopValues = { top: Array<{ value: string; clicks: number }>; other: number };
interface Stats {
  total: number;
  countries: Array<{ country: string; clicks: number }>;
  cities: TopValues;
  regions: TopValues;
}

const as = (accessToken: string, workspaceId: string) => ({ ...jsonHeaders(accessToken), [WORKSPACE_HEADER]: workspaceId });
const visit = async (code: string, city: string) =>
  http('GET', `/${code}`, { headers: await asCloudFront({ 'user-agent': CHROME, 'cloudfront-viewer-country': 'FR', 'cloudfront-viewer-country-region': 'IDF', 'cloudfront-viewer-city': city }) });

describe('a workspace\'s analytics switches', () => {
  it('switch the city off for the visits after the change, on the link and the workspace, audited with before and after', async () => {
    const { accountId, apiKey } = await createApiKey('PRO');
    const owner = await createUser();
    await new DynamoMemberStore(dynamo(), stackOutput(StackOutputs.membersTable)).addMember({ workspaceId: accountId, userId: owner.sub, email: owner.email, role: 'owner', joinedAt: new Date().toISOString() });
    const ownerToken = (await signIn(owner)).accessToken;
    const code = (await http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url: 'https://example.com/switched' } })).json<{ shortCode: string }>().shortCode;
    const linkStats = async () => (await http('GET', `/v2/links/${code}/stats?days=1`, { headers: jsonHeaders(apiKey) })).json<Stats>();
    const workspaceStats = async () => (await http('GET', '/v2/stats?days=1', { headers: jsonHeaders(apiKey) })).json<Stats>();

    expect((await visit(code, 'Lyon')).status).toBe(302);
    await eventually(async () => expect((await linkStats()).total).toBe(1), 30_000);

    // Only a person with workspace:write switches; the body is checked first.
    const byKey = await http('PATCH', '/v2/workspace', { headers: jsonHeaders(apiKey), body: { analytics: { city: false } } });
    expect(byKey.status).toBe(403);
    const wrong = await http('PATCH', '/v2/workspace', { headers: as(ownerToken, accountId), body: { analytics: { city: 'no' } } });
    expect([wrong.status, wrong.json()]).toEqual([400, { statusCode: 400, timestamp: expect.stringMatching(ISO_MS), path: '/v2/workspace', method: 'PATCH', message: OwnMessages.analyticsSwitches }]);
    const switched = await http('PATCH', '/v2/workspace', { headers: as(ownerToken, accountId), body: { analytics: { city: false } } });
    expect([switched.status, switched.json<{ analytics: unknown }>().analytics]).toEqual([200, { ...RECORD_EVERYTHING, city: false }]);
    expect((await http('GET', '/v2/workspace', { headers: as(ownerToken, accountId) })).json<{ analytics: unknown }>().analytics).toEqual({ ...RECORD_EVERYTHING, city: false });

    // The aggregator trusts the switches it read for SWITCHES_CACHE_MS: the visits after that record no city.
    await sleep(SWITCHES_CACHE_MS + 500);
    expect((await visit(code, 'Paris')).status).toBe(302);
    expect((await visit(code, '<script>alert(1)</script>')).status).toBe(302);
    const after = await eventually(async () => {
      const body = await linkStats();
      expect(body.total).toBe(3);
      return body;
    }, 30_000);
    expect(after.cities).toEqual({ top: [{ value: 'Lyon', clicks: 1 }], other: 0 });
    expect(after.countries).toEqual([{ country: 'FR', clicks: 3 }]);
    expect(after.regions).toEqual({ top: [{ value: 'FR-IDF', clicks: 3 }], other: 0 });
    const workspace = await eventually(async () => {
      const body = await workspaceStats();
      expect(body.total).toBe(3);
      return body;
    }, 30_000);
    expect(workspace.cities).toEqual({ top: [{ value: 'Lyon', clicks: 1 }], other: 0 });

    const audit = (await http('GET', '/v2/audit-log?action=workspace.updated', { headers: as(ownerToken, accountId) })).json<{ records: unknown[] }>();
    expect(audit.records).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ kind: 'user', userId: owner.sub }), changes: { analytics: { before: RECORD_EVERYTHING, after: { ...RECORD_EVERYTHING, city: false } } } }),
    ]);
  }, 90_000);
});
