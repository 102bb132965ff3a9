import { OwnMessages } from '../../functions/shared/domain/messages';
import { permissionFor, ROUTES } from '../../functions/shared/http/routes';
import { newInvitationToken } from '../../functions/shared/domain/workspaces/invitation';
import { createApiKey, devApiKey, http, jsonHeaders } from '../support/local-stack';

/**
 * Issue 29's people routes through the local stack. They are people's powers: an API key, however many scopes it
 * holds, is refused with 403 naming the power (before any read of the workspace's people or any counting), and
 * a request without credentials gets the spec's 401.
 */
const peopleRoutes = ROUTES.filter((route) => route.target === 'workspace').flatMap((route) =>
  route.methods.map((method) => ({ method, resource: route.path, path: route.path.replace('{userId}', 'sub-someone').replace('{id}', newInvitationToken().token) })),
);

const bodyOf = (method: string, resource: string) =>
  method === 'PATCH' && resource === '/v2/workspace' ? { name: 'Acme' } : method === 'PATCH' ? { role: 'owner' } : resource === '/v2/invitations' && method === 'POST' ? { email: 'zoe@example.com', role: 'owner' } : undefined;

describe('the workspace\'s people through the local stack', () => {
  it('serves nine routes, each refusing an API key with 403 naming the people\'s power it needs', async () => {
    expect(peopleRoutes).toHaveLength(9);
    for (const apiKey of [devApiKey(), (await createApiKey('ENTERPRISE')).apiKey]) {
      for (const { method, resource, path } of peopleRoutes) {
        const body = bodyOf(method, resource);
        const answer = await http(method, path, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });
        const permission = permissionFor(resource, method) as string;
        expect([method, path, answer.status, answer.json()]).toEqual([method, path, 403, { statusCode: 403, message: OwnMessages.peopleOnly(permission), error: 'Forbidden', permission }]);
      }
    }
  });

  it('answers 401 in the spec\'s shape without credentials or with a made-up bearer', async () => {
    for (const { method, path } of peopleRoutes) {
      const anonymous = await http(method, path, { headers: { 'content-type': 'application/json' } });
      expect([method, path, anonymous.status]).toEqual([method, path, 401]);
      const guessed = await http(method, path, { headers: jsonHeaders(`sk_live_${newInvitationToken().token}`) });
      expect([method, path, guessed.status]).toEqual([method, path, 401]);
    }
  });

  it('documents every route in the OpenAPI document, under the Workspace tag', async () => {
    const document = (await http('GET', '/v2/openapi.json')).json<{ paths: Record<string, Record<string, { tags: string[]; operationId: string }>> }>();
    const operations = peopleRoutes.map(({ method, resource }) => document.paths[resource]?.[method.toLowerCase()]);
    expect(operations.map((operation) => operation?.operationId)).toEqual(
      expect.arrayContaining(['getWorkspace', 'renameWorkspace', 'listMembers', 'changeMemberRole', 'removeMember', 'listInvitations', 'invite', 'revokeInvitation', 'acceptInvitation']),
    );
    for (const operation of operations) expect(operation?.tags).toEqual(['Workspace']);
  });
});
