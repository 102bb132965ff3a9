import { mapWithConcurrency } from '../concurrency';
import type { DomainCleanup, ManagedLinkStore } from '../ports';
import { checkNow, type CheckDeps } from './domain-verification';

export interface DomainWorkDeps extends CheckDeps {
  links: Pick<ManagedLinkStore, 'keysOnDomain' | 'markDeleted'>;
  /** Told of an item whose work threw: the run goes on with the next one. */
  workFailed: (domain: string, error: unknown) => void;
}

/** One run of the scheduler handles at most this much, so a run stays well inside its timeout; the rest waits a turn. */
const CHECKS_PER_RUN = 50;
const CLEANUPS_PER_RUN = 5;
const LINKS_PER_CLEANUP_RUN = 2_000;
const WRITE_CONCURRENCY = 10;
/** A CloudFront tenant is disabled before it can go: the next try a minute on. */
const DETACH_RETRY_MS = 60_000;

export interface WorkDone {
  checked: number;
  linksDeleted: number;
  cleanupsFinished: number;
}

/** The scheduled work on domains (every minute on AWS): due checks of pending domains, then removed domains' cleanups. */
export async function runDomainWork(nowMs: number, deps: DomainWorkDeps): Promise<WorkDone> {
  const done: WorkDone = { checked: 0, linksDeleted: 0, cleanupsFinished: 0 };
  for (const name of await deps.domains.dueChecks(nowMs, CHECKS_PER_RUN)) {
    if (await checkDue(name, nowMs, deps)) done.checked += 1;
  }
  for (const cleanup of await deps.domains.dueCleanups(nowMs, CLEANUPS_PER_RUN)) {
    try {
      const { deleted, finished } = await cleanUp(cleanup, nowMs, deps);
      done.linksDeleted += deleted;
      if (finished) done.cleanupsFinished += 1;
    } catch (error) {
      // One cleanup failing (a throttled write, a tenant changed meanwhile) waits a turn; the others go on.
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
  await deps.domains.postponeCleanup(cleanup.id, nowMs + DETACH_RETRY_MS);
  return false;
}

/**
 * A removed domain's links become `deleted`, each once: the write is conditional on the link still being the former
 * owner's and changeable, and only links created before the removal are read (a new claim's links are not touched).
 * Then the claim's CloudFront tenant goes; the cleanup is finished only when both are done, so a crash repeats it.
 */
async function cleanUp(cleanup: DomainCleanup, nowMs: number, deps: DomainWorkDeps): Promise<{ deleted: number; finished: boolean }> {
  let deleted = 0;
  let examined = 0;
  let after: string | undefined;
  do {
    const page = await deps.links.keysOnDomain(cleanup.domain, cleanup.formerOwner, cleanup.deletedAt, after);
    const results = await mapWithConcurrency(page.keys, WRITE_CONCURRENCY, (key) => deps.links.markDeleted(key, cleanup.formerOwner, nowMs));
    deleted += results.filter((result) => result.done).length;
    examined += page.keys.length;
    after = page.next;
  } while (after && examined < LINKS_PER_CLEANUP_RUN);
  if (after) {
    await deps.domains.postponeCleanup(cleanup.id, nowMs);
    return { deleted, finished: false };
  }
  if (!(await detachRemovedClaim(cleanup, nowMs, deps))) return { deleted, finished: false };
  await deps.domains.finishCleanup(cleanup.id);
  return { deleted, finished: true };
}
