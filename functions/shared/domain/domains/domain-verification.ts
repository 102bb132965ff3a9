import type { DomainRecord } from './custom-domain';
import type { DomainAttachments, DomainStore } from '../ports';
import { checksExhausted, nextCheckAt } from './verification-schedule';

const GAVE_UP = 'Not verified after 7 days of checks: fix the DNS record, then verify again';

/**
 * One check of a domain and the status it leads to: active once it serves; still pending with the reason
 * otherwise, checked again on the schedule; failed after 7 days of checks. A failed domain checked on request
 * starts a new round. Active and disabled domains keep their status (an operator's disable outranks a check).
 * Each change is one conditional write on the status read, so a concurrent delete or disable wins.
 */
export async function checkNow(record: DomainRecord, nowMs: number, deps: { domains: DomainStore; attachments: DomainAttachments }): Promise<DomainRecord> {
  if (record.status === 'disabled') return record;
  const at = new Date(nowMs).toISOString();
  const restarted = record.status === 'failed';
  const checksStartedAt = restarted ? at : (record.checksStartedAt ?? record.createdAt);
  const check = await deps.attachments.check(record.domain);
  const from = [record.status];
  if (check.serving) {
    if (record.status === 'active') return record;
    return (await deps.domains.transition(record.domain, { from, change: { status: 'active', at }, verifiedAt: at, nextCheckAt: null })) ?? record;
  }
  if (record.status === 'active') return record;
  const startedMs = Date.parse(checksStartedAt);
  const outcome = checksExhausted(startedMs, nowMs)
    ? { from, change: { status: 'failed' as const, at, reason: `${GAVE_UP} (${check.reason})` }, nextCheckAt: null }
    : { from, change: { status: 'pending' as const, at, reason: check.reason }, nextCheckAt: nextCheckAt(startedMs, nowMs), ...(restarted ? { checksStartedAt } : {}) };
  return (await deps.domains.transition(record.domain, outcome)) ?? record;
}
