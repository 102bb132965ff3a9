import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { startDestination } from '../support/destination-server';
import { clearOfWindowEdge, devApiKey, http, jsonHeaders, uniqueLoopbackAddress } from '../support/local-stack';
import { RATE_LIMITS } from '../../functions/shared/domain/limits/rate-limits';

/** What a person's Chrome on a desktop sends. */
const PERSON_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/**
 * A person's side of a short link, in real headless Chromium (Debian's). The destination is a test server on
 * loopback, reached under a public-looking name that Chromium maps to 127.0.0.1 (the service refuses loopback
 * destinations, rightly). Screenshots of every page land in test-artifacts/screenshots.
 */
const ARTIFACTS = path.join(__dirname, '..', '..', 'test-artifacts', 'screenshots');
const DESTINATION_HOST = 'destination.example.com';

let browser: Browser;
let destination: Awaited<ReturnType<typeof startDestination>>;
let destinationPort: number;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  destination = await startDestination(() => '<!doctype html><title>Destination</title><h1>You made it to the destination</h1>');
  destinationPort = destination.port;
  browser = await launchChromium([DESTINATION_HOST]);
});

afterAll(async () => {
  await browser?.close();
  await destination?.close();
});

async function createLink(fields: Record<string, unknown>): Promise<string> {
  const response = await http('POST', '/v2/shorten', {
    headers: jsonHeaders(devApiKey()),
    body: { url: `http://${DESTINATION_HOST}:${destinationPort}/landing`, ...fields },
  });
  if (response.status !== 201) throw new Error(`could not create the link: ${response.text}`);
  return response.json<{ shortUrl: string }>().shortUrl;
}

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

describe('a visitor in Chromium', () => {
  it('opens a password link, sees the form, is told a wrong password is wrong, and lands on the destination with the right one', async () => {
    const shortUrl = await createLink({ password: 'open sesame', maxClicks: 5 });
    // A person's browser: a bot (headless Chromium's own User-Agent) is shown a limited link's card, never its redirect.
    const person = await browser.newContext({ userAgent: PERSON_USER_AGENT });
    const page = await person.newPage();
    const response = await page.goto(shortUrl);
    expect(response?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Password required');
    expect(await page.content()).not.toContain(DESTINATION_HOST);
    await screenshot(page, 'password-form');

    await page.fill('#password', 'open barley');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    await expect(page.textContent('[role=alert]')).resolves.toBe('Wrong password, please try again');
    await screenshot(page, 'password-wrong');

    await page.fill('#password', 'open sesame');
    await Promise.all([page.waitForURL(`http://${DESTINATION_HOST}:${destinationPort}/landing`), page.click('button[type=submit]')]);
    await expect(page.textContent('h1')).resolves.toBe('You made it to the destination');
    await screenshot(page, 'password-landed');
    await person.close();
  });

  it('opens a link whose password is 100 emoji, the longest the API accepts, typed into the form whole', async () => {
    // Issue 16: the API counts characters (code points), the form's maxlength UTF-16 units; 60 emoji once got cut to 50.
    const password = '😀'.repeat(100);
    const shortUrl = await createLink({ password });
    const page = await browser.newPage();
    await page.goto(shortUrl);
    await page.fill('#password', password);
    expect(await page.inputValue('#password')).toBe(password);
    await Promise.all([page.waitForURL(`http://${DESTINATION_HOST}:${destinationPort}/landing`), page.click('button[type=submit]')]);
    await expect(page.textContent('h1')).resolves.toBe('You made it to the destination');
    await page.close();
  });

  it('follows a plain link straight to the destination', async () => {
    const page = await browser.newPage();
    await page.goto(await createLink({}));
    expect(page.url()).toBe(`http://${DESTINATION_HOST}:${destinationPort}/landing`);
    await page.close();
  });

  it('sees a clear page for an unknown link and for a used-up one', async () => {
    // A person's browser: headless Chromium says HeadlessChrome, which isbot counts as a bot, and a bot's visit never
    // uses a click of a limited link (issue 30).
    const person = await browser.newContext({ userAgent: PERSON_USER_AGENT });
    const page = await person.newPage();
    const missing = await page.goto(`${process.env.LOCAL_STACK_URL}/no-such-link`);
    expect(missing?.status()).toBe(404);
    await expect(page.textContent('h1')).resolves.toBe('Link not found');
    await screenshot(page, 'not-found');

    const once = await createLink({ maxClicks: 1 });
    await page.goto(once);
    const gone = await page.goto(once);
    expect(gone?.status()).toBe(410);
    await expect(page.textContent('h1')).resolves.toBe('Link no longer available');
    await screenshot(page, 'gone');
    await person.close();
  });

  it('sees when to come back after too many wrong passwords', async () => {
    // All eleven attempts in one window: across its edge the count starts again.
    await clearOfWindowEdge(RATE_LIMITS.passwordAttempts.windowSeconds, 10_000);
    const shortUrl = await createLink({ password: 'open sesame' });
    const code = new URL(shortUrl).pathname.slice(1);
    const address = uniqueLoopbackAddress();
    const form = await http('GET', `/${code}`, { localAddress: address });
    const cookie = String(form.headers['set-cookie']).split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    let last = form;
    for (let i = 0; i < 11; i += 1) {
      last = await http('POST', `/${code}`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ password: `guess ${i}`, csrf }).toString(),
        localAddress: address,
      });
    }
    expect(last.status).toBe(429);
    const page = await browser.newPage();
    await page.setContent(last.text);
    await expect(page.textContent('h1')).resolves.toBe('Too many attempts');
    await screenshot(page, 'too-many-attempts');
    await page.close();
  });

  it('shows link-preview bots a card, not the destination', async () => {
    const context = await browser.newContext({ userAgent: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' });
    const page = await context.newPage();
    const response = await page.goto(await createLink({ maxClicks: 1 }));
    expect(response?.status()).toBe(200);
    await expect(page.textContent('h1')).resolves.toBe('Shared link');
    await screenshot(page, 'preview-card');
    await context.close();
  });

  it('shows any bot a one-time link\'s card, as often as it asks, and leaves the click to the person', async () => {
    // Headless Chromium's own User-Agent says HeadlessChrome: a bot to isbot, as curl is.
    const once = await createLink({ maxClicks: 1 });
    const page = await browser.newPage();
    for (let i = 0; i < 2; i += 1) {
      const response = await page.goto(once);
      expect([response?.status(), page.url()]).toEqual([200, once]);
      await expect(page.textContent('h1')).resolves.toBe('Shared link');
    }
    await page.close();
    const person = await browser.newContext({ userAgent: PERSON_USER_AGENT });
    const personPage = await person.newPage();
    await personPage.goto(once);
    expect(personPage.url()).toBe(`http://${DESTINATION_HOST}:${destinationPort}/landing`);
    await person.close();
  });
});
