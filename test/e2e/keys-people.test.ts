import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { DynamoMemberStore } from '../../functions/shared/adapters/dynamo-member-store';
import type { Role } from '../../functions/shared/domain/accounts/permissions';
import { Messages, OwnMessages } from '../../functions/shared/domain/messages';
import { WORKSPACE_HEADER } from '../../functions/shared/http/headers';
import { StackOutputs } from '../../lib/stack-outputs';
import { baseUrl, createApiKey, dynamo, http, jsonHeaders, stackOutput, uniqueLoopbackAddress } from '../support/local-stack';
import { createUser, signIn } from '../support/sign-in';

/** People making, listing and revoking their workspace's keys (issue 29), signed in through the local user pool. */
const members = () => new DynamoMemberStore(dynamo(), stackOutput(StackOutputs.membersTable));

async function personIn(role: Role, workspaceId?: string) {
  const workspace = workspaceId ?? (await createApiKey('PRO')).accountId;
  const user = await createUser();
  await members().addMember({ workspaceId: workspace, userId: user.sub, email: user.email, role, joinedAt: new Date().toISOString() });
  const { accessToken } = await signIn(user);
  // Each person's calls from an address of their own: no other test's per-address limits touch them.
  const localAddress = uniqueLoopbackAddress();
  const call = (method: string, route: string, body?: object) =>
    http(method, route, { headers: { ...jsonHeaders(accessToken), [WORKSPACE_HEADER]: workspace }, ...(body ? { body } : {}), localAddress });
  return { workspaceId: workspace, user, accessToken, call };
}

const asKey = (apiKey: string) => (method: string, route: string, body?: object) => http(method, route, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });

async function auditActions(workspaceId: string) {
  const { Items = [] } = await dynamo().send(
    new QueryCommand({ TableName: stackOutput(StackOutputs.auditTable), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `ws#${workspaceId}` } }),
  );
  return Items;
}

