/// <reference lib="dom" />
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { baseUrl, createApiKey, dynamo, eventually, stackOutput } from './local-stack';
import { createUser, type Credentials } from './sign-in';
import { DynamoMemberStore } from '../../functions/shared/adapters/dynamo-member-store';
import type { Role } from '../../functions/shared/domain/accounts/permissions';
import type { Plan } from '../../functions/shared/domain/limits/plans';
import { StackOutputs } from '../../lib/stack-outputs';

/** Where every dashboard screenshot goes (the CI keeps test-artifacts/). */
export const SCREENSHOTS = path.join(__dirname, '..', '..', 'test-artifacts', 'screenshots', 'dashboard');

export const VIEWPORTS = { desktop: { width: 1366, height: 900 }, phone: { width: 390, height: 844 } } as const;

/** What a dashboard page did that it must not: requests to any other host, CSP refusals, uncaught errors. */
export interface Trespasses {
  otherHosts: string[];
  cspViolations: string[];
  pageErrors: string[];
}

export interface DashboardTab {
  context: BrowserContext;
  page: Page;
  trespasses: Trespasses;
}

/**
 * A fresh browser context (its own sessionStorage) on the dashboard, watching for anything that leaves the origin
 * and for every CSP refusal (the page's securitypolicyviolation events, recorded before any of its scripts run).
 */
export async function openDashboard(browser: Browser, viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<DashboardTab> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const origin = new URL(baseUrl()).origin;
  // The sign-in provider's pages and endpoints are the one other host the dashboard may reach (issue 29).
  const provider = providerOrigin();
  const trespasses: Trespasses = { otherHosts: [], cspViolations: [], pageErrors: [] };
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  const page = await context.newPage();
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith(`${provider}/`) && !url.startsWith('blob:') && !url.startsWith('data:')) trespasses.otherHosts.push(url);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /CSP violation|Content Security Policy/i.test(message.text())) trespasses.cspViolations.push(message.text());
  });
  page.on('pageerror', (error) => trespasses.pageErrors.push(error.message));
  await page.goto(`${baseUrl()}/app/`);
  return { context, page, trespasses };
}

/** Fails (from an afterEach) when any tab asked another host for anything, had a CSP refusal or a script error. */
export function assertNoTrespasses(found: readonly Trespasses[]): void {
  const trespassing = found.filter((trespasses) => Object.values(trespasses).some((list) => list.length > 0));
  if (trespassing.length > 0) throw new Error(`the dashboard did what it must not: ${JSON.stringify(trespassing)}`);
}

/** The local user pool's provider (`npm start` prints its issuer). */
export const providerOrigin = () => new URL(String(process.env.LOCAL_SIGN_IN_ISSUER)).origin;

/**
 * Signs in as a person would: the dashboard's Sign in button, the provider's own page (email, password), back to
 * the dashboard, and waits for `landing`. Without one: the overview, the first page after sign-in (issue 30), then
 * the links page through the navigation, where most tests start.
 */
export async function signIn(page: Page, person: Credentials, landing?: { name: string | RegExp; level?: number }): Promise<void> {
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.origin === providerOrigin());
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (landing) return page.getByRole('heading', landing).waitFor();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Links', exact: true }).click();
  await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
}

/** A new person of the local pool made a member of `workspaceId` with `role`, as an accepted invitation would. */
export async function memberOf(workspaceId: string, role: Role): Promise<Credentials & { sub: string }> {
  const person = await createUser();
  const members = new DynamoMemberStore(dynamo(), stackOutput(StackOutputs.membersTable), stackOutput(StackOutputs.auditTable));
  await members.addMember({ workspaceId, userId: person.sub, email: person.email, role, joinedAt: new Date().toISOString() });
  return person;
}

/** A fresh workspace on `plan` (its API key, for the tests' own calls) and a person who owns it (for the browser). */
export async function workspaceWithOwner(plan: Plan, options: Parameters<typeof createApiKey>[1] = {}) {
  const workspace = await createApiKey(plan, options);
  return { ...workspace, owner: await memberOf(workspace.accountId, 'owner') };
}

