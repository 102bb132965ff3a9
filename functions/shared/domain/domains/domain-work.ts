import { mapWithConcurrency } from '../concurrency';
import type { DomainAttachments, DomainCleanup, DomainStore, ManagedLinkStore } from '../ports';
import { checkNow } from './domain-verification';

export interface DomainWorkDeps {
  domains: DomainStore;
  attachments: DomainAttachments;
  links: Pick<ManagedLinkStore, 'keysOnDomain' | 'markDeleted'>;
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
    const record = await deps.domains.find(name);
    if (!record) continue;
    await checkNow(record, nowMs, deps);
    done.checked += 1;
  }
  for (const cleanup of await deps.domains.dueCleanups(nowMs, CLEANUPS_PER_RUN)) {
    const { deleted, finished } = await cleanUp(cleanup, nowMs, deps);
    done.linksDeleted += deleted;
    if (finished) done.cleanupsFinished += 1;
  }
  return done;
}

/**
 * A removed domain's links become `deleted`, each once: the write is conditional on the link still being the former
 * owner's and changeable, and only links created before the removal are read (a new claim's links are not touched).
 * Then the CloudFront tenant goes; the cleanup is finished only when both are done, so a crash repeats it.
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
  // Claimed again meanwhile: the tenant now serves the new claim (its checks re-enable it), so it stays.
  const claimedAgain = (await deps.domains.find(cleanup.domain)) !== undefined;
  if (!claimedAgain && !(await deps.attachments.detach(cleanup.domain))) {
    await deps.domains.postponeCleanup(cleanup.id, nowMs + DETACH_RETRY_MS);
    return { deleted, finished: false };
  }
  await deps.domains.finishCleanup(cleanup.id);
  return { deleted, finished: true };
}