describe('keys made by people', () => {
  it('an admin makes a scoped key, sees it listed without its secret, the key works within its scopes only, and revoking it refuses its next request', async () => {
    const admin = await personIn('admin');
    const made = await admin.call('POST', '/v2/keys', { name: 'Relatórios 📈', scopes: ['links:read', 'stats:read'], expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    expect(made.status).toBe(201);
    const key = made.json<{ id: string; secret: string; createdBy: unknown }>();
    expect(key.createdBy).toEqual({ kind: 'user', userId: admin.user.sub, email: admin.user.email });

    const listed = await admin.call('GET', '/v2/keys');
    expect(listed.status).toBe(200);
    expect(listed.json<{ keys: Array<{ id: string; name: string }> }>().keys.map(({ id, name }) => ({ id, name }))).toContainEqual({ id: key.id, name: 'Relatórios 📈' });
    expect(listed.text).not.toContain(key.secret);

    const byKey = asKey(key.secret);
    expect((await byKey('GET', '/v2/links')).status).toBe(200);
    const refused = await byKey('POST', '/v2/domains', { domain: 'go.example.com' });
    expect(refused.status).toBe(403);
    expect(refused.json()).toEqual({ statusCode: 403, message: OwnMessages.scopeMissing('domains:write'), error: 'Forbidden', permission: 'domains:write' });
    // The key cannot go on to mint one with more.
    expect((await byKey('POST', '/v2/keys', { name: 'more', scopes: ['domains:write'] })).status).toBe(403);

    expect((await admin.call('DELETE', `/v2/keys/${key.id}`)).status).toBe(204);
    expect((await byKey('GET', '/v2/links')).json()).toEqual({ statusCode: 401, message: Messages.apiKeyInvalid, error: 'Unauthorized' });
    const records = await auditActions(admin.workspaceId);
    expect(records.filter((record) => record.target.id === key.id).map((record) => [record.action, record.actor.kind, record.actor.email])).toEqual([
      ['key.created', 'user', admin.user.email],
      ['key.revoked', 'user', admin.user.email],
    ]);
    expect(JSON.stringify(records)).not.toContain(key.secret);
  });

  it('a member makes keys within their role only: domains:write is refused naming that scope, and nothing is written', async () => {
    const member = await personIn('member');
    const refused = await member.call('POST', '/v2/keys', { name: 'too much', scopes: ['links:write', 'domains:write'] });
    expect(refused.status).toBe(403);
    expect(refused.json()).toEqual({ statusCode: 403, message: OwnMessages.roleForbids('member', 'domains:write'), error: 'Forbidden', permission: 'domains:write' });
    expect((await auditActions(member.workspaceId)).map((record) => record.action)).toEqual(['key.created']);

    const made = await member.call('POST', '/v2/keys', { name: 'my script', scopes: ['links:write'] });
    expect(made.status).toBe(201);
    expect((await asKey(made.json<{ secret: string }>().secret)('POST', '/v2/shorten', { url: 'https://example.com/member-key' })).status).toBe(201);
    // Listing and revoking every key is the admins'.
    expect((await member.call('GET', '/v2/keys')).json()).toMatchObject({ permission: 'keys:manage', message: OwnMessages.roleForbids('member', 'keys:manage') });
  });

  it('a viewer makes no keys; an admin cannot revoke another workspace\'s key (404 Key not found, the key still works)', async () => {
    const viewer = await personIn('viewer');
    expect((await viewer.call('POST', '/v2/keys', { name: 'read only', scopes: ['links:read'] })).json()).toMatchObject({ statusCode: 403, permission: 'keys:create' });

    const other = await createApiKey('PRO');
    const admin = await personIn('admin');
    const attempt = await admin.call('DELETE', `/v2/keys/${other.keyId}`);
    expect(attempt.status).toBe(404);
    expect(attempt.json()).toEqual({ statusCode: 404, message: 'Key not found', error: 'Not Found' });
    expect((await asKey(other.apiKey)('GET', '/v2/links')).status).toBe(200);
  });

  it('refuses bad requests in the spec\'s 400 shape, naming the field', async () => {
    const owner = await personIn('owner');
    const bad = await owner.call('POST', '/v2/keys', { name: 'n', scopes: ['links:read', 'links:read'] });
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ statusCode: 400, path: '/v2/keys', method: 'POST', message: expect.stringContaining('scopes must be') });
    const past = await owner.call('POST', '/v2/keys', { name: 'n', scopes: ['links:read'], expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.json()).toMatchObject({ statusCode: 400, message: expect.stringContaining('expiresAt must be') });
  });
});

describe('keys following their maker', () => {
  /** A workspace with its operator's key, an owner, and a member who made a links:write key and a links:read one. */
  async function memberWithKeys() {
    const { accountId, apiKey: operatorKey } = await createApiKey('PRO');
    const owner = await personIn('owner', accountId);
    const member = await personIn('member', accountId);
    const make = async (scopes: string[]) => (await member.call('POST', '/v2/keys', { name: scopes.join(' '), scopes })).json<{ id: string; secret: string }>();
    const [writer, reader] = [await make(['links:write']), await make(['links:read'])];
    expect((await asKey(writer.secret)('POST', '/v2/shorten', { url: 'https://example.com/before-the-change' })).status).toBe(201);
    return { owner, member, operatorKey, writer, reader };
  }

  it('a removed member\'s keys are refused on their next request (401), each revocation audited; the operator\'s key still works', async () => {
    const { owner, member, operatorKey, writer, reader } = await memberWithKeys();
    expect((await owner.call('DELETE', `/v2/members/${member.user.sub}`)).status).toBe(204);
    const refused = await asKey(writer.secret)('POST', '/v2/shorten', { url: 'https://example.com/after-removal' });
    expect([refused.status, refused.json()]).toEqual([401, { statusCode: 401, message: Messages.apiKeyInvalid, error: 'Unauthorized' }]);
    expect((await asKey(reader.secret)('GET', '/v2/links')).status).toBe(401);
    expect((await asKey(operatorKey)('POST', '/v2/shorten', { url: 'https://example.com/operator-key' })).status).toBe(201);

    const revoked = (await auditActions(owner.workspaceId)).filter((record) => record.action === 'key.revoked');
    expect(revoked.map((record) => record.target.id).sort()).toEqual([writer.id, reader.id].sort());
    for (const record of revoked) expect(record.actor).toMatchObject({ kind: 'user', userId: owner.user.sub });
  });

  it('a member demoted to viewer loses the keys a viewer could not make (401); their links:read key still works', async () => {
    const { owner, member, writer, reader } = await memberWithKeys();
    expect((await owner.call('PATCH', `/v2/members/${member.user.sub}`, { role: 'viewer' })).status).toBe(200);
    expect((await asKey(writer.secret)('POST', '/v2/shorten', { url: 'https://example.com/after-demotion' })).status).toBe(401);
    expect((await asKey(reader.secret)('GET', '/v2/links')).status).toBe(200);
  });
});

describe('shortener keys', () => {
  const run = promisify(execFile);
  const root = path.join(__dirname, '..', '..');
  const shortener = (env: Record<string, string>, ...args: string[]) =>
    run(path.join(root, 'node_modules', '.bin', 'tsx'), ['bin/shortener.ts', ...args], { cwd: root, env: { ...process.env, SHORTENER_API_URL: baseUrl(), ...env } }).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it('creates, lists and revokes with a person\'s token and workspace; with only a key it refuses to start', async () => {
    const owner = await personIn('owner');
    const env = { SHORTENER_TOKEN: owner.accessToken, SHORTENER_WORKSPACE: owner.workspaceId };
    const created = await shortener(env, 'keys', 'create', 'cli key', '--scopes', 'links:read', '--json');
    const key = JSON.parse(created.stdout) as { id: string; secret: string; scopes: string[] };
    expect(key.scopes).toEqual(['links:read']);
    expect((await shortener(env, 'keys', 'list')).stdout).toContain(`${key.id}\tactive\tcli key\tlinks:read\texpires never\t`);
    expect((await shortener(env, 'keys', 'revoke', key.id)).stdout).toBe(`${key.id} revoked: its next request is refused\n`);
    expect((await asKey(key.secret)('GET', '/v2/links')).status).toBe(401);

    const withKeyOnly = await shortener({ SHORTENER_API_KEY: key.secret }, 'keys', 'list');
    expect((withKeyOnly as { code?: number }).code).toBe(2);
    expect(withKeyOnly.stderr).toContain('SHORTENER_TOKEN is not set');
  });
});