/** The invitation mail the local SES stand-in wrote for `email` (LOCAL_MAILBOX_DIR), and the link in it. */
export async function invitationLink(email: string): Promise<string> {
  const mailbox = String(process.env.LOCAL_MAILBOX_DIR);
  return eventually(async () => {
    const message = readdirSync(mailbox)
      .filter((file) => file.endsWith('.eml'))
      .map((file) => readFileSync(path.join(mailbox, file), 'utf8'))
      .find((text) => text.includes(`To: ${email}`));
    const link = message && /https?:\/\/\S+\/app\/invitations\/\S+/.exec(message)?.[0];
    if (!link) throw new Error(`no invitation mail for ${email} in ${mailbox}`);
    return link;
  });
}

/** axe-core's serious and critical findings on the page as it is now (WCAG 2.1 A and AA rules). */
export async function seriousAccessibilityViolations(page: Page): Promise<Array<{ id: string; impact: string; nodes: string[] }>> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, impact: violation.impact ?? '', nodes: violation.nodes.map((node) => node.target.join(' ')) }));
}

/** A full-page screenshot under test-artifacts/screenshots/dashboard. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * Presses Tab until the focused element is the one `name` describes (its accessible name, or a label's text for
 * inputs), as a keyboard user moves through the page; fails after `limit` presses.
 */
export async function tabTo(page: Page, name: string | RegExp, limit = 80): Promise<void> {
  const wanted = typeof name === 'string' ? { source: `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, flags: '' } : { source: name.source, flags: name.flags };
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate((pattern) => {
      const element = document.activeElement as HTMLElement | null;
      if (!element) return false;
      const labelled = element.getAttribute('aria-label') ?? (element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null) ?? element.closest('label')?.textContent ?? element.textContent ?? '';
      return new RegExp(pattern.source, pattern.flags).test(labelled.trim().replace(/\s+/g, ' '));
    }, wanted);
    if (focused) return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}

/**
 * Watches for a heading whose text is `text`, to say whether it had the focus the moment it appeared. A
 * MutationObserver checks in the microtask after the heading is added, before any later frame or timer could move
 * the focus there: a focus that lags a frame behind would let a key press land elsewhere, and passes a check made after
 * waiting. Arm it before the action that shows the heading; `focusedOnArrival()` then waits for it.
 */
export async function watchFocusOnArrival(page: Page, text: string): Promise<{ focusedOnArrival: () => Promise<boolean> }> {
  // The handle holds an object around the promise, so arming returns at once instead of waiting for the heading.
  const watch = await page.evaluateHandle((wanted) => {
    const headingNow = () => [...document.querySelectorAll('h1, h2, h3, h4')].find((heading) => heading.textContent === wanted);
    if (headingNow()) throw new Error(`${wanted} is on the page already: arm the watch before it appears`);
    const arrival = new Promise<boolean>((resolve) => {
      const observer = new MutationObserver(() => {
        const heading = headingNow();
        if (!heading) return;
        observer.disconnect();
        resolve(heading === document.activeElement);
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    return { arrival };
  }, text);
  return { focusedOnArrival: () => watch.evaluate(({ arrival }) => arrival) };
}

/**
 * One headless Chromium for a test file (its hooks registered here) and a fresh tab per `open()`; after each test
 * the tabs are closed and the test fails if any of them trespassed.
 */
export function dashboardBrowser(): { open: (viewport?: { width: number; height: number }) => Promise<DashboardTab> } {
  let browser: Browser | undefined;
  const tabs: DashboardTab[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    const used = tabs.splice(0);
    await Promise.all(used.map((tab) => tab.context.close()));
    assertNoTrespasses(used.map((tab) => tab.trespasses));
  });
  return {
    async open(viewport = VIEWPORTS.desktop) {
      if (!browser) throw new Error('the browser starts in beforeAll');
      const tab = await openDashboard(browser, viewport);
      tabs.push(tab);
      return tab;
    },
  };
}

/** The page at desktop and phone widths in the artifacts, and axe's serious or critical findings: none expected. */
export async function recordPage(page: Page, name: string): Promise<void> {
  const findings = await seriousAccessibilityViolations(page);
  if (findings.length > 0) throw new Error(`axe found serious or critical problems on ${name}: ${JSON.stringify(findings)}`);
  await screenshot(page, `${name}-desktop`);
  const size = page.viewportSize() ?? VIEWPORTS.desktop;
  await page.setViewportSize(VIEWPORTS.phone);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(size);
}
