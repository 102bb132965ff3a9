import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Messages, OwnMessages } from '../../functions/shared/domain/messages';
import { StackOutputs } from '../../lib/stack-outputs';
import { clearOfWindowEdge, createApiKey, dynamo, eventually, http, jsonHeaders, stackOutput } from '../support/local-stack';
import { ops } from '../support/ops-cli';

const shorten = (apiKey: string) => http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url: 'https://example.com/keys' } });
const listLinks = (apiKey: string) => http('GET', '/v2/links', { headers: jsonHeaders(apiKey) });

async function auditOf(accountId: string) {
  const { Items = [] } = await dynamo().send(
    new QueryCommand({ TableName: stackOutput(StackOutputs.auditTable), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `ws#${accountId}` } }),
  );
  return Items;
}

describe('a key with scopes', () => {
  it('does what its scopes allow and is refused the rest with a 403 naming the missing scope, before any counter moves', async () => {
    await clearOfWindowEdge(60, 10_000);
    const { apiKey } = await createApiKey('PRO', { scopes: ['links:read'] });
    expect((await listLinks(apiKey)).status).toBe(200);
    const refused = await shorten(apiKey);
    expect(refused.status).toBe(403);
    expect(refused.json()).toEqual({ statusCode: 403, message: OwnMessages.scopeMissing('links:write'), error: 'Forbidden', permission: 'links:write' });
    // The refusal spent nothing of the key's minute: the next allowed call sees one call used before it, not two.
    const after = await listLinks(apiKey);
    expect(Number(after.headers['x-ratelimit-limit']) - Number(after.headers['x-ratelimit-remaining'])).toBe(2);
  });

  it('is refused as inactive (the spec\'s 401) once past its expiry', async () => {
    const { apiKey } = await createApiKey('PRO', { expiresAt: new Date(Date.now() - 1000).toISOString() });
    const refused = await listLinks(apiKey);
    expect(refused.status).toBe(401);
    expect(refused.json()).toEqual({ statusCode: 401, message: Messages.apiKeyInvalid, error: 'Unauthorized' });
  });

  it('made before scopes (none stored) keeps every scope', async () => {
    const { apiKey } = await createApiKey('PRO');
    expect((await shorten(apiKey)).status).toBe(201);
  });
});

describe('keys cannot manage keys', () => {
  it.each([
    ['GET', '/v2/keys', undefined, 'keys:manage'],
    ['POST', '/v2/keys', { name: 'minted', scopes: ['links:read'] }, 'keys:create'],
    ['DELETE', '/v2/keys/key_0000000000000000', undefined, 'keys:manage'],
  ] as const)('%s %s with a key holding every scope: 403, %4$s is for people', async (method, path, body, permission) => {
    const { apiKey, accountId } = await createApiKey('ENTERPRISE');
    const refused = await http(method, path, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });
    expect(refused.status).toBe(403);
    expect(refused.json()).toEqual({ statusCode: 403, message: OwnMessages.peopleOnly(permission), error: 'Forbidden', permission });
    expect((await auditOf(accountId)).map((record) => record.action)).toEqual(['key.created']);
  });
});

describe('ops keys create --scopes --expires-at', () => {
  it('makes a scoped, expiring key that works within its scopes, is listed with them, noted when used, and audited as the operator\'s', async () => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const created = await ops('keys', 'create', '--plan', 'PRO', '--label', 'reporting', '--scopes', 'links:read,stats:read', '--expires-at', expiresAt, '--json');
    expect(created.code).toBe(0);
    const { apiKey, keyId, accountId, scopes } = JSON.parse(created.stdout) as { apiKey: string; keyId: string; accountId: string; scopes: string[] };
    expect(scopes).toEqual(['links:read', 'stats:read']);

    expect((await listLinks(apiKey)).status).toBe(200);
    const refused = await shorten(apiKey);
    expect(refused.status).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe('This API key lacks the links:write scope');

    // The authorizer notes the use without holding the answer back for it.
    const line = await eventually(async () => {
      const listed = (await ops('keys', 'list')).stdout.split('\n').find((candidate) => candidate.startsWith(`${keyId}\t`));
      expect(listed).toMatch(/\tlast used \d{4}-\d{2}-\d{2}T/);
      return listed ?? '';
    });
    expect(line).toContain(`\tlinks:read,stats:read\texpires ${expiresAt}\t`);

    const [record] = await auditOf(accountId);
    expect(record).toMatchObject({ action: 'key.created', actor: { kind: 'operator' }, target: { type: 'key', id: keyId } });
    expect(JSON.stringify(record)).not.toContain(apiKey);

    expect((await ops('keys', 'revoke', keyId)).code).toBe(0);
    expect((await auditOf(accountId)).map((item) => item.action)).toEqual(['key.created', 'key.revoked']);
    expect((await listLinks(apiKey)).status).toBe(401);
  });

  it.each([
    [['--scopes', 'links:read,admin'], /--scopes: scopes must be a non-empty list of distinct scopes/],
    [['--scopes', 'links:read,links:read'], /--scopes: scopes must be/],
    [['--scopes', ''], /--scopes: scopes must be/],
    [['--expires-at', '2020-01-01T00:00:00Z'], /--expires-at: expiresAt must be/],
    [['--expires-at', 'next week'], /--expires-at: expiresAt must be/],
  ])('refuses %j with one line and exit 2, making no key', async (args, message) => {
    const before = (await ops('keys', 'list')).stdout.split('\n').length;
    const result = await ops('keys', 'create', '--plan', 'FREE', ...args);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n').find((line) => line.startsWith('ops: '))).toMatch(message);
    expect((await ops('keys', 'list')).stdout.split('\n').length).toBe(before);
  });
});
