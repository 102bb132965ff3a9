/// <reference lib="dom" />
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { OwnMessages } from '../../functions/shared/domain/messages';
import { dashboardBrowser, memberOf, providerOrigin, recordPage, signIn, tabTo, workspaceWithOwner } from '../support/dashboard';
import { publishDnsRecords } from '../support/local-dns';
import { enrollTotp, signIn as signInOverHttp, type Credentials } from '../support/sign-in';

/**
 * Issue 29: the Security page. An owner who signs in with an authenticator app's code requires MFA of the workspace
 * (keyboard only); a member without MFA is refused with words saying what to do, a member with it is let in. An
 * ENTERPRISE owner connects, verifies and disconnects an email domain for single sign-on. Each page is checked with
 * axe and photographed.
 */
const { open } = dashboardBrowser();

/** An authenticator app's current code for `secret` (RFC 6238, as Cognito's software tokens). */
const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

/** A person who turned on an authenticator app (through the pool's API with their own token, as an app does). */
async function withAuthenticator<T extends Credentials>(person: T): Promise<T & { totpSecret: string }> {
  const { accessToken } = await signInOverHttp(person);
  return { ...person, totpSecret: await enrollTotp(accessToken) };
}

/** Signing in on the provider's pages with the keyboard: email, password, then the authenticator's code. */
async function signInWithCode(page: Page, person: Credentials & { totpSecret: string }): Promise<void> {
  await tabTo(page, 'Sign in');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.origin === providerOrigin());
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.keyboard.press('Enter');
  await page.getByLabel('Code').waitFor();
  await recordPage(page, 'sign-in-code');
  await page.getByLabel('Code').fill(codeOf(person.totpSecret));
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
}

describe('the Security page: MFA required by the workspace', () => {
  it('an owner signed in with their code requires it with the keyboard; a member without MFA is refused saying what to do, one with it is let in', async () => {
    const { accountId, owner } = await workspaceWithOwner('PRO');
    const ownerWithCode = await withAuthenticator(owner);
    const ownerTab = await open();
    await signInWithCode(ownerTab.page, ownerWithCode);
    await tabTo(ownerTab.page, 'Security');
    await ownerTab.page.keyboard.press('Enter');
    await ownerTab.page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
    await ownerTab.page.getByTestId('mfa-status').getByText('not required').waitFor();
    await tabTo(ownerTab.page, 'Require MFA of everyone in this workspace');
    await ownerTab.page.keyboard.press('Space');
    await tabTo(ownerTab.page, 'Save MFA setting');
    await ownerTab.page.keyboard.press('Enter');
    await ownerTab.page.getByRole('status').getByText('Saved: MFA is now required.').waitFor();
    await ownerTab.page.getByTestId('mfa-status').getByText('required').waitFor();
    await recordPage(ownerTab.page, 'security');

    // A member who never turned on an authenticator app: every page of the workspace says what to do.
    const member = await memberOf(accountId, 'member');
    const memberTab = await open();
    await signIn(memberTab.page, member);
    await memberTab.page.getByRole('alert').getByText(OwnMessages.mfaRequired).waitFor();
    await memberTab.page.getByRole('link', { name: 'Security' }).click();
    await memberTab.page.getByRole('alert').getByText(OwnMessages.mfaRequired).waitFor();
    await recordPage(memberTab.page, 'security-mfa-refused');

    // They turn on an authenticator app on this very page (with the keyboard), then sign in again with its code: in,
    // reading the rule and unable to change it.
    await tabTo(memberTab.page, 'Set up an authenticator app');
    await memberTab.page.keyboard.press('Enter');
    const totpSecret = (await memberTab.page.getByTestId('totp-secret').textContent()) ?? '';
    await recordPage(memberTab.page, 'security-authenticator');
    await tabTo(memberTab.page, 'Code the app shows');
    await memberTab.page.keyboard.type('000000');
    await memberTab.page.keyboard.press('Enter');
    await memberTab.page.getByRole('alert').getByText('That code does not match').waitFor();
    await memberTab.page.getByLabel('Code the app shows').fill(codeOf(totpSecret));
    await memberTab.page.keyboard.press('Enter');
    await memberTab.page.getByRole('status').getByText('Your authenticator app is on.').waitFor();
    const memberWithCode = { ...member, totpSecret };
    const secondTab = await open();
    await signInWithCode(secondTab.page, memberWithCode);
    expect(await secondTab.page.getByRole('alert').count()).toBe(0);
    await secondTab.page.getByRole('link', { name: 'Security' }).click();
    await secondTab.page.getByTestId('mfa-status').getByText('required').waitFor();
    expect(await secondTab.page.getByRole('checkbox', { name: 'Require MFA of everyone in this workspace' }).count()).toBe(0);
    await secondTab.page.getByText('Only the workspace\'s owners change this.').waitFor();
    await secondTab.page.getByText('You signed in with your authenticator app\'s code.').waitFor();
  }, 180_000);

  it('an owner signed in without MFA cannot require it: the page says why and nothing changes', async () => {
    const { owner } = await workspaceWithOwner('PRO');
    const { page } = await open();
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('checkbox', { name: 'Require MFA of everyone in this workspace' }).check();
    await page.getByRole('button', { name: 'Save MFA setting' }).click();
    await page.getByRole('alert').getByText(OwnMessages.mfaBeforeRequiring).waitFor();
    await page.getByTestId('mfa-status').getByText('not required').waitFor();
    // Not ENTERPRISE: single sign-on is named, not offered.
    await page.getByText('comes with the ENTERPRISE plan').waitFor();
    expect(await page.getByRole('button', { name: 'Connect domain' }).count()).toBe(0);
  }, 120_000);
});

