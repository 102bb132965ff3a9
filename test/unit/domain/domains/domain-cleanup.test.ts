import type { DomainRecord } from '../../../../functions/shared/domain/domains/custom-domain';
import { LINKS_EXAMINED_PER_RUN, runDomainWork } from '../../../../functions/shared/domain/domains/domain-work';
import type { ManagedLinkStore } from '../../../../functions/shared/domain/ports';
import { FixedAttachments, MemoryDomainStore, PublishedTxtRecords } from '../../../support/in-memory-ports';

/**
 * A removed domain's cleanup (issue 27): it keeps its place between the scheduler's runs, reads a bounded number of
 * links per run, and backs off when its writes fail. DynamoDB's side: test/integration/reclaimed-domain.test.ts.
 */
const nowMs = Date.parse('2026-11-22T10:00:00.000Z');
const MINUTE = 60_000;

/** A domain's links as the index pages them: `limit` examined per page, the cursor the index of the next one. */
class PagedLinks implements Pick<ManagedLinkStore, 'keysOnDomain' | 'clearOfRemovedDomain'> {
  readonly cleared = new Map<string, number>();
  readonly pagesFrom: number[] = [];
  failOn?: string;

  constructor(private readonly keysByDomain: Record<string, string[]>) {}

  async keysOnDomain(domain: string, _owner: string, _upTo: string, page: { limit: number; after?: string }) {
    const keys = this.keysByDomain[domain] ?? [];
    const start = page.after === undefined ? 0 : Number(page.after);
    this.pagesFrom.push(start);
    const end = Math.min(start + Math.min(page.limit, 300), keys.length);
    return { keys: keys.slice(start, end), examined: end - start, ...(end < keys.length ? { next: String(end) } : {}) };
  }

  async clearOfRemovedDomain(key: string): Promise<boolean> {
    if (key === this.failOn) throw new Error('ProvisionedThroughputExceededException: slow down');
    const times = this.cleared.get(key) ?? 0;
    this.cleared.set(key, times + 1);
    return times === 0;
  }
}

const keysOf = (domain: string, count: number) => Array.from({ length: count }, (_, index) => `${domain}/c${String(index).padStart(5, '0')}`);

/** The worker's dependencies, with the failures it was told of. */
function workOn(domains: MemoryDomainStore, links: PagedLinks, attachments = new FixedAttachments()) {
  const failures: Array<{ domain: string; error: unknown }> = [];
  const deps = { domains, attachments, txt: new PublishedTxtRecords(), links, workFailed: (domain: string, error: unknown) => failures.push({ domain, error }) };
  return { deps, failures, attachments };
}

async function removed(domains: MemoryDomainStore, ...names: string[]): Promise<void> {
  for (const name of names) {
    const record: DomainRecord = { domain: name, owner: 'acct:a', status: 'active', isDefault: false, dnsRecords: [], createdAt: '2026-11-01T00:00:00.000Z', history: [] };
    await domains.claim(record, null);
    await domains.remove(record, nowMs);
  }
}

