/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { http, jsonHeaders } from '../support/local-stack';
import { createUser } from '../support/sign-in';
import { dashboardBrowser, invitationLink, recordPage, signIn, tabTo, workspaceWithOwner } from '../support/dashboard';

/**
 * Issue 29: people in the dashboard. An owner invites someone, the mail arrives (the local SES stand-in's mailbox),
 * the invited person signs in and accepts, their role limits what the pages offer and what the API allows, and once
 * removed their next request is refused. Keys (the secret shown once) and the audit log. Each new page is checked with
 * axe and photographed; each test fails on a request to a host other than the dashboard's and the provider's.
 */
const { open } = dashboardBrowser();

/** The access token and workspace a signed-in tab sends: the API's answers to that person, outside the page. */
async function asTheTab(page: Page) {
  const { accessToken } = JSON.parse((await page.evaluate(() => sessionStorage.getItem('shortener.tokens'))) ?? '{}') as { accessToken: string };
  return (method: string, path: string, workspaceId: string, body?: object) =>
    http(method, path, { headers: { ...jsonHeaders(), authorization: `Bearer ${accessToken}`, 'shortener-workspace': workspaceId }, ...(body ? { body } : {}) });
}

const navLabels = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').allTextContents();

describe('members: invite, accept, a role\'s limits, removal', () => {
  it('invites by mail, the invited viewer accepts, sees and may do only what a viewer may, and is refused once removed', async () => {
    const { accountId, owner } = await workspaceWithOwner('PRO');
    const invitee = await createUser();

    const ownerTab = await open();
    await signIn(ownerTab.page, owner);
    expect(await navLabels(ownerTab.page)).toEqual(['Overview', 'Links', 'New link', 'Import CSV', 'Domains', 'Webhooks', 'Members', 'API keys', 'Audit log', 'Usage', 'Move links in', 'Settings', 'Security']);
    await ownerTab.page.getByRole('link', { name: 'Members' }).click();
    await ownerTab.page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await ownerTab.page.getByLabel('Email').fill(invitee.email);
    await ownerTab.page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await ownerTab.page.getByRole('button', { name: 'Send invitation' }).click();
    await ownerTab.page.getByText(`Invitation sent to ${invitee.email}.`).waitFor();
    await ownerTab.page.getByRole('button', { name: `Revoke the invitation of ${invitee.email}` }).waitFor();
    await recordPage(ownerTab.page, 'members');

    // The mail's link opens the dashboard's invitation page; signing in comes back to it.
    const link = await invitationLink(invitee.email);
    expect(link.startsWith(`${new URL(ownerTab.page.url()).origin}/app/invitations/`)).toBe(true);
    const inviteeTab = await open();
    await inviteeTab.page.goto(link);
    await signIn(inviteeTab.page, invitee, { name: 'Invitation', level: 1 });
    await recordPage(inviteeTab.page, 'invitation');
    await inviteeTab.page.getByRole('button', { name: 'Accept the invitation' }).click();
    await inviteeTab.page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

    // A viewer reads; no page or control to change anything.
    expect(await navLabels(inviteeTab.page)).toEqual(['Overview', 'Links', 'Domains', 'Webhooks', 'Members', 'Usage', 'Settings', 'Security']);
    await inviteeTab.page.getByRole('link', { name: 'Members' }).click();
    await inviteeTab.page.getByTestId('my-role').getByText('viewer').waitFor();
    expect(await inviteeTab.page.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
    expect(await inviteeTab.page.getByRole('combobox').count()).toBe(0);
    expect(await inviteeTab.page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    await inviteeTab.page.getByRole('link', { name: 'Domains' }).click();
    await inviteeTab.page.getByRole('heading', { name: 'Domains', level: 1 }).waitFor();
    expect(await inviteeTab.page.getByRole('button', { name: 'Add domain' }).count()).toBe(0);
    await inviteeTab.page.goto(`${new URL(link).origin}/app/new`);
    await inviteeTab.page.getByRole('heading', { name: 'Not for your role', level: 1 }).waitFor();
    // And the API refuses anyway, naming what is missing.
    const asViewer = await asTheTab(inviteeTab.page);
    expect((await asViewer('GET', '/v2/links', accountId)).status).toBe(200);
    const refused = await asViewer('POST', '/v2/shorten', accountId, { url: 'https://example.com/viewer' });
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ permission: 'links:write' });
    expect((await asViewer('POST', '/v2/invitations', accountId, { email: 'x@example.com', role: 'owner' })).status).toBe(403);

    // The owner removes them: their very next request is refused, and the tab goes back to signing in.
    await ownerTab.page.reload();
    await ownerTab.page.getByRole('button', { name: `Remove ${invitee.email}` }).click();
    await ownerTab.page.getByRole('button', { name: `Remove ${invitee.email}` }).waitFor({ state: 'detached' });
    expect((await asViewer('GET', '/v2/links', accountId)).status).toBe(401);
    await inviteeTab.page.getByRole('link', { name: 'Usage' }).click();
    await inviteeTab.page.getByRole('alert').getByText('Invalid or inactive API key.').waitFor();
    await inviteeTab.page.getByRole('button', { name: 'Sign in' }).waitFor();
  }, 120_000);
});

