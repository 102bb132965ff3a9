/// <reference lib="dom" />
import { http, jsonHeaders } from '../support/local-stack';
import { dashboardBrowser, memberOf, recordPage, signIn, tabTo, watchFocusOnArrival, workspaceWithOwner } from '../support/dashboard';

/**
 * Issue 31: the links page's bulk actions in headless Chromium against the local stack: rows chosen by keyboard,
 * the action confirmed, each link's result shown (one deleted meanwhile says so), and every link a filter picks.
 */
const { open } = dashboardBrowser();

const api = (apiKey: string, method: string, path: string, body?: object) => http(method, path, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });

interface Made {
  shortCode: string;
  shortUrl: string;
}

async function shorten(apiKey: string, body: object): Promise<Made> {
  const answer = await api(apiKey, 'POST', '/v2/shorten', body);
  expect(answer.status).toBe(201);
  return answer.json<Made>();
}

const viewOf = async (apiKey: string, link: Made) => (await api(apiKey, 'GET', `/v2/links/${link.shortCode}`)).json<{ status: string; tags?: string[] }>();

describe('bulk actions on the links page', () => {
  it('tags chosen rows by keyboard after a confirmation, shows each link that could not change, and deletes all a filter picks', async () => {
    const { apiKey, owner } = await workspaceWithOwner('PRO');
    const spring = [await shorten(apiKey, { url: 'https://example.com/s1', tags: ['spring'] }), await shorten(apiKey, { url: 'https://example.com/s2', tags: ['spring'] })];
    const plain = [await shorten(apiKey, { url: 'https://example.com/p1' }), await shorten(apiKey, { url: 'https://example.com/p2' })];
    const doomed = await shorten(apiKey, { url: 'https://example.com/doomed' });

    const { page } = await open();
    await signIn(page, owner);
    await page.locator('table.links tbody tr').nth(4).waitFor();
    const results = page.locator('.bulk-results h3');

    // Two rows chosen with the keyboard, the tags typed, the confirmation answered.
    for (const link of plain) {
      await tabTo(page, `Select ${link.shortUrl} for a bulk action`);
      await page.keyboard.press('Space');
    }
    // No action is chosen at first, so no field of one shows: the first one down is Add tags.
    await expect(page.getByLabel('Tags', { exact: true }).count()).resolves.toBe(0);
    await tabTo(page, 'Action');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, 'Tags');
    await page.keyboard.type('Summer, sale');
    await tabTo(page, 'Apply…');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add summer, sale to 2 selected links?', exact: true });
    await dialog.waitFor();
    await recordPage(page, 'bulk-confirmation');
    // The dialog opens on Cancel: Enter there changes nothing.
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    expect((await viewOf(apiKey, plain[0] as Made)).tags).toBeUndefined();
    await tabTo(page, 'Apply…');
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Shift+Tab');
    const outcome = await watchFocusOnArrival(page, '2 links changed, 0 not changed');
    await page.keyboard.press('Enter');
    await expect(outcome.focusedOnArrival()).resolves.toBe(true);
    for (const link of plain) expect((await viewOf(apiKey, link)).tags).toEqual(['summer', 'sale']);
    // The selection is gone once the action is done.
    await expect(page.getByRole('checkbox', { name: `Select ${plain[0]?.shortUrl} for a bulk action` }).isChecked()).resolves.toBe(false);

    // A chosen link deleted by someone else before the action runs: its row says why, the other changes.
    await page.getByRole('checkbox', { name: `Select ${doomed.shortUrl} for a bulk action` }).check();
    await page.getByRole('checkbox', { name: `Select ${plain[0]?.shortUrl} for a bulk action` }).check();
    await page.getByLabel('Action', { exact: true }).selectOption('removeTags');
    await page.getByLabel('Tags', { exact: true }).fill('sale');
    expect((await api(apiKey, 'DELETE', `/v2/links/${doomed.shortCode}`)).status).toBe(204);
    await page.getByRole('button', { name: 'Apply…' }).click();
    await page.getByRole('dialog', { name: 'Remove sale from 2 selected links?' }).getByRole('button', { name: 'Remove tags' }).click();
    await results.getByText('1 link changed, 1 not changed').waitFor();
    await page.locator('.bulk-failures').getByText(`${doomed.shortCode}: This link is no longer available`).waitFor();
    await recordPage(page, 'bulk-results');
    expect((await viewOf(apiKey, plain[0] as Made)).tags).toEqual(['summer']);

    // Every link the tag filter picks, whatever is selected: only offered once a filter is set.
    await expect(page.getByLabel('All links matching these filters').count()).resolves.toBe(0);
    await page.getByLabel('Tag', { exact: true }).selectOption('spring');
    await page.waitForFunction(() => document.querySelectorAll('table.links tbody tr').length === 2);
    await page.getByLabel('All links matching these filters').check();
    await page.getByLabel('Action', { exact: true }).selectOption('delete');
    await page.getByRole('button', { name: 'Apply…' }).click();
    const deletion = page.getByRole('dialog', { name: 'Delete every link matching these filters?' });
    await deletion.getByText('this cannot be undone').waitFor();
    await deletion.getByRole('button', { name: 'Delete' }).click();
    await results.getByText('2 links changed, 0 not changed').waitFor();
    for (const link of spring) expect((await viewOf(apiKey, link)).status).toBe('deleted');
    for (const link of plain) expect((await viewOf(apiKey, link)).status).toBe('active');
    await page.waitForFunction(() => [...document.querySelectorAll('table.links tbody .status')].every((cell) => cell.textContent === 'deleted'));
  }, 120_000);

  it('are not offered to a viewer, whom the API would refuse', async () => {
    const { apiKey, accountId } = await workspaceWithOwner('PRO');
    const link = await shorten(apiKey, { url: 'https://example.com/viewed' });
    const { page } = await open();
    await signIn(page, await memberOf(accountId, 'viewer'));
    await page.getByRole('link', { name: link.shortUrl }).waitFor();
    await expect(page.getByRole('region', { name: 'Bulk actions' }).count()).resolves.toBe(0);
    await expect(page.getByRole('checkbox').count()).resolves.toBe(0);
  });
});
