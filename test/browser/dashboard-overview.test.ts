/// <reference lib="dom" />
import { LIVE_REFRESH_MS } from '../../web/dashboard/charts/live-refresh';
import { RECORD_EVERYTHING } from '../../functions/shared/domain/analytics/analytics-switches';
import { WORKSPACE_HEADER } from '../../functions/shared/http/headers';
import { asCloudFront, eventually, http, jsonHeaders } from '../support/local-stack';
import { dashboardBrowser, memberOf, recordPage, signIn, tabTo, workspaceWithOwner } from '../support/dashboard';
import { signIn as signInByApi } from '../support/sign-in';

/**
 * Issue 30 in headless Chromium against the local stack: the workspace at a glance as the first page after sign-in
 * (its figures equal the API's, values are text, the top links lead to their pages, the live hour), and the
 * analytics switches of the workspace's settings (changed by an owner, shown but disabled to a viewer).
 */
const { open } = dashboardBrowser();
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';
const HOSTILE_CITY = '<script>alert(1)</script>';

const api = (apiKey: string, method: string, path: string, body?: object) => http(method, path, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });
const visit = async (code: string, city: string) =>
  http('GET', `/${code}`, { headers: await asCloudFront({ 'user-agent': CHROME, 'cloudfront-viewer-country': 'DE', 'cloudfront-viewer-city': city }) });

describe('the overview', () => {
  it('is the first page after sign-in: totals, the top links to their pages, every dimension as text, the live hour, by mouse and keyboard', async () => {
    const { apiKey, owner } = await workspaceWithOwner('PRO');
    const codes: string[] = [];
    for (const path of ['busy', 'quiet']) codes.push((await api(apiKey, 'POST', '/v2/shorten', { url: `https://example.com/${path}` })).json<{ shortCode: string }>().shortCode);
    const [busy = '', quiet = ''] = codes;
    for (const city of ['Berlin', 'Berlin', HOSTILE_CITY]) expect((await visit(busy, city)).status).toBe(302);
    expect((await visit(quiet, 'Köln')).status).toBe(302);
    const stats = await eventually(async () => {
      const body = (await api(apiKey, 'GET', '/v2/stats?days=30')).json<{ total: number; unique: number; bots: number }>();
      expect(body.total).toBe(4);
      return body;
    }, 30_000);

    const { page } = await open();
    await signIn(page, owner, { name: 'Overview', level: 1 });
    await expect(page.getByTestId('overview-total').textContent()).resolves.toBe(String(stats.total));
    await expect(page.getByTestId('overview-unique').textContent()).resolves.toBe(String(stats.unique));
    await expect(page.getByTestId('overview-bots').textContent()).resolves.toBe(String(stats.bots));
    const topLinks = page.getByTestId('top-links');
    await expect(topLinks.getByRole('row').nth(1).getByRole('link').textContent()).resolves.toBe(busy);
    // The hostile city is those characters in a cell, never an element.
    await page.getByTestId('breakdown-cities').getByText(HOSTILE_CITY, { exact: true }).waitFor();
    expect(await page.evaluate(() => document.querySelectorAll('main script').length)).toBe(0);
    await page.getByTestId('live-total').waitFor();
    await expect(page.getByTestId('live-total').textContent()).resolves.toBe('4');
    await recordPage(page, 'overview');

    await page.getByLabel('Window').selectOption('7');
    await page.getByText('clicks on all your links in the last 7 days').waitFor();
    await topLinks.getByRole('link', { name: quiet }).click();
    await page.getByRole('heading', { level: 1, name: new RegExp(`${quiet}$`) }).waitFor();

    // The same with the keyboard alone: the navigation, the window, a top link.
    await tabTo(page, 'Overview');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await tabTo(page, 'Window');
    await page.keyboard.press('ArrowDown');
    await page.getByText('clicks on all your links in the last 90 days').waitFor();
    await tabTo(page, busy);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: new RegExp(`${busy}$`) }).waitFor();
    // A link's page draws its own live hour.
    await page.getByRole('heading', { name: 'The last hour, live' }).waitFor();
  }, 120_000); // sign-in, a 30-s wait for the clicks, accessibility checks, screenshots and three keyboard walks
});

describe('the live hour', () => {
  it('is read again every 10 seconds while the tab is visible, never while it is hidden, and at once when it comes back', async () => {
    const { owner } = await workspaceWithOwner('PRO');
    const { page } = await open();
    // The page's own clock, moved on by the test: ten seconds pass without waiting for them.
    await page.clock.install();
    let reads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/v2/stats/live') reads += 1;
    });
    await signIn(page, owner, { name: 'Overview', level: 1 });
    await page.getByTestId('live-total').waitFor();
    const readsOf = async (expected: number) => eventually(async () => expect(reads).toBe(expected), 10_000);
    await readsOf(1);
    await page.clock.runFor(LIVE_REFRESH_MS);
    await readsOf(2);
    const show = (state: 'hidden' | 'visible') =>
      page.evaluate((visibility) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
    await show('hidden');
    await page.clock.runFor(3 * LIVE_REFRESH_MS);
    await show('visible');
    await readsOf(3);
  });
});

describe('the workspace settings', () => {
  it('let an owner switch the city off (the API keeps it), and show a viewer the switches disabled', async () => {
    const { accountId, owner } = await workspaceWithOwner('PRO');
    const { page } = await open();
    await signIn(page, owner, { name: 'Overview', level: 1 });
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Workspace settings', level: 1 }).waitFor();
    const city = page.getByRole('checkbox', { name: 'City' });
    await expect(city.isChecked()).resolves.toBe(true);
    await city.uncheck();
    await page.getByRole('button', { name: 'Save analytics settings' }).click();
    await page.getByRole('status').getByText(/^Saved\./).waitFor();
    const token = (await signInByApi(owner)).accessToken;
    const workspace = (await http('GET', '/v2/workspace', { headers: { ...jsonHeaders(token), [WORKSPACE_HEADER]: accountId } })).json<{ analytics: unknown }>();
    expect(workspace.analytics).toEqual({ ...RECORD_EVERYTHING, city: false });
    await recordPage(page, 'settings');

    const viewer = await memberOf(accountId, 'viewer');
    const viewerTab = await open();
    await signIn(viewerTab.page, viewer, { name: 'Overview', level: 1 });
    await viewerTab.page.getByRole('link', { name: 'Settings' }).click();
    const viewerCity = viewerTab.page.getByRole('checkbox', { name: 'City' });
    await viewerCity.waitFor();
    await expect(viewerCity.isChecked()).resolves.toBe(false);
    await expect(viewerCity.isDisabled()).resolves.toBe(true);
    await expect(viewerTab.page.getByRole('button', { name: 'Save analytics settings' }).isDisabled()).resolves.toBe(true);
    await viewerTab.page.getByText('Only owners and admins change these settings.').waitFor();
  });
});
