/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { eventually, http, jsonHeaders } from '../support/local-stack';
import { dashboardBrowser, providerOrigin, recordPage, signIn, tabTo, workspaceWithOwner } from '../support/dashboard';
import type { Credentials } from '../support/sign-in';
import { WebhookReceiver } from '../support/webhook-receiver';
import { forgetManualCheck, publishDnsRecords } from '../support/local-dns';

/**
 * Issue 20: the dashboard's domains, webhooks and usage pages, and every journey once with the keyboard alone, in
 * headless Chromium against the local stack. As in dashboard-links.test.ts, each test fails on a request to any other
 * host, a CSP refusal or a script error.
 */
const { open } = dashboardBrowser();

const api = (apiKey: string, method: string, path: string, body?: object) => http(method, path, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });

/** Signs in with the keyboard alone: the dashboard's button, then the provider's form (Tab, type, Enter). */
async function signInByKeyboard(page: Page, person: Credentials, password = person.password): Promise<void> {
  await tabTo(page, 'Sign in');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.origin === providerOrigin());
  await page.getByLabel('Email').waitFor();
  await tabTo(page, 'Email');
  await page.keyboard.type(person.email);
  await tabTo(page, 'Password');
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
}

describe('the domains page', () => {
  it('adds a domain, shows its DNS records and why it is pending, checks it, makes it the default, sets its addresses and deletes it', async () => {
    const { apiKey, owner } = await workspaceWithOwner('PRO');
    const name = `links.board-${Date.now().toString(36)}.com`;
    const { page } = await open();
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Domains' }).click();
    await page.getByText('No domains yet.').waitFor();

    // A name the API refuses: its words, and the name stays in the field.
    await page.getByLabel('Domain', { exact: true }).fill('localhost');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/^domain must be a public host name/);
    await expect(page.getByLabel('Domain', { exact: true }).inputValue()).resolves.toBe('localhost');

    await page.getByLabel('Domain', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Add domain' }).click();
    const panel = page.getByRole('article', { name: new RegExp(name.replaceAll('.', '\\.')) });
    await panel.getByText('pending').waitFor();
    const listed = (await api(apiKey, 'GET', `/v2/domains/${name}`)).json<{ dnsRecords: Array<{ type: string; name: string; value: string }>; statusReason: string | null }>();
    for (const record of listed.dnsRecords) {
      await panel.getByRole('cell', { name: new RegExp(`^${record.value.replaceAll('.', '\\.')}`) }).waitFor();
      await panel.getByRole('button', { name: `Copy the value ${record.value}` }).waitFor();
    }
    // Checked before its records are published: still pending, and the page says why in the API's words.
    await panel.getByRole('button', { name: 'Check DNS now' }).click();
    await eventually(async () => {
      const { status, statusReason } = (await api(apiKey, 'GET', `/v2/domains/${name}`)).json<{ status: string; statusReason: string | null }>();
      expect([status, statusReason]).toEqual(['pending', expect.stringContaining('TXT')]);
      await panel.getByText(statusReason as string, { exact: true }).waitFor({ timeout: 1_000 });
    });
    await recordPage(page, 'domains-pending');

    // Once its records are published, "Check DNS now" makes it active (a minute after the last check on request).
    publishDnsRecords(listed);
    await forgetManualCheck(name);
    await panel.getByRole('button', { name: 'Check DNS now' }).click();
    await panel.getByText('active').waitFor({ timeout: 10_000 });
    await panel.getByRole('button', { name: 'Make default' }).click();
    await panel.getByText('default', { exact: true }).waitFor();
    expect((await api(apiKey, 'GET', `/v2/domains/${name}`)).json()).toMatchObject({ status: 'active', isDefault: true });

    // Where visitors go when no link covers them: a refusal in words, then saved; emptied, removed.
    await panel.getByLabel('Visitors to an unknown code go to').fill('not an address');
    await panel.getByRole('button', { name: 'Save addresses' }).click();
    await panel.getByRole('alert').waitFor();
    await expect(panel.getByLabel('Visitors to an unknown code go to').inputValue()).resolves.toBe('not an address');
    await panel.getByLabel('Visitors to an unknown code go to').fill('https://example.com/missing');
    await panel.getByLabel('Visitors to the domain itself go to').fill('https://example.com/home');
    await panel.getByRole('button', { name: 'Save addresses' }).click();
    await panel.getByText('Saved.').waitFor();
    expect((await api(apiKey, 'GET', `/v2/domains/${name}`)).json()).toMatchObject({ rootUrl: 'https://example.com/home', notFoundUrl: 'https://example.com/missing', expiredUrl: null });
    await panel.getByLabel('Visitors to the domain itself go to').fill('');
    await panel.getByRole('button', { name: 'Save addresses' }).click();
    await eventually(async () => expect((await api(apiKey, 'GET', `/v2/domains/${name}`)).json()).toMatchObject({ rootUrl: null, notFoundUrl: 'https://example.com/missing' }));
    await recordPage(page, 'domains-active');

    page.once('dialog', (dialog) => void dialog.accept());
    await panel.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByText('No domains yet.').waitFor();
    expect((await api(apiKey, 'GET', `/v2/domains/${name}`)).status).toBe(404);
  }, 90_000);
});

