/// <reference lib="dom" />
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { nextHealth } from '../../functions/shared/domain/health/link-health';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, http, jsonHeaders, stackOutput } from '../support/local-stack';
import { dashboardBrowser, recordPage, signIn, workspaceWithOwner } from '../support/dashboard';

/**
 * Issue 31: link health in the dashboard, in headless Chromium against the local stack. A link's health is written
 * as the health worker writes it (two broken checks in a row), so the test does not wait for the schedule.
 */
const { open } = dashboardBrowser();

async function shorten(apiKey: string, url: string): Promise<{ shortCode: string; shortUrl: string }> {
  const answer = await http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url } });
  expect(answer.status).toBe(201);
  return answer.json<{ shortCode: string; shortUrl: string }>();
}

async function checkedTwiceBroken(code: string): Promise<void> {
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
  const health = nextHealth(nextHealth(undefined, { status: 'server-error', statusCode: 503, checkedAt: at(25) }), { status: 'server-error', statusCode: 503, checkedAt: at(1) });
  await dynamo().send(new UpdateCommand({ TableName: stackOutput(StackOutputs.linksTable), Key: { code }, UpdateExpression: 'SET health = :health', ExpressionAttributeValues: { ':health': health } }));
}

describe('link health in the dashboard', () => {
  it('shows a badge per link, filters the broken ones, and says the link page\'s health in words', async () => {
    const { apiKey, owner } = await workspaceWithOwner('PRO');
    const fine = await shorten(apiKey, 'https://example.com/fine');
    const broken = await shorten(apiKey, 'https://example.com/gone');
    await checkedTwiceBroken(broken.shortCode);
    const { page } = await open();
    await signIn(page, owner);
    const row = (shortUrl: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: shortUrl }) });
    await row(broken.shortUrl).getByText('Server error (503)').waitFor();
    await row(fine.shortUrl).getByText('Not checked yet').waitFor();
    await recordPage(page, 'link-health-list');

    await page.getByLabel('Health').selectOption('broken');
    await page.waitForURL(/health=broken/);
    await page.getByRole('link', { name: fine.shortUrl }).waitFor({ state: 'detached' });
    expect(await page.getByRole('link', { name: broken.shortUrl }).count()).toBe(1);

    await page.getByRole('link', { name: broken.shortUrl }).click();
    await page.getByText(/Server error \(503\).*since/).waitFor();
  });

  it('on a plan below PRO, the Broken filter says which plan it needs and where to upgrade', async () => {
    const { owner } = await workspaceWithOwner('INDIE');
    const { page } = await open();
    await signIn(page, owner);
    await page.getByLabel('Health').selectOption('broken');
    const alert = page.getByRole('alert');
    await alert.getByText('Link health alerts (the broken-links filter and its events) require the PRO plan or higher.').waitFor();
    expect(await alert.getByRole('link', { name: 'Upgrade your plan' }).count()).toBe(1);
  });
});
