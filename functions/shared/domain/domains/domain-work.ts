import { mapWithConcurrency } from '../concurrency';
import type { DomainCleanup, ManagedLinkStore } from '../ports';
import { checkNow, type CheckDeps } from './domain-verification';

export interface DomainWorkDeps extends CheckDeps {
  links: Pick<ManagedLinkStore, 'keysOnDomain' | 'clearOfRemovedDomain'>;
  /** Told of an item whose work threw: the run goes on with the next one. */
  workFailed: (domain: string, error: unknown) => void;
}

/** One run of the scheduler handles at most this much, so a run stays well inside its timeout; the rest waits a turn. */
const CHECKS_PER_RUN = 50;
const CLEANUPS_PER_RUN = 5;
/** Links read per run by all cleanups together (each one a conditional write at most): a big domain takes several runs. */
export const LINKS_EXAMINED_PER_RUN = 2_000;
const WRITE_CONCURRENCY = 10;
/** A CloudFront tenant is disabled before it can go: the next try a minute on. */
const DETACH_RETRY_MS = 60_000;
/** A cleanup whose links failed (throttled, the table unavailable) waits a minute, then twice as long each time, up to an hour. */
const CLEANUP_RETRY_MS = { first: 60_000, longest: 3_600_000 };

export interface WorkDone {
  checked: number;
  linksExamined: number;
  linksDeleted: number;
  cleanupsFinished: number;
}

/** The scheduled work on domains (every minute on AWS): due checks of pending domains, then removed domains' cleanups. */
export async function runDomainWork(nowMs: number, deps: DomainWorkDeps): Promise<WorkDone> {
  const done: WorkDone = { checked: 0, linksExamined: 0, linksDeleted: 0, cleanupsFinished: 0 };
  for (const name of await deps.domains.dueChecks(nowMs, CHECKS_PER_RUN)) {
    if (await checkDue(name, nowMs, deps)) done.checked += 1;
  }
  for (const cleanup of await deps.domains.dueCleanups(nowMs, CLEANUPS_PER_RUN)) {
    const budget = LINKS_EXAMINED_PER_RUN - done.linksExamined;
    // The rest wait for the next run (a cleanup that only has its tenant left reads no link).
    if (budget <= 0 && !cleanup.linksCleared) break;
    try {
      const { examined, deleted, finished } = await cleanUp(cleanup, budget, nowMs, deps);
      done.linksExamined += examined;
      done.linksDeleted += deleted;
      if (finished) done.cleanupsFinished += 1;
    } catch (error) {
      // One cleanup failing (a tenant changed meanwhile, the domains table unavailable) waits a turn; the others go on.
      deps.workFailed(cleanup.domain, error);
      await deps.domains.postponeCleanup(cleanup.id, nowMs + DETACH_RETRY_MS).catch(() => undefined);
    }
  }
  return done;
}

/**
 * One due check, caught on its own (issue 27): a failing CloudFront call becomes the domain's reason and its next
 * check waits for the schedule (checkNow), and a failing read or write waits for the next run, never stopping the
 * checks after it.
 */
async function checkDue(name: string, nowMs: number, deps: DomainWorkDeps): Promise<boolean> {
  try {
    const record = await deps.domains.find(name);
    if (!record) return false;
    await checkNow(record, nowMs, { ...deps, checkFailed: deps.workFailed });
    return true;
  } catch (error) {
    deps.workFailed(name, error);
    return false;
  }
}

/**
 * The removed claim's tenant goes, whoever claims the name next: tenants belong to one claim (named by its id), so
 * a new claim gets a tenant of its own once this one is gone and never inherits the former owner's.
 */
async function detachRemovedClaim(cleanup: DomainCleanup, nowMs: number, deps: DomainWorkDeps): Promise<boolean> {
  if (await deps.attachments.detach(cleanup.domain, cleanup.claimId)) return true;
  // Its links are done: the next try goes straight to the tenant.
  await deps.domains.postponeCleanup(cleanup.id, nowMs + DETACH_RETRY_MS, { linksCleared: true });
  return false;
}

/**
 * A removed domain's links become bare tombstones, each once: the write is conditional on the link still being the
 * former owner's with something left to clear, and only links created before the removal are read (a new claim's
 * links are not touched). The cleanup reads on from where its last run stopped, `budget` links at most per run.
 * Then the claim's CloudFront tenant goes; the cleanup is finished only when both are done, so a crash repeats the rest.
 */
async function cleanUp(cleanup: DomainCleanup, budget: number, nowMs: number, deps: DomainWorkDeps): Promise<{ examined: number; deleted: number; finished: boolean }> {
  let examined = 0;
  let deleted = 0;
  let after = cleanup.cursor;
  let cleared = cleanup.linksCleared === true;
  try {
    while (!cleared && examined < budget) {
      const page = await deps.links.keysOnDomain(cleanup.domain, cleanup.formerOwner, cleanup.deletedAt, { limit: budget - examined, ...(after ? { after } : {}) });
      const results = await mapWithConcurrency(page.keys, WRITE_CONCURRENCY, (key) => deps.links.clearOfRemovedDomain(key, cleanup.formerOwner, nowMs));
      deleted += results.filter(Boolean).length;
      // At least one, so that a page that examined nothing cannot loop.
      examined += Math.max(page.examined, 1);
      after = page.next;
      cleared = after === undefined;
    }
  } catch (error) {
    // The page that failed is read again, later each time: its links already cleared are refused by their condition.
    deps.workFailed(cleanup.domain, error);
    const failures = (cleanup.failures ?? 0) + 1;
    const delay = Math.min(CLEANUP_RETRY_MS.first * 2 ** (failures - 1), CLEANUP_RETRY_MS.longest);
    await deps.domains.postponeCleanup(cleanup.id, nowMs + delay, { ...(after ? { cursor: after } : {}), failures });
    return { examined, deleted, finished: false };
  }
  if (!cleared) {
    await deps.domains.postponeCleanup(cleanup.id, nowMs, { ...(after ? { cursor: after } : {}) });
    return { examined, deleted, finished: false };
  }
  if (!(await detachRemovedClaim(cleanup, nowMs, deps))) return { examined, deleted, finished: false };
  await deps.domains.finishCleanup(cleanup.id);
  return { examined, deleted, finished: true };
}
