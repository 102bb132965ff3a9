import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DynamoMemberStore } from '../../functions/shared/adapters/dynamo-member-store';
import { OwnMessages } from '../../functions/shared/domain/messages';
import { WORKSPACE_HEADER } from '../../functions/shared/http/headers';
import { permissionFor, ROUTES } from '../../functions/shared/http/routes';
import { newInvitationToken } from '../../functions/shared/domain/workspaces/invitation';
import { StackOutputs } from '../../lib/stack-outputs';
import { createApiKey, devApiKey, dynamo, eventually, http, jsonHeaders, stackOutput } from '../support/local-stack';
import { createUser, signIn } from '../support/sign-in';

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

/** The invitation mail to `email` in the local stack's mailbox (bin/local/ses-standin.ts): its token, off the link. */
async function mailedToken(email: string): Promise<string> {
  return eventually(async () => {
    const mailbox = process.env.LOCAL_MAILBOX_DIR ?? '';
    for (const name of readdirSync(mailbox).sort().reverse()) {
      const message = readFileSync(path.join(mailbox, name), 'utf8');
      const token = message.includes(`\r\nTo: ${email}\r\n`) ? /\/app\/invitations\/([A-Za-z0-9_-]{43})/.exec(message)?.[1] : undefined;
      if (token) return token;
    }
    throw new Error(`no mail to ${email} yet`);
  });
}

/** A new PRO workspace whose owner is a new person, signed in. */
async function ownedWorkspace() {
  const { accountId } = await createApiKey('PRO');
  const owner = await createUser();
  await new DynamoMemberStore(dynamo(), stackOutput(StackOutputs.membersTable)).addMember({ workspaceId: accountId, userId: owner.sub, email: owner.email, role: 'owner', joinedAt: new Date().toISOString() });
  return { workspaceId: accountId, owner, ownerToken: (await signIn(owner)).accessToken };
}

const as = (accessToken: string, workspaceId?: string) => ({ ...jsonHeaders(accessToken), ...(workspaceId ? { [WORKSPACE_HEADER]: workspaceId } : {}) });

describe('people signed in, through the local stack', () => {
  it('invite by mail, accept as the invited email only and once, then manage, remove and refuse on the next request', async () => {
    const { workspaceId, owner, ownerToken } = await ownedWorkspace();
    const guest = await createUser();
    const invited = await http('POST', '/v2/invitations', { headers: as(ownerToken, workspaceId), body: { email: guest.email.toUpperCase(), role: 'member' } });
    expect([invited.status, invited.json()]).toEqual([201, expect.objectContaining({ email: guest.email.toUpperCase(), role: 'member', invitedBy: { userId: owner.sub, email: owner.email } })]);
    expect(JSON.stringify(invited.json())).not.toMatch(/token/i);
    const token = await mailedToken(guest.email.toUpperCase());

    // Someone else signed in, with the real link: refused, and the invitation stays for its recipient.
    const intruder = await createUser();
    const wrong = await http('POST', `/v2/invitations/${token}/accept`, { headers: as((await signIn(intruder)).accessToken) });
    expect([wrong.status, wrong.json()]).toEqual([
      403,
      { statusCode: 403, message: 'This invitation was sent to another email address: sign in as its recipient to accept it', error: 'Forbidden', permission: 'invitations:accept' },
    ]);

    const guestToken = (await signIn(guest)).accessToken;
    const accepted = await http('POST', `/v2/invitations/${token}/accept`, { headers: as(guestToken) });
    expect([accepted.status, accepted.json()]).toEqual([200, { workspaceId, member: { userId: guest.sub, email: guest.email, role: 'member', joinedAt: expect.any(String) } }]);
    const replayed = await http('POST', `/v2/invitations/${token}/accept`, { headers: as(guestToken) });
    expect([replayed.status, replayed.json()]).toEqual([404, { statusCode: 404, message: 'Invitation not found', error: 'Not Found' }]);

    // The new member works in the workspace, within their role: no escalation through a role change.
    expect((await http('GET', '/v2/workspace', { headers: as(guestToken, workspaceId) })).json()).toMatchObject({ id: workspaceId, role: 'member', seats: { used: 2, limit: 10 } });
    const escalation = await http('PATCH', `/v2/members/${guest.sub}`, { headers: as(guestToken, workspaceId), body: { role: 'owner' } });
    expect([escalation.status, escalation.json()]).toEqual([403, expect.objectContaining({ permission: 'members:manage' })]);
    const listed = (await http('GET', '/v2/members', { headers: as(ownerToken, workspaceId) })).json<{ members: Array<{ userId: string; role: string }> }>();
    expect(listed.members.map(({ userId, role }) => ({ userId, role }))).toEqual([
      { userId: owner.sub, role: 'owner' },
      { userId: guest.sub, role: 'member' },
    ]);

    expect((await http('DELETE', `/v2/members/${guest.sub}`, { headers: as(ownerToken, workspaceId) })).status).toBe(204);
    expect((await http('GET', '/v2/members', { headers: as(guestToken, workspaceId) })).status).toBe(401);
  });

  it('stop an admin demoting the owner, keep the last owner (409), and answer 404 for another workspace\'s member', async () => {
    const { workspaceId, owner, ownerToken } = await ownedWorkspace();
    const admin = await createUser();
    await http('POST', '/v2/invitations', { headers: as(ownerToken, workspaceId), body: { email: admin.email, role: 'admin' } });
    const adminToken = (await signIn(admin)).accessToken;
    expect((await http('POST', `/v2/invitations/${await mailedToken(admin.email)}/accept`, { headers: as(adminToken) })).status).toBe(200);

    const demotion = await http('PATCH', `/v2/members/${owner.sub}`, { headers: as(adminToken, workspaceId), body: { role: 'viewer' } });
    expect([demotion.status, demotion.json()]).toEqual([403, { statusCode: 403, message: 'Your role (admin) does not allow owners:manage', error: 'Forbidden', permission: 'owners:manage' }]);
    const leaving = await http('DELETE', `/v2/members/${owner.sub}`, { headers: as(ownerToken, workspaceId) });
    expect([leaving.status, leaving.json()]).toEqual([409, { statusCode: 409, message: 'A workspace must keep at least one owner: make another member an owner first', error: 'Conflict' }]);

    const elsewhere = await ownedWorkspace();
    const foreign = await http('DELETE', `/v2/members/${elsewhere.owner.sub}`, { headers: as(ownerToken, workspaceId) });
    expect([foreign.status, foreign.json()]).toEqual([404, { statusCode: 404, message: 'Member not found', error: 'Not Found' }]);
    const renamed = await http('PATCH', '/v2/workspace', { headers: as(adminToken, workspaceId), body: { name: 'Équipe Zoë' } });
    expect([renamed.status, renamed.json()]).toEqual([200, expect.objectContaining({ name: 'Équipe Zoë', role: 'admin' })]);
  });
});
