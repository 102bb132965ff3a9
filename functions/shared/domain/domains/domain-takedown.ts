import type { DomainStore } from '../ports';
import type { DomainRecord } from './custom-domain';
import type { AuditRecord } from '../audit/audit-record';
import { OPERATOR } from '../audit/audit-stamp';
import { workspaceOfOwner } from '../accounts/accounts';
import { domainChangeRecord, transitioned } from './domain-audit';

/** An operator's change to a workspace's domain, as its audit log records it (none for a domain no workspace holds). */
function operatorRecord(action: string, before: DomainRecord, after: DomainRecord | undefined, nowMs: number): AuditRecord | undefined {
  const workspaceId = workspaceOfOwner(before.owner);
  return workspaceId === undefined ? undefined : domainChangeRecord(action, { author: OPERATOR, workspaceId }, before, after, nowMs);
}

/**
 * An operator's takedown of a whole domain: every link on it answers 410 "disabled" (visits.ts), the owner can
 * neither verify nor change it back. One conditional write on the status read, so it cannot race a check.
 */
export async function disableDomain(name: string, reason: string, nowMs: number, domains: DomainStore): Promise<DomainRecord | undefined> {
  const record = await domains.find(name);
  if (!record || record.status === 'disabled') return record;
  const audit = operatorRecord('domain.disabled', record, transitioned(record, 'disabled', reason), nowMs);
  return domains.transition(name, { from: [record.status], change: { status: 'disabled', at: new Date(nowMs).toISOString(), reason }, nextCheckAt: null }, audit);
}

/** Back to active if it ever was verified; else pending, with a fresh round of checks starting now. */
export async function enableDomain(name: string, nowMs: number, domains: DomainStore): Promise<DomainRecord | undefined> {
  const record = await domains.find(name);
  if (!record || record.status !== 'disabled') return record;
  const at = new Date(nowMs).toISOString();
  if (record.verifiedAt) {
    return domains.transition(name, { from: ['disabled'], change: { status: 'active', at }, nextCheckAt: null }, operatorRecord('domain.enabled', record, transitioned(record, 'active', undefined), nowMs));
  }
  const reason = 'Enabled again: waiting for the next check of its DNS record';
  const audit = operatorRecord('domain.enabled', record, transitioned(record, 'pending', reason), nowMs);
  return domains.transition(name, { from: ['disabled'], change: { status: 'pending', at, reason }, nextCheckAt: nowMs, checksStartedAt: at }, audit);
}

/** What a release did; `changed`: the claim changed while it was read (a check, its owner): run it again. */
export type Release = 'claimRemoved' | 'holdEnded' | 'nothing' | 'changed';

/**
 * An operator frees a name (`npm run ops -- domains release`): a claim on it, whatever its status (a takedown
 * included), is removed with no hold, its links deleted and its tenant removed in the background; a hold for a
 * former owner ends. Anyone may claim the name then, with a TXT record of their own.
 */
export async function releaseDomain(name: string, nowMs: number, domains: DomainStore): Promise<Release> {
  const record = await domains.find(name);
  if (record) return (await domains.remove(record, nowMs, undefined, operatorRecord('domain.released', record, undefined, nowMs))) ? 'claimRemoved' : 'changed';
  return (await domains.endHold(name)) ? 'holdEnded' : 'nothing';
}
