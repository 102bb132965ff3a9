import { readdirSync, readFileSync } from 'node:fs';
import { createApiKey } from '../test/support/local-stack';
import { round, startBenchStack } from './support';

/**
 * Issue 6's sustained load: a mixed load on the local stack (loopback only) for SOAK_SECONDS (default 60), bounded
 * in time and concurrency, then a check that nothing was lost or duplicated and that every maxClicks link ended with
 * exactly maxClicks redirects. Memory is the RSS of the local stack's Node process (its workers included).
 */
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const PASSWORD_WEIGHT = Number(process.env.SOAK_PASSWORD_WEIGHT ?? 5);
const CONCURRENCY = 16;
const KEYS = 40;
const MAX_CLICKS = 3;

interface Link {
  code: string;
  url: string;
}

/** The Node process running bin/start-local.ts under the tsx wrapper: RSS from /proc, in MB. */
function stackRssMb(rootPid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const tree: number[] = [];
  const visit = (pid: number) => {
    tree.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(rootPid);
  const stack = tree.find((pid) => {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('start-local.ts') && cmdline.includes('loader');
  });
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${stack ?? rootPid}/status`, 'utf8'))?.[1]);
  return rssKb / 1024;
}

/**
 * Each link's clicks, as its view shows them, against the 302s its path answered: polled until they agree (clicks
 * are counted off the visitor's path, within seconds) or 60 s pass. Equal per link: nothing lost, nothing twice.
 */
async function settledClickCounts(baseUrl: string, owners: ReadonlyMap<string, string>, served: ReadonlyMap<string, number>) {
  const started = Date.now();
  const codes = [...owners.keys()];
  let counted = new Map<string, number>();
  for (;;) {
    const next = new Map<string, number>();
    for (let start = 0; start < codes.length; start += 16) {
      await Promise.all(
        codes.slice(start, start + 16).map(async (code) => {
          const response = await fetch(`${baseUrl}/v2/links/${code}`, { headers: { authorization: `Bearer ${owners.get(code)}` } });
          next.set(code, response.ok ? ((await response.json()) as { clicks: number }).clicks : -1);
        }),
      );
    }
    counted = next;
    const differing = codes.filter((code) => (counted.get(code) ?? 0) !== (served.get(code) ?? 0)).length;
    if (differing === 0 || Date.now() - started > 60_000) {
      const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);
      return { served: sum(codes.map((code) => served.get(code) ?? 0)), counted: sum(counted.values()), differing, waitedSeconds: round((Date.now() - started) / 1000, 0) };
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

async function main(): Promise<void> {
  const stack = await startBenchStack();
  const keys = await Promise.all(Array.from({ length: KEYS }, () => createApiKey('ENTERPRISE').then(({ apiKey }) => apiKey)));
  const counts = { requests: 0, byStatus: new Map<number, number>(), transportErrors: 0 };
  const created: Link[] = [];
  const limited: Array<Link & { redirects: number }> = [];
  let keyTurn = 0;

  // Every 302 a visitor path answered, per code: what the click counts must equal in the end.
  const served = new Map<string, number>();
  const owners = new Map<string, string>();
  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    counts.requests += 1;
    try {
      const response = await fetch(`${stack.url}${path}`, { redirect: 'manual', ...init });
      counts.byStatus.set(response.status, (counts.byStatus.get(response.status) ?? 0) + 1);
      if (response.status === 302 && !/^\/v[12]\//.test(path)) served.set(path.slice(1), (served.get(path.slice(1)) ?? 0) + 1);
      return response;
    } catch (error) {
      counts.transportErrors += 1;
      throw error;
    }
  };
  const create = async (body: unknown, path = '/v2/shorten') => {
    const key = keys[keyTurn++ % KEYS] ?? '';
    const response = await call(path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.clone().text();
    for (const code of text.match(/"shortCode":"[^"]+"/g) ?? []) owners.set(code.slice(13, -1), key);
    return response;
  };

  const actions: Array<[weight: number, run: () => Promise<void>]> = [
    [30, async () => {
      const url = `https://example.com/soak/${Math.random().toString(36).slice(2)}`;
      const response = await create({ url });
      if (response.status === 201) created.push({ code: ((await response.json()) as { shortCode: string }).shortCode, url });
    }],
    [5, async () => {
      const urls = Array.from({ length: 10 }, () => ({ url: `https://example.com/soak/batch/${Math.random().toString(36).slice(2)}` }));
      const response = await create({ urls }, '/v2/shorten/batch');
      if (response.status !== 200) return;
      const { results } = (await response.json()) as { results: Array<{ index: number; success: boolean; shortCode?: string }> };
      for (const result of results) if (result.success && result.shortCode) created.push({ code: result.shortCode, url: urls[result.index]?.url ?? '' });
    }],
    [35, async () => {
      const link = created[Math.floor(Math.random() * created.length)];
      if (!link) return;
      const response = await call(`/${link.code}`);
      if (response.status !== 302 || response.headers.get('location') !== link.url) throw new Error(`redirect of ${link.code} answered ${response.status}`);
    }],
    [5, async () => {
      const url = `https://example.com/soak/limited/${Math.random().toString(36).slice(2)}`;
      const response = await create({ url, maxClicks: MAX_CLICKS });
      if (response.status === 201) limited.push({ code: ((await response.json()) as { shortCode: string }).shortCode, url, redirects: 0 });
    }],
    [10, async () => {
      const link = limited[Math.floor(Math.random() * limited.length)];
      if (!link) return;
      const response = await call(`/${link.code}`, { headers: { accept: 'application/json' } });
      if (response.status === 302) link.redirects += 1;
      await response.arrayBuffer();
    }],
    [PASSWORD_WEIGHT, async () => {
      const url = `https://example.com/soak/secret/${Math.random().toString(36).slice(2)}`;
      const response = await create({ url, password: 'soak-password' });
      if (response.status !== 201) return;
      const { shortCode } = (await response.json()) as { shortCode: string };
      const form = await call(`/${shortCode}`);
      const cookie = form.headers.get('set-cookie')?.split(';')[0] ?? '';
      const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
      const submitted = await call(`/${shortCode}`, { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ password: 'soak-password', csrf }).toString() });
      if (submitted.status !== 302 || submitted.headers.get('location') !== url) throw new Error(`password link ${shortCode} answered ${submitted.status}`);
    }],
    [10, async () => {
      const response = await create({ url: 'not a url', alias: 'x' });
      if (response.status !== 400) throw new Error(`a bad request answered ${response.status}`);
      await response.arrayBuffer();
    }],
  ];
  const totalWeight = actions.reduce((sum, [weight]) => sum + weight, 0);
  const pick = () => {
    let roll = Math.random() * totalWeight;
    for (const [weight, run] of actions) {
      roll -= weight;
      if (roll < 0) return run;
    }
    return actions[0]?.[1] as () => Promise<void>;
  };

  const failures: string[] = [];
  const started = Date.now();
  const deadline = started + SECONDS * 1000;
  const rss: Array<[string, number]> = [];
  const sampler = setInterval(() => rss.push([`${Math.round((Date.now() - started) / 1000)} s`, stackRssMb(stack.child.pid ?? 0)]), 5_000);
  rss.push(['0 s', stackRssMb(stack.child.pid ?? 0)]);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < deadline) await pick()().catch((error: unknown) => failures.push(String(error)));
    }),
  );
  clearInterval(sampler);
  rss.push([`${Math.round((Date.now() - started) / 1000)} s`, stackRssMb(stack.child.pid ?? 0)]);
  const loadRequests = counts.requests;

  // Afterwards: every created link still leads where it should, and every maxClicks link ends at exactly MAX_CLICKS.
  let lost = 0;
  for (const link of created) {
    const response = await call(`/${link.code}`);
    if (response.status !== 302 || response.headers.get('location') !== link.url) lost += 1;
  }
  const duplicated = created.length - new Set(created.map((link) => link.code)).size;
  let wrongClickCounts = 0;
  for (const link of limited) {
    for (;;) {
      const response = await call(`/${link.code}`, { headers: { accept: 'application/json' } });
      await response.arrayBuffer();
      if (response.status === 302) link.redirects += 1;
      else break;
    }
    if (link.redirects !== MAX_CLICKS) wrongClickCounts += 1;
  }
  const clicks = await settledClickCounts(stack.url, owners, served);
  await stack.stop();

  const fiveXx = [...counts.byStatus].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
  const mid = rss[Math.floor(rss.length / 2)];
  console.log(`| duration, concurrency | ${SECONDS} s, ${CONCURRENCY} |`);
  console.log(`| requests during the load | ${loadRequests} (${round(loadRequests / SECONDS, 0)} req/s) |`);
  console.log(`| answers by status | ${[...counts.byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`).join(', ')} |`);
  console.log(`| 5xx, transport errors, failed checks | ${fiveXx}, ${counts.transportErrors}, ${failures.length} |`);
  console.log(`| links created, lost, duplicated | ${created.length}, ${lost}, ${duplicated} |`);
  console.log(`| maxClicks links, not ending at exactly ${MAX_CLICKS} redirects | ${limited.length}, ${wrongClickCounts} |`);
  console.log(`| clicks: 302s served, counted (link views), links whose count differs | ${clicks.served}, ${clicks.counted}, ${clicks.differing} (after ${clicks.waitedSeconds} s) |`);
  console.log(`| RSS of the local stack (start, middle, end) | ${[rss[0], mid, rss[rss.length - 1]].map((sample) => `${round(sample?.[1] ?? 0, 0)} MB at ${sample?.[0]}`).join(', ')} |`);
  console.log(`| RSS every 5 s | ${rss.map(([, mb]) => round(mb, 0)).join(', ')} MB |`);
  if (failures.length > 0) console.error(failures.slice(0, 5).join('\n'));
  if (fiveXx + counts.transportErrors + failures.length + lost + duplicated + wrongClickCounts + clicks.differing > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