describe('cleaning up a removed domain', () => {
  it('finishes a domain with more links than one run reads over several runs, each going on from where the last stopped', async () => {
    const domains = new MemoryDomainStore();
    await removed(domains, 'go.acme.com');
    const links = new PagedLinks({ 'go.acme.com': keysOf('go.acme.com', 4_500) });
    const { deps, attachments } = workOn(domains, links);
    const runs = [];
    for (let run = 1; run <= 3; run += 1) runs.push(await runDomainWork(nowMs + run * MINUTE, deps));
    expect(runs.map((done) => [done.linksExamined, done.linksDeleted, done.cleanupsFinished])).toEqual([
      [LINKS_EXAMINED_PER_RUN, 2_000, 0],
      [LINKS_EXAMINED_PER_RUN, 2_000, 0],
      [500, 500, 1],
    ]);
    // Each link written once: no run started again from the first page.
    expect(links.cleared.size).toBe(4_500);
    expect([...links.cleared.values()].every((times) => times === 1)).toBe(true);
    expect(links.pagesFrom.filter((start) => start === 0)).toHaveLength(1);
    expect(attachments.detached).toEqual(['go.acme.com']);
    expect(domains.cleanups).toEqual([]);
  });

  it('shares one budget among the cleanups of a run: the rest wait their turn', async () => {
    const domains = new MemoryDomainStore();
    await removed(domains, 'one.acme.com', 'two.acme.com', 'three.acme.com');
    const links = new PagedLinks({ 'one.acme.com': keysOf('one.acme.com', 1_500), 'two.acme.com': keysOf('two.acme.com', 1_500), 'three.acme.com': keysOf('three.acme.com', 10) });
    const { deps } = workOn(domains, links);
    expect(await runDomainWork(nowMs + MINUTE, deps)).toMatchObject({ linksExamined: 2_000, cleanupsFinished: 1 });
    expect(await runDomainWork(nowMs + 2 * MINUTE, deps)).toMatchObject({ linksExamined: 1_010, cleanupsFinished: 2 });
    expect(links.cleared.size).toBe(3_010);
  });

  it('keeps what it did when a write fails, and tries the rest again after a minute, then two, four... up to an hour', async () => {
    const domains = new MemoryDomainStore();
    await removed(domains, 'go.acme.com');
    const keys = keysOf('go.acme.com', 1_000);
    const links = new PagedLinks({ 'go.acme.com': keys });
    links.failOn = keys[700];
    const { deps, failures } = workOn(domains, links);
    expect(await runDomainWork(nowMs, deps)).toMatchObject({ linksExamined: 600 });
    expect(failures).toEqual([{ domain: 'go.acme.com', error: new Error('ProvisionedThroughputExceededException: slow down') }]);
    expect(domains.cleanups[0]).toMatchObject({ cursor: '600', failures: 1, dueAt: nowMs + MINUTE });
    expect(await runDomainWork(nowMs + MINUTE - 1, deps)).toMatchObject({ linksExamined: 0 });
    expect(failures).toHaveLength(1);
    await runDomainWork(nowMs + MINUTE, deps);
    expect(domains.cleanups[0]).toMatchObject({ cursor: '600', failures: 2, dueAt: nowMs + 3 * MINUTE });
    for (let failures = 3; failures <= 9; failures += 1) await runDomainWork(domains.cleanups[0]?.dueAt ?? 0, deps);
    const waited = (domains.cleanups[0]?.dueAt ?? 0) - nowMs;
    await runDomainWork(nowMs + waited, deps);
    expect((domains.cleanups[0]?.dueAt ?? 0) - (nowMs + waited)).toBe(60 * MINUTE);
    // The write succeeds again: the cleanup goes on from its cursor and its failures are forgotten.
    delete links.failOn;
    const failed = failures.length;
    expect(await runDomainWork(domains.cleanups[0]?.dueAt ?? 0, deps)).toMatchObject({ linksExamined: 400, cleanupsFinished: 1 });
    expect(failures).toHaveLength(failed);
    expect(links.pagesFrom.filter((start) => start === 0)).toHaveLength(1);
    expect(links.cleared.size).toBe(1_000);
  });

  it('tries a tenant that cannot go yet again a minute on, without reading the links again', async () => {
    const domains = new MemoryDomainStore();
    await removed(domains, 'go.acme.com');
    const links = new PagedLinks({ 'go.acme.com': keysOf('go.acme.com', 10) });
    const { deps, attachments } = workOn(domains, links);
    let ready = false;
    attachments.detach = async (domain) => {
      attachments.detached.push(domain);
      return ready;
    };
    expect(await runDomainWork(nowMs, deps)).toMatchObject({ linksExamined: 10, cleanupsFinished: 0 });
    ready = true;
    expect(await runDomainWork(nowMs + MINUTE, deps)).toMatchObject({ linksExamined: 0, cleanupsFinished: 1 });
    expect(links.pagesFrom).toEqual([0]);
    expect(attachments.detached).toEqual(['go.acme.com', 'go.acme.com']);
  });
});
