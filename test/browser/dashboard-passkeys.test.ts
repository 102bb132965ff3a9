/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { dashboardBrowser, providerOrigin, recordPage, signIn, tabTo, workspaceWithOwner } from '../support/dashboard';

/**
 * Issue 29: passkeys. A person registers one on the Security page (the local pool's WebAuthn user API, Chromium's
 * virtual authenticator answering as a platform passkey that verifies its user), signs out, and signs in with the
 * passkey alone on the local sign-in page (no email, no password), landing in the dashboard; then deletes it.
 */
const { open } = dashboardBrowser();

/** Chromium's virtual authenticator in this tab: a platform passkey (internal, resident keys) that verifies its user. */
async function virtualPasskeyDevice(page: Page): Promise<{ credentials: () => Promise<Array<{ isResidentCredential: boolean; signCount: number }>> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials };
}

describe('passkeys on the dashboard', () => {
  it('registers a passkey on the Security page, signs out, signs in with the passkey only, lands in the dashboard, and deletes it', async () => {
    const { owner } = await workspaceWithOwner('PRO');
    const { page } = await open();
    const device = await virtualPasskeyDevice(page);
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByText('No passkeys yet.').waitFor();
    await tabTo(page, 'Add a passkey');
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Passkey added').waitFor();
    const list = page.getByRole('list', { name: 'Your passkeys' });
    await list.getByRole('listitem').first().waitFor();
    expect(await list.getByRole('listitem').count()).toBe(1);
    expect((await device.credentials()).map((credential) => credential.isResidentCredential)).toEqual([true]);
    await recordPage(page, 'security-passkeys');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.origin === providerOrigin());
    await page.getByRole('button', { name: /yes, sign me out/i }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.origin === providerOrigin());
    const passkeyButton = page.getByRole('button', { name: 'Use a passkey' });
    await passkeyButton.waitFor();
    await recordPage(page, 'sign-in-passkey');
    await passkeyButton.click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    // The authenticator signed once more than at registration: this sign-in was its assertion.
    expect((await device.credentials())[0]?.signCount).toBeGreaterThan(0);

    await page.getByRole('link', { name: 'Security' }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await list.getByRole('button', { name: /^Delete / }).click();
    await page.getByText('No passkeys yet.').waitFor();
  }, 180_000);
});
