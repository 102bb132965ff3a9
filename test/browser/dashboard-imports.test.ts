/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { http, jsonHeaders } from '../support/local-stack';
import { dashboardBrowser, recordPage, signIn, tabTo, watchFocusOnArrival, workspaceWithOwner } from '../support/dashboard';

/**
 * Issue 31: the import wizard in headless Chromium against the local stack, driven with the keyboard (the file chooser
 * aside, which a test cannot open): the source, the file, the preview of its first 20 rows as the import will make
 * them, the import's progress and its results file; then an imported link's page with its clicks before import.
 * As every dashboard test, it fails on a request to another host, a CSP refusal or a script error.
 */
const { open } = dashboardBrowser();

/**
 * A Shlink web-client export of 25 links: row 2's title is markup (text to the page), row 5's destination is refused,
 * row 7's slug too short to keep here.
 */
function shlinkExport(run: string): string {
  const lines = ['createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits'];
  for (let row = 1; row <= 25; row += 1) {
    const slug = row === 7 ? 'ab' : `w${run}-${row}`;
    const url = row === 5 ? 'ftp://example.com/old' : `https://example-shop.com/p/${row}`;
    const title = row === 2 ? '<img src=x onerror=alert(1)>Produit 2' : `Produit ${row} été`;
    lines.push(`2021-05-04T10:00:00+02:00,s.example-shop.com,${slug},https://s.example-shop.com/${slug},${url},${title},shop|row-${row},${row * 10}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('the import wizard', () => {
  it('previews the first 20 rows mapped, imports with a progress bar, gives the results file, and the link shows its clicks before import', async () => {
    const { apiKey, owner } = await workspaceWithOwner('PRO');
    const run = Date.now().toString(36);
    const { page } = await open();
    await signIn(page, owner);

    await tabTo(page, 'Move links in');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Move links in from another shortener', level: 1 }).waitFor();
    // Bitly is first; four down is Shlink.
    await tabTo(page, 'Source');
    for (let step = 0; step < 4; step += 1) await page.keyboard.press('ArrowDown');
    await expect(page.getByLabel('Source').inputValue()).resolves.toBe('shlink');
    await page.getByLabel('Exported file').setInputFiles({ name: 'shlink-links.csv', mimeType: 'text/csv', buffer: Buffer.from(shlinkExport(run)) });
    // Into the radio group (on "skip"), then an arrow to "rename".
    await tabTo(page, 'Skip the link and say why');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByLabel('Make it under a new code and say which').isChecked()).resolves.toBe(true);
    await tabTo(page, 'Preview');
    // The step's heading takes the focus, for keyboard and screen-reader users.
    const step = await watchFocusOnArrival(page, '2. The first 20 of 25 rows, as they will be imported');
    await page.keyboard.press('Enter');
    await expect(step.focusedOnArrival()).resolves.toBe(true);
    const rows = page.locator('table.import-preview tbody tr');
    await expect(rows.count()).resolves.toBe(20);
    await expect(rows.nth(0).innerText()).resolves.toMatch(new RegExp(`w${run}-1\\s+https://example-shop.com/p/1\\s+Produit 1 été\\s+shop, row-1\\s+.+\\s+10`));
    // A file's markup is the file's text: shown, never run (no element made, no request for "x").
    await expect(rows.nth(1).innerText()).resolves.toContain('<img src=x onerror=alert(1)>Produit 2');
    await expect(rows.nth(1).locator('img').count()).resolves.toBe(0);
    await expect(rows.nth(4).innerText()).resolves.toContain('Not imported');
    await expect(rows.nth(4).innerText()).resolves.toContain('Please provide a valid URL');
    await expect(rows.nth(6).innerText()).resolves.toContain('the slug cannot be kept here');
    await recordPage(page, 'imports-preview');
    // Nothing is made by a preview.
    await expect(http('GET', '/v2/imports', { headers: jsonHeaders(apiKey) }).then((answer) => answer.json<{ imports: unknown[] }>().imports)).resolves.toEqual([]);

    await tabTo(page, 'Import 25 rows');
    await page.keyboard.press('Enter');
    await page.getByText('Done: 23 created, 1 renamed, 0 skipped, 1 failed.').waitFor({ timeout: 60_000 });
    await expect(page.locator('#import-job-progress').evaluate((element) => [(element as HTMLProgressElement).value, (element as HTMLProgressElement).max])).resolves.toEqual([25, 25]);
    await recordPage(page, 'imports-done');

    await tabTo(page, 'Download the results');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe('shlink-links-import-results.csv');
    const results = parse(readFileSync(await download.path(), 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(results.map(({ row, outcome }) => [row, outcome])).toEqual([['5', 'failed'], ['7', 'renamed']]);
    expect(results[0]?.reason).toBe('Please provide a valid URL');
    expect(results[1]?.reason).toBe(`the slug cannot be kept here: Alias must be between 3 and 50 characters; created as ${results[1]?.code}`);

    // The imported link's page: its clicks here and before import, apart, and where it came from.
    await page.goto(new URL(`/app/links/w${run}-3`, page.url()).href);
    await page.getByTestId('imported-clicks').waitFor();
    await expect(page.getByTestId('imported-clicks').textContent()).resolves.toBe('30');
    await page.getByText(`Shlink (s.example-shop.com/w${run}-3)`).waitFor();
    await expect(page.getByTestId('stats-imported').textContent()).resolves.toBe('30');
    await expect(page.getByTestId('stats-total').textContent()).resolves.toBe('0');
    await recordPage(page, 'imported-link');
  }, 180_000);

  it('shows the API\'s words for a file it cannot read, and keeps the choices', async () => {
    const { owner } = await workspaceWithOwner('PRO');
    const { page } = await open();
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Move links in' }).click();
    await page.getByLabel('Source').selectOption('kutt');
    await page.getByLabel('Exported file').setInputFiles({ name: 'links.json', mimeType: 'application/json', buffer: Buffer.from('{"data": 3}') });
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain("not kutt's links listing");
    await expect(page.getByLabel('Source').inputValue()).resolves.toBe('kutt');
    await recordPage(page, 'imports-refused');
  }, 120_000);
});
