import type { AttachmentCheck, DomainAttachments, DomainStore, DomainTransition, TxtRecords } from '../ports';
import type { DomainRecord } from './custom-domain';
import { challengeMet, challengeRecord } from './dns-challenge';
import { checksExhausted, nextCheckAt } from './verification-schedule';
import { domainChangeRecord, transitioned, type DomainChangeAuthor } from './domain-audit';

const GAVE_UP = 'Not verified after 7 days of checks: fix the DNS records, then verify again (until then anyone may claim the name)';
const NO_CHALLENGE = 'This claim was made before DNS challenges: remove the domain and add it again to get its TXT record';
const CHECK_FAILED = 'The check could not finish; it is tried again later';

export interface CheckDeps {
  domains: DomainStore;
  attachments: DomainAttachments;
  txt: TxtRecords;
  /** Told of a check that threw (a CloudFront or DNS failure): the domain gets a reason, the caller logs the cause. */
  checkFailed?: (domain: string, error: unknown) => void;
}

/**
 * The claim's proof first (its TXT record, issue 27), and only then the attachment, which makes the CloudFront tenant:
 * nobody gets a tenant, let alone a certificate, for a name whose DNS they have not shown they control. A check that
 * throws becomes a reason, so one bad name never stops the others' checks.
 */
async function provenAndAttached(record: DomainRecord, deps: CheckDeps): Promise<AttachmentCheck> {
  if (!record.claimId) return { serving: false, reason: NO_CHALLENGE };
  const challenge = challengeRecord(record.domain, record.claimId);
  try {
    if (!challengeMet(await deps.txt.lookup(challenge.name), challenge)) {
      return { serving: false, reason: `The TXT record ${challenge.name} does not hold ${challenge.value} yet` };
    }
    return await deps.attachments.check(record.domain, record.claimId);
  } catch (error) {
    deps.checkFailed?.(record.domain, error);
    return { serving: false, reason: CHECK_FAILED };
  }
}

/**
 * One check of a domain and the status it leads to: active once its claim is proven and it serves; still pending
 * with the reason otherwise, checked again on the schedule; failed after 7 days of checks, which frees the name for
 * any claim (store.claim). A failed domain checked on request starts a new round. Active and disabled domains keep
 * their status (an operator's disable outranks a check). Each change is one conditional write on the status read,
 * so a concurrent delete or disable wins.
 */
export async function checkNow(record: DomainRecord, nowMs: number, deps: CheckDeps, requestedBy?: DomainChangeAuthor): Promise<DomainRecord> {
  if (record.status === 'disabled') return record;
  const at = new Date(nowMs).toISOString();
  const restarted = record.status === 'failed';
  const checksStartedAt = restarted ? at : (record.checksStartedAt ?? record.createdAt);
  const check = await provenAndAttached(record, deps);
  const from = [record.status];
  // A check someone asked for (POST …/verify) is recorded when it changes the status; the schedule's are the service's.
  const moved = (transition: DomainTransition) => {
    if (requestedBy === undefined || transition.from.includes(transition.change.status)) return deps.domains.transition(record.domain, transition);
    const after = transitioned(record, transition.change.status, transition.change.reason, transition.verifiedAt);
    const action = transition.change.status === 'active' ? 'domain.verified' : 'domain.checked';
    return deps.domains.transition(record.domain, transition, domainChangeRecord(action, requestedBy, record, after, nowMs));
  };
  if (check.serving) {
    if (record.status === 'active') return record;
    return (await moved({ from, change: { status: 'active', at }, verifiedAt: at, nextCheckAt: null })) ?? record;
  }
  if (record.status === 'active') return record;
  const startedMs = Date.parse(checksStartedAt);
  const outcome: DomainTransition = checksExhausted(startedMs, nowMs)
    ? { from, change: { status: 'failed' as const, at, reason: `${GAVE_UP} (${check.reason})` }, nextCheckAt: null }
    : { from, change: { status: 'pending' as const, at, reason: check.reason }, nextCheckAt: nextCheckAt(startedMs, nowMs), ...(restarted ? { checksStartedAt } : {}) };
  return (await moved(outcome)) ?? record;
}
