import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { startDestination } from '../support/destination-server';
import { baseUrl, createApiKey, eventually, http, jsonHeaders } from '../support/local-stack';
import { publishDnsRecords } from '../support/local-dns';

/**
 * Issue 17's flow in a real browser, as a user tries it with one hosts line: a customer's domain that resolves to
 * this machine (Chromium's resolver rule stands in for /etc/hosts, the stack's LOCAL_HOSTS_FILE and
 * LOCAL_DNS_TXT_FILE for the service's check), a password link on it (its form, CSRF cookie and post all on the customer's host) and its root.
 */
const ARTIFACTS = path.join(__dirname, '..', '..', 'test-artifacts', 'screenshots');
const DESTINATION_HOST = 'destination.example.com';
const CUSTOM_DOMAIN = `go.browser-${Date.now().toString(36)}.com`;

let browser: Browser;
let destination: Awaited<ReturnType<typeof startDestination>>;
let destinationPort: number;
let apiKey: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  destination = await startDestination((request) => `<!doctype html><title>Acme</title><h1>Acme ${request.url}</h1>`);
  destinationPort = destination.port;
  browser = await launchChromium([DESTINATION_HOST, CUSTOM_DOMAIN]);

  ({ apiKey } = await createApiKey('PRO'));
  publishDnsRecords((await http('POST', '/v2/domains', { headers: jsonHeaders(apiKey), body: { domain: CUSTOM_DOMAIN } })).json());
  await http('POST', `/v2/domains/${CUSTOM_DOMAIN}/verify`, { headers: jsonHeaders(apiKey) });
  await eventually(async () => {
    const { status } = (await http('GET', `/v2/domains/${CUSTOM_DOMAIN}`, { headers: jsonHeaders(apiKey) })).json<{ status: string }>();
    if (status !== 'active') throw new Error(`${CUSTOM_DOMAIN} is ${status}`);
  });
});

afterAll(async () => {
  await browser?.close();
  await destination?.close();
});

/** The local stack's port, on the customer's name: what a user types after adding the hosts line. */
const onCustomDomain = (pathname: string) => `http://${CUSTOM_DOMAIN}:${new URL(baseUrl()).port}${pathname}`;

describe('a visitor on a customer\'s own domain, in Chromium', () => {
  it('opens a password link there, and lands on the destination after the form', async () => {
    const created = await http('POST', '/v2/shorten', {
      headers: jsonHeaders(apiKey),
      body: { url: `http://${DESTINATION_HOST}:${destinationPort}/spring`, alias: 'spring', password: 'open sesame', domain: CUSTOM_DOMAIN },
    });
    expect(created.json()).toMatchObject({ shortUrl: `https://${CUSTOM_DOMAIN}/spring` });
    const page = await browser.newPage();
    const response = await page.goto(onCustomDomain('/spring'));
    expect(response?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Password required');
    await page.screenshot({ path: path.join(ARTIFACTS, 'custom-domain-password-form.png'), fullPage: true });
    await page.fill('#password', 'open sesame');
    await Promise.all([page.waitForURL(`http://${DESTINATION_HOST}:${destinationPort}/spring`), page.click('button[type=submit]')]);
    await expect(page.textContent('h1')).resolves.toBe('Acme /spring');
    await page.close();
  });

  it('goes from the domain\'s root to its rootUrl, and sees the not-found page for an unknown code', async () => {
    await http('PATCH', `/v2/domains/${CUSTOM_DOMAIN}`, { headers: jsonHeaders(apiKey), body: { rootUrl: `http://${DESTINATION_HOST}:${destinationPort}/home` } });
    const page = await browser.newPage();
    await eventually(async () => {
      await page.goto(onCustomDomain('/'));
      expect(page.url()).toBe(`http://${DESTINATION_HOST}:${destinationPort}/home`);
    });
    const missing = await page.goto(onCustomDomain('/no-such-code'));
    expect(missing?.status()).toBe(404);
    await expect(page.title()).resolves.toBe('Link not found');
    await page.screenshot({ path: path.join(ARTIFACTS, 'custom-domain-not-found.png'), fullPage: true });
    await page.close();
  });
});