describe('the webhooks page', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = new WebhookReceiver(Number(String(process.env.WEBHOOK_RECEIVER_PORTS).split(',')[0]));
    await receiver.start();
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  it('adds a webhook showing its secret once, sends a test, rotates the secret, pages its deliveries, disables, enables and deletes it', async () => {
    const { apiKey, owner } = await workspaceWithOwner('PRO');
    const path = `/dashboard-${Date.now().toString(36)}`;
    const { page } = await open();
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No webhooks yet.').waitFor();

    // An address the API refuses: its words (the browser's own check does not stand in for them).
    await page.getByLabel('Endpoint URL (https)').fill('not an address');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Endpoint URL (https)').fill(receiver.url(path));
    await page.getByLabel('Description (optional)').fill('Orders système');
    await page.getByLabel('link.clicked').check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = page.getByTestId('webhook-secret');
    const secretShown = secret.textContent();
    await expect(secretShown).resolves.toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Copy the signing secret' }).waitFor();
    await recordPage(page, 'webhooks-secret');
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await secret.waitFor({ state: 'detached' });

    const panel = page.getByRole('article', { name: /Orders système/ });
    await panel.getByText('Events: link.created, link.clicked').waitFor();
    await panel.getByRole('button', { name: 'Send a test event' }).click();
    await panel.getByText('Test event sent.').waitFor();
    await eventually(async () => expect(receiver.on(path).map((delivery) => delivery.event.type)).toEqual(['webhook.test']), 30_000);
    await eventually(async () => {
      await panel.getByRole('button', { name: 'Recent deliveries' }).click();
      await panel.getByRole('cell', { name: 'webhook.test' }).waitFor({ timeout: 1_000 });
    }, 15_000);
    await panel.getByRole('cell', { name: /^HTTP 200/ }).waitFor();
    await recordPage(page, 'webhooks');

    // Rotation shows the new secret once; deliveries are then signed with both (the receiver's checks).
    const first = await secretShown;
    await panel.getByRole('button', { name: 'Rotate the secret' }).click();
    const rotated = await panel.getByTestId('webhook-secret').textContent();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(first);
    await panel.getByRole('button', { name: 'Send a test event' }).click();
    await eventually(async () => expect(receiver.on(path)).toHaveLength(2), 30_000);
    expect(receiver.on(path)[1]?.signature.split(' ')).toHaveLength(2);
    await panel.getByRole('button', { name: 'I have saved it' }).click();
    await panel.getByTestId('webhook-secret').waitFor({ state: 'detached' });

    // Deliveries ten at a time, newest first; Older deliveries adds the ones before.
    for (let sent = 0; sent < 9; sent += 1) {
      await panel.getByRole('button', { name: 'Send a test event' }).click();
      await panel.getByText('Test event sent.').waitFor();
    }
    await eventually(async () => expect(receiver.on(path)).toHaveLength(11), 30_000);
    const deliveryRows = panel.locator('table tbody tr');
    await eventually(async () => {
      await panel.getByRole('button', { name: 'Recent deliveries' }).click();
      await page.waitForFunction(() => document.querySelectorAll('article table tbody tr').length === 10, undefined, { timeout: 1_000 });
    }, 15_000);
    await panel.getByRole('button', { name: 'Older deliveries' }).click();
    await page.waitForFunction(() => document.querySelectorAll('article table tbody tr').length === 11);
    await expect(deliveryRows.count()).resolves.toBe(11);
    await panel.getByRole('button', { name: 'Older deliveries' }).waitFor({ state: 'detached' });

    await panel.getByRole('button', { name: 'Disable' }).click();
    await panel.getByText('disabled', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Enable' }).click();
    await panel.getByText('enabled', { exact: true }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await panel.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No webhooks yet.').waitFor();
    expect((await api(apiKey, 'GET', '/v2/webhooks')).json()).toEqual({ webhooks: [] });
  }, 90_000);

  it('shows a FREE account the plan refusal in words with the upgrade link, which the usage page then offers', async () => {
    const { apiKey, owner } = await workspaceWithOwner('FREE', { monthlyLimit: 100 });
    for (let call = 0; call < 3; call += 1) expect((await api(apiKey, 'GET', '/v2/links')).status).toBe(200);
    const { page } = await open();
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const refusal = (await api(apiKey, 'GET', '/v2/webhooks')).json<{ message: string; upgradeUrl: string }>();
    const alert = page.getByRole('alert');
    await expect(alert.locator('p').first().textContent()).resolves.toBe(refusal.message);
    await expect(alert.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).resolves.toBe(refusal.upgradeUrl);

    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByTestId('plan').waitFor();
    const usage = (await api(apiKey, 'GET', '/v2/usage')).json<{ plan: string; used: number; monthlyLimit: number; resetDate: string }>();
    await expect(page.getByTestId('plan').textContent()).resolves.toBe('FREE');
    // The page's own calls count too: the meter shows what the API said when the page asked.
    const shown = Number(await page.getByTestId('used').textContent());
    expect(shown).toBeGreaterThanOrEqual(usage.used - 2);
    expect(shown).toBeLessThanOrEqual(usage.used);
    await expect(page.getByTestId('limit').textContent()).resolves.toBe(String(usage.monthlyLimit));
    await expect(page.locator('meter#quota').evaluate((meter) => [(meter as HTMLMeterElement).value, (meter as HTMLMeterElement).max])).resolves.toEqual([shown, 100]);
    await expect(page.getByTestId('reset').textContent()).resolves.toBe(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${usage.resetDate}T00:00:00Z`)));
    await expect(page.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).resolves.toBe(refusal.upgradeUrl);
    await recordPage(page, 'usage');
  }, 60_000);
});

describe('what the page shows but does not control', () => {
  it('shows markup in a webhook\'s description and in what was typed as text, never as page content', async () => {
    const { apiKey, owner } = await workspaceWithOwner('PRO');
    const markup = '<img src=x onerror="document.title=\'pwned\'">';
    const receiver = new WebhookReceiver(Number(String(process.env.WEBHOOK_RECEIVER_PORTS).split(',')[0]));
    expect((await api(apiKey, 'POST', '/v2/webhooks', { url: receiver.url('/markup'), events: ['link.created'], description: markup })).status).toBe(201);

    const { page } = await open();
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: new RegExp(`^${markup.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).waitFor();
    // Markup typed into a form stays text in the field and in the refusal.
    await page.getByRole('link', { name: 'New link' }).click();
    await page.getByLabel('Destination URL').fill('https://example.com');
    await page.getByLabel('Alias (optional)').fill(markup);
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.getByLabel('Alias (optional)').inputValue()).resolves.toBe(markup);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.title()).toBe('Dashboard · URL shortener');
  });
});