describe('API keys and the audit log', () => {
  it('makes a key with the keyboard (scopes, expiry), shows its secret once, revokes it, and the audit log finds both', async () => {
    const { owner } = await workspaceWithOwner('PRO');
    const { page } = await open();
    await signIn(page, owner);
    await tabTo(page, 'API keys');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await tabTo(page, 'Name');
    await page.keyboard.type('Nightly report');
    await tabTo(page, 'stats:read');
    await page.keyboard.press('Space');
    const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Expires on (optional, end of day UTC)').fill(expiry);
    await tabTo(page, 'Make key');
    await page.keyboard.press('Enter');
    const secret = (await page.getByTestId('key-secret').textContent()) ?? '';
    await page.getByRole('button', { name: 'Copy the key' }).waitFor();
    await recordPage(page, 'keys');

    // The key holds exactly the scopes ticked: it reads links, and may not make one.
    expect((await http('GET', '/v2/links', { headers: jsonHeaders(secret) })).status).toBe(200);
    const refused = await http('POST', '/v2/shorten', { headers: jsonHeaders(secret), body: { url: 'https://example.com/report' } });
    expect(refused.json()).toMatchObject({ statusCode: 403, permission: 'links:write' });

    await tabTo(page, 'I have saved it');
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('key-secret').count()).toBe(0);
    const row = page.getByRole('row', { name: /Nightly report/ });
    await expect(row.getByRole('cell').nth(0).textContent()).resolves.toBe('links:read, stats:read');
    // Revoking asks first, its focus on the harmless answer.
    await tabTo(page, 'Revoke Nightly report');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Keep it');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await row.waitFor({ state: 'detached' });
    expect((await http('GET', '/v2/links', { headers: jsonHeaders(secret) })).status).toBe(401);

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    // This person's key, made then revoked (the workspace's first key, made by the operator, is there too).
    const ours = (action: string) => page.getByRole('row').filter({ hasText: action }).filter({ hasText: owner.email });
    await ours('key.revoked').waitFor();
    await ours('key.created').waitFor();
    await recordPage(page, 'audit-log');
    await page.getByLabel('Action (link.updated…)').fill('key.created');
    await page.getByRole('button', { name: 'Filter' }).click();
    await ours('key.revoked').waitFor({ state: 'detached' });
    await expect(ours('key.created').count()).resolves.toBe(1);
    // No record holds the secret (audit-record.ts redacts it by field name).
    expect(await page.locator('main').textContent()).not.toContain(secret);
  }, 120_000);
});