describe('the Security page: single sign-on (ENTERPRISE)', () => {
  it('connects an email domain with the keyboard, shows its TXT record, verifies it once published, and disconnects it; an admin only reads', async () => {
    const { accountId, owner } = await workspaceWithOwner('ENTERPRISE');
    const domain = `sso-${randomBytes(4).toString('hex')}.example`;
    const { page } = await open();
    await signIn(page, owner);
    await tabTo(page, 'Security');
    await page.keyboard.press('Enter');
    await page.getByText('No connected domains yet.').waitFor();
    await tabTo(page, 'Email domain');
    await page.keyboard.type(domain);
    await tabTo(page, 'Protocol');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, 'Metadata URL');
    await page.keyboard.type('https://idp.example/metadata');
    await tabTo(page, 'Connect domain');
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { name: new RegExp(`^${domain.replaceAll('.', '\\.')}`), level: 3 });
    await heading.getByText('pending').waitFor();
    await recordPage(page, 'security-sso');

    // Verifying before the record is published is refused in the API's words; after, the connection is active.
    await tabTo(page, `Verify ${domain}`);
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText(OwnMessages.ssoChallengeMissing).waitFor();
    // The owner publishes the record the page shows, as they would at their DNS provider.
    const [name = '', value = ''] = await page.locator('section.connection code').allTextContents();
    expect(name).toBe(`_shortener-challenge.${domain}`);
    publishDnsRecords({ dnsRecords: [{ type: 'TXT', name, value }] });
    await tabTo(page, `Verify ${domain}`);
    await page.keyboard.press('Enter');
    await heading.getByText('active').waitFor();

    // An admin of the workspace reads the connection, with nothing to press.
    const admin = await memberOf(accountId, 'admin');
    const adminTab = await open();
    await signIn(adminTab.page, admin);
    await adminTab.page.getByRole('link', { name: 'Security' }).click();
    await adminTab.page.getByRole('heading', { name: new RegExp(`^${domain.replaceAll('.', '\\.')}`), level: 3 }).waitFor();
    expect(await adminTab.page.getByRole('button', { name: /^(Connect domain|Verify|Disconnect)/ }).count()).toBe(0);

    page.once('dialog', (dialog) => void dialog.accept());
    await tabTo(page, `Disconnect ${domain}`);
    await page.keyboard.press('Enter');
    await page.getByText('No connected domains yet.').waitFor();
  }, 180_000);
});
