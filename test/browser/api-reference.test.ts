import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { baseUrl } from '../support/local-stack';

/** The API reference page (issue 12) in headless Chromium: rendered from the served document, self-contained. */
const ARTIFACTS = path.join(__dirname, '..', '..', 'test-artifacts', 'screenshots');

let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('the API reference page', () => {
  it('shows the creation operation with its 429 answer, and loads nothing from any other host', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const requested: string[] = [];
    const refusedByPolicy: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) refusedByPolicy.push(message.text());
    });

    const response = await page.goto(`${baseUrl()}/docs`);
    expect(response?.status()).toBe(200);

    const section = page.locator('[id="operation/createLink"]');
    const operation = section.locator('h2', { hasText: /^Create a short link\s*$/ });
    await operation.waitFor({ timeout: 20_000 });
    await operation.scrollIntoViewIfNeeded();
    const tooMany = section.getByRole('button', { name: /^429\b/ });
    await tooMany.click();
    await expect(section.getByText('Rate limit exceeded. Try again in the next minute.').first().isVisible()).resolves.toBe(true);
    await section.screenshot({ path: path.join(ARTIFACTS, 'api-reference-create-link.png') });
    await page.screenshot({ path: path.join(ARTIFACTS, 'api-reference.png') });

    const origin = new URL(baseUrl()).origin;
    expect(requested.filter((url) => !url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:'))).toEqual([]);
    expect(refusedByPolicy).toEqual([]);
  });
});