describe('with the keyboard alone', () => {
  it('signs in, creates, opens, edits, shows the QR code, searches, deletes, visits every page and signs out', async () => {
    const { apiKey, owner } = await workspaceWithOwner('PRO');
    const { page } = await open();
    const type = (text: string) => page.keyboard.type(text);

    await signInByKeyboard(page, owner);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

    // Create: the nav link, then the form's fields in order.
    await tabTo(page, 'New link');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New link' }).waitFor();
    await tabTo(page, 'Destination URL');
    await type('https://example.com/keyboard');
    await tabTo(page, 'Tags');
    await type('keys');
    await tabTo(page, 'Add a rule');
    await page.keyboard.press('Enter');
    await tabTo(page, 'Rule 1 destination');
    await type('https://example.com/keyboard/de');
    await tabTo(page, 'Countries (DE, US…)');
    await type('DE');
    await tabTo(page, 'Create link');
    await page.keyboard.press('Enter');
    await page.getByText('Link created.').waitFor();
    const code = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    expect((await api(apiKey, 'GET', `/v2/links/${code}`)).json()).toMatchObject({ url: 'https://example.com/keyboard', tags: ['keys'], rules: [{ url: 'https://example.com/keyboard/de', when: { country: ['DE'] } }] });

    // Edit.
    await tabTo(page, 'Edit');
    await page.keyboard.press('Enter');
    await tabTo(page, 'Destination URL');
    await page.keyboard.press('ControlOrMeta+A');
    await type('https://example.com/keyboard/edited');
    await tabTo(page, 'Save changes');
    await page.keyboard.press('Enter');
    await page.getByText('Changes saved.').waitFor();
    expect((await api(apiKey, 'GET', `/v2/links/${code}`)).json()).toMatchObject({ url: 'https://example.com/keyboard/edited' });

    // The QR code opens and closes (Escape); the stats' window changes with the arrow keys.
    await tabTo(page, 'QR code');
    await page.keyboard.press('Enter');
    await page.getByRole('img', { name: /^QR code for / }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await tabTo(page, 'Window');
    await page.keyboard.press('ArrowDown');
    await page.getByText('clicks in the last 90 days').waitFor();

    // Search from the links page.
    await tabTo(page, 'Links');
    await page.keyboard.press('Enter');
    await tabTo(page, 'Search');
    await type('keyboard/edited');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('table.links tbody tr').length === 1);

    // Delete through the confirmation dialog.
    await tabTo(page, /\/[A-Za-z0-9]+$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: /^http/ }).waitFor();
    await tabTo(page, 'Delete');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    // Focus starts on the safe choice.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
    expect((await api(apiKey, 'GET', `/v2/links/${code}`)).json()).toMatchObject({ status: 'deleted' });

    // Every other page, then out.
    for (const [link, heading] of [['Import CSV', 'Import links from a CSV file'], ['Domains', 'Domains'], ['Webhooks', 'Webhooks'], ['Usage', 'Usage']]) {
      await tabTo(page, link as string);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    }
    await tabTo(page, 'Sign out');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sign out' }).waitFor();
    await tabTo(page, /yes, sign me out/i);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  }, 120_000);

  it('refuses a wrong password, imports a file, saves the QR code, the stats and the results, adds a domain and a webhook', async () => {
    const { apiKey, owner } = await workspaceWithOwner('PRO');
    const link = (await api(apiKey, 'POST', '/v2/shorten', { url: 'https://example.com/keyboard/files' })).json<{ shortCode: string }>();
    const receiver = new WebhookReceiver(Number(String(process.env.WEBHOOK_RECEIVER_PORTS).split(',')[1]));
    await receiver.start();
    try {
      const { page } = await open();
      const type = (text: string) => page.keyboard.type(text);
      const download = async (button: string) => {
        const saved = page.waitForEvent('download');
        await tabTo(page, button);
        await page.keyboard.press('Enter');
        return (await saved).suggestedFilename();
      };

      await signInByKeyboard(page, owner, 'Wrong-password-1!');
      await page.getByRole('alert').getByText('Incorrect username or password.').waitFor();
      await page.getByLabel('Password').waitFor();
      await tabTo(page, 'Password');
      await type(owner.password);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

      // Import: the file input opens the file chooser from the keyboard (Space), as it would for a person.
      await tabTo(page, 'Import CSV');
      await page.keyboard.press('Enter');
      await tabTo(page, 'CSV file');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('csv-file');
      // Space opens the chooser; pressed again if the first press came before the page was ready for it.
      const chooser = await eventually(async () => {
        const opened = page.waitForEvent('filechooser', { timeout: 3_000 });
        await page.keyboard.press('Space');
        return opened;
      });
      await chooser.setFiles({ name: 'keys.csv', mimeType: 'text/csv', buffer: Buffer.from('url,tags\nhttps://example.com/k/1,kb\nhttps://example.com/k/2,kb\n') });
      await tabTo(page, 'Import');
      await page.keyboard.press('Enter');
      await page.getByText('Done: 2 links, 0 failed.').waitFor();
      expect(await download('Download the results')).toBe('keys-results.csv');

      // A link's QR code and stats, saved.
      await page.goto(`${new URL(page.url()).origin}/app/links/${link.shortCode}`);
      await tabTo(page, 'QR code');
      await page.keyboard.press('Enter');
      await page.getByRole('img', { name: /^QR code for / }).waitFor();
      expect(await download('Download PNG')).toBe(`${link.shortCode}-qr.png`);
      await page.keyboard.press('Escape');
      expect(await download('Export CSV')).toBe(`${link.shortCode}-clicks-30d.csv`);

      // A domain and a webhook, each from its form.
      const name = `kb.board-${Date.now().toString(36)}.com`;
      await tabTo(page, 'Domains');
      await page.keyboard.press('Enter');
      await tabTo(page, 'Domain');
      await type(name);
      await page.keyboard.press('Enter');
      await page.getByRole('article', { name: new RegExp(name.replaceAll('.', '\\.')) }).getByText('pending').waitFor();

      await tabTo(page, 'Webhooks');
      await page.keyboard.press('Enter');
      await tabTo(page, 'Endpoint URL (https)');
      await type(receiver.url('/keyboard'));
      await tabTo(page, 'link.deleted');
      await page.keyboard.press('Space');
      await tabTo(page, 'Add webhook');
      await page.keyboard.press('Enter');
      await page.getByTestId('webhook-secret').waitFor();
      await tabTo(page, 'Send a test event');
      await page.keyboard.press('Enter');
      await eventually(async () => expect(receiver.on('/keyboard').map((delivery) => delivery.event.type)).toEqual(['webhook.test']), 30_000);
      expect((await api(apiKey, 'GET', '/v2/webhooks')).json<{ webhooks: Array<{ events: string[] }> }>().webhooks[0]?.events).toEqual(['link.created', 'link.deleted']);
    } finally {
      await receiver.stop();
    }
  }, 120_000);
});
