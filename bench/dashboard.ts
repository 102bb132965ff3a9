/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/support/chromium';
import { readLocalTopology } from '../bin/local/stack';
import { accountDirectory, http, jsonHeaders } from '../test/support/local-stack';
import { median, round, startBenchStack } from './support';

/**
 * Issue 20's budget, measured: a full load of the dashboard's links page (1,002 links in the account) until its rows
 * are shown and its search box usable, in headless Chromium against the local stack. Baseline in the same run: the
 * sign-in page's load (the same files, no API call). Rounds alternate; medians and 90th percentiles.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const LINKS = 1_000;

const percentile = (values: readonly number[], share: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))] ?? 0;

/** Milliseconds from navigation start until `readyAt` answers a time (it runs in the page, under its CSP: no eval). */
async function loadTime(page: Page, readyAt: () => number | false): Promise<number> {
  await page.reload();
  const handle = await page.waitForFunction(readyAt);
  return Number(await handle.jsonValue());
}

const linksShown = () => document.querySelectorAll('table.links tbody tr').length === 25 && !(document.getElementById('search') as HTMLInputElement).disabled && performance.now();
const signInShown = () => document.getElementById('api-key') !== null && performance.now();

async function main(): Promise<void> {
  const stack = await startBenchStack();
  const browser = await launchChromium();
  try {
    const { apiKey } = await accountDirectory().open('ENTERPRISE', { nowMs: Date.now(), label: 'bench' });
    for (let batch = 0; batch < LINKS / 50; batch += 1) {
      const urls = Array.from({ length: 50 }, (_, index) => ({ url: `https://example.com/${batch * 50 + index}`, tags: [`t${index % 7}`] }));
      const answer = await http('POST', '/v2/shorten/batch', { headers: jsonHeaders(apiKey), body: { urls } });
      if (answer.status !== 200) throw new Error(`seeding answered ${answer.status}`);
    }
    for (const url of ['https://example.com/newest', 'https://example.com/latest']) await http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url } });

    const signedIn = await (await browser.newContext()).newPage();
    await signedIn.goto(`${stack.url}/app/`);
    await signedIn.getByLabel('API key').fill(apiKey);
    await signedIn.getByRole('button', { name: 'Sign in' }).click();
    await signedIn.locator('table.links tbody tr').first().waitFor();
    const signedOut = await (await browser.newContext()).newPage();
    await signedOut.goto(`${stack.url}/app/`);

    const links: number[] = [];
    const signIn: number[] = [];
    for (let round_ = 0; round_ < ROUNDS; round_ += 1) {
      links.push(await loadTime(signedIn, linksShown));
      signIn.push(await loadTime(signedOut, signInShown));
    }
    // The files the local stack served: the deployment's staged asset.
    const filesDir = readLocalTopology(stack.url).staticSite?.filesDir ?? '';
    const script = /src="\/app\/([^"]+\.js)"/.exec(readFileSync(path.join(filesDir, 'index.html'), 'utf8'))?.[1] ?? '';
    const gzipped = gzipSync(readFileSync(path.join(filesDir, script))).length;
    console.log(
      JSON.stringify(
        {
          rounds: ROUNDS,
          linksPageMs: { median: round(median(links), 0), p90: round(percentile(links, 0.9), 0) },
          signInPageMs: { median: round(median(signIn), 0), p90: round(percentile(signIn, 0.9), 0) },
          ratioToSignIn: round(median(links) / median(signIn)),
          budgetMs: 1500,
          initialJavaScriptKbGzipped: round(gzipped / 1024, 1),
        },
        null,
        2,
      ),
    );
  } finally {
    await browser.close();
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
