import type { AuditRecord } from '../../../../functions/shared/domain/audit/audit-record';
import type { AuditStamp } from '../../../../functions/shared/domain/audit/audit-stamp';
import { addDomain, editDomain, removeDomain, type DomainContext } from '../../../../functions/shared/domain/domains/domain-management';
import { disableDomain } from '../../../../functions/shared/domain/domains/domain-takedown';
import { claimableDomain } from '../../../../functions/shared/domain/domains/domain-name';
import type { DomainRecord } from '../../../../functions/shared/domain/domains/custom-domain';
import { SAFE_DEFAULT_FLAGS } from '../../../../functions/shared/domain/limits/flags';
import { createLinks } from '../../../../functions/shared/domain/links/link-creation';
import { deleteLink, editLink } from '../../../../functions/shared/domain/links/link-management';
import type { LinkRecord } from '../../../../functions/shared/domain/links/link';
import type { ManagementContext } from '../../../../functions/shared/domain/links/link-viewing';
import type { DomainClaim, DomainSettings, DomainTransition, GuardedWrite, ManagedLinkStore, WebhookChanges } from '../../../../functions/shared/domain/ports';
import { addWebhook, editWebhook, removeWebhook, rotateSecret, type WebhookContext } from '../../../../functions/shared/domain/webhooks/webhook-management';
import type { WebhookRecord } from '../../../../functions/shared/domain/webhooks/webhook';
import { FixedAttachments, ListSafetyChecker, MemoryAliasOverrides, MemoryDomainStore, MemoryLinkStore, PublishedTxtRecords, smartFields } from '../../../support/in-memory-ports';
import { MarkingSealer, MemoryDeliveryQueue, MemoryWebhookStore } from '../../../support/in-memory-webhooks';
import { keyCaller } from '../../../support/callers';

const nowMs = Date.parse('2026-11-25T10:00:00.000Z');
const caller = keyCaller({ keyId: 'key_w1', accountId: 'acct_w1', owner: 'acct:acct_w1', plan: 'PRO', actor: { kind: 'key', keyId: 'key_w1', name: 'CI' } });
const author = { actor: caller.actor, requestId: 'req-1' };

/** Records what each audited write was given, as the DynamoDB stores write it in the change's transaction. */
class RecordingDomainStore extends MemoryDomainStore {
  readonly audits: AuditRecord[] = [];
  private keep(audit: AuditRecord | undefined) {
    if (audit) this.audits.push(audit);
  }
  override async claim(record: DomainRecord, allowance: number | null, audit?: AuditRecord): Promise<DomainClaim> {
    const claim = await super.claim(record, allowance);
    if (claim === 'claimed') this.keep(audit);
    return claim;
  }
  override async updateSettings(domain: string, owner: string, settings: DomainSettings, audit?: AuditRecord) {
    const updated = await super.updateSettings(domain, owner, settings);
    if (updated) this.keep(audit);
    return updated;
  }
  override async transition(domain: string, transition: DomainTransition, audit?: AuditRecord) {
    const moved = await super.transition(domain, transition);
    if (moved) this.keep(audit);
    return moved;
  }
  override async remove(record: DomainRecord, at: number, heldUntilMs?: number, audit?: AuditRecord) {
    const removed = await super.remove(record, at, heldUntilMs);
    if (removed) this.keep(audit);
    return removed;
  }
}

class RecordingWebhookStore extends MemoryWebhookStore {
  readonly audits: AuditRecord[] = [];
  override async add(record: WebhookRecord, limit: number, audit?: AuditRecord) {
    const added = await super.add(record, limit);
    if (added === 'added' && audit) this.audits.push(audit);
    return added;
  }
  override async update(owner: string, id: string, changes: WebhookChanges, audit?: AuditRecord) {
    const updated = await super.update(owner, id, changes);
    if (updated && audit) this.audits.push(audit);
    return updated;
  }
  override async remove(owner: string, id: string, audit?: AuditRecord) {
    const removed = await super.remove(owner, id);
    if (removed && audit) this.audits.push(audit);
    return removed;
  }
}

describe('a webhook\'s changes', () => {
  const context: WebhookContext = { caller, author, flags: SAFE_DEFAULT_FLAGS, nowMs, localReceivers: new Set(), timeScale: 1 };
  const setup = () => {
    const webhooks = new RecordingWebhookStore();
    return { webhooks, deps: { webhooks, queue: new MemoryDeliveryQueue(), safety: new ListSafetyChecker([]), secrets: new MarkingSealer() } };
  };

  it('are recorded created, updated, rotated and deleted, by the key and request, never with a secret', async () => {
    const { webhooks, deps } = setup();
    const created = await addWebhook({ url: 'https://hooks.example.com/in', events: ['link.created'] }, context, deps);
    await editWebhook(created.id, { description: 'CRM', enabled: false }, context, deps);
    const rotated = await rotateSecret(created.id, {}, context, deps);
    await removeWebhook(created.id, context, deps);
    expect(webhooks.audits.map((record) => record.action)).toEqual(['webhook.created', 'webhook.updated', 'webhook.secret-rotated', 'webhook.deleted']);
    for (const record of webhooks.audits) {
      expect(record).toMatchObject({ workspaceId: 'acct_w1', actor: { kind: 'key', keyId: 'key_w1', name: 'CI' }, target: { type: 'webhook', id: created.id }, requestId: 'req-1' });
    }
    const [made, edited, rotation, deleted] = webhooks.audits as [AuditRecord, AuditRecord, AuditRecord, AuditRecord];
    expect(made.changes).toMatchObject({ url: { after: 'https://hooks.example.com/in' }, events: { after: ['link.created'] }, secret: { after: { changed: true } } });
    expect(edited.changes).toEqual({ description: { before: '', after: 'CRM' }, enabled: { before: true, after: false } });
    expect(rotation.changes).toEqual({ secret: { after: { changed: true } }, previousSecret: { after: { changed: true } } });
    expect(deleted.changes).toMatchObject({ url: { before: 'https://hooks.example.com/in' }, secret: { after: { changed: true } } });
    const everything = JSON.stringify(webhooks.audits);
    for (const secret of [created.secret, rotated.secret, 'whsec_', 'sealed.']) expect(everything).not.toContain(secret);
  });
});

describe('a domain\'s changes', () => {
  const context: DomainContext = { caller, author, flags: SAFE_DEFAULT_FLAGS, nowMs, ownHosts: ['sho.rt'] };
  const setup = () => {
    const domains = new RecordingDomainStore();
    const deps = { domains, attachments: new FixedAttachments(), txt: new PublishedTxtRecords(), safety: new ListSafetyChecker([]), claimable: () => Promise.resolve(claimableDomain) };
    return { domains, deps };
  };

  it('are recorded claimed, updated and removed with the fields that moved', async () => {
    const { domains, deps } = setup();
    await addDomain({ domain: 'go.acme.com' }, context, deps);
    await editDomain('go.acme.com', { rootUrl: 'https://acme.com/' }, context, deps);
    await editDomain('go.acme.com', { rootUrl: null }, context, deps);
    await removeDomain('go.acme.com', context, deps);
    expect(domains.audits.map((record) => [record.action, record.changes])).toEqual([
      ['domain.claimed', { isDefault: { after: false }, status: { after: 'pending' }, statusReason: { after: 'Waiting for the first check of its DNS records' } }],
      ['domain.updated', { rootUrl: { after: 'https://acme.com/' } }],
      ['domain.updated', { rootUrl: { before: 'https://acme.com/' } }],
      ['domain.removed', { isDefault: { before: false }, status: { before: 'pending' }, statusReason: { before: 'Waiting for the first check of its DNS records' } }],
    ]);
    expect(domains.audits.every((record) => record.target.id === 'go.acme.com' && record.workspaceId === 'acct_w1' && record.requestId === 'req-1')).toBe(true);
  });

  it('write no record when the change is refused (another workspace\'s name)', async () => {
    const { domains, deps } = setup();
    await addDomain({ domain: 'go.acme.com' }, context, deps);
    const other = { ...context, caller: keyCaller({ keyId: 'key_w2', accountId: 'acct_w2', owner: 'acct:acct_w2', plan: 'PRO' }) };
    await expect(addDomain({ domain: 'go.acme.com' }, other, deps)).rejects.toThrow();
    await expect(editDomain('go.acme.com', { rootUrl: 'https://evil.example.com/' }, other, deps)).rejects.toThrow();
    expect(domains.audits.map((record) => record.action)).toEqual(['domain.claimed']);
  });

  it('include an operator\'s takedown, in the owner\'s workspace', async () => {
    const { domains, deps } = setup();
    await addDomain({ domain: 'go.acme.com' }, context, deps);
    await disableDomain('go.acme.com', 'phishing', nowMs + 1_000, domains);
    expect(domains.audits[1]).toMatchObject({ workspaceId: 'acct_w1', actor: { kind: 'operator' }, action: 'domain.disabled', changes: { status: { before: 'pending', after: 'disabled' }, statusReason: { after: 'phishing' } } });
    expect(domains.audits[1]).not.toHaveProperty('requestId');
  });
});

describe('a link\'s changes', () => {
  it('carry the stamp of their action, key and request to the store; v1\'s anonymous creations carry none', async () => {
    const stamps: Array<AuditStamp | undefined> = [];
    class StampedLinks extends MemoryLinkStore {
      override async createIfAbsent(link: LinkRecord, stamp?: AuditStamp) {
        stamps.push(stamp);
        return super.createIfAbsent(link);
      }
    }
    const links = new StampedLinks();
    const deps = { links, safety: new ListSafetyChecker([]), aliasOverrides: new MemoryAliasOverrides([]), domains: new MemoryDomainStore(), smartFields };
    const base = { flags: SAFE_DEFAULT_FLAGS, nowMs, shortBaseUrl: 'https://sho.rt/' };
    await createLinks([{ url: 'https://example.com/a' }, { url: 'https://example.com/b' }], { ...base, caller, author }, deps);
    await createLinks([{ url: 'https://example.com/c' }], { ...base, caller: { kind: 'anonymous', client: 'c1' } }, deps);
    expect(stamps.slice(0, 2)).toEqual([
      { id: expect.any(String), action: 'link.created', actor: caller.actor, at: '2026-11-25T10:00:00.000Z', requestId: 'req-1' },
      { id: expect.any(String), action: 'link.created', actor: caller.actor, at: '2026-11-25T10:00:00.000Z', requestId: 'req-1' },
    ]);
    expect(stamps[0]?.id).not.toBe(stamps[1]?.id);
    expect(stamps[2]).toBeUndefined();
  });

  it('stamp edits and deletes with their own action', async () => {
    const link: LinkRecord = { code: 'abc1234', url: 'https://example.com/', isAlias: false, createdAt: '2026-11-25T09:00:00.000Z', clicks: 0, owner: 'acct:acct_w1' };
    const stamps: Array<AuditStamp | undefined> = [];
    const done: GuardedWrite = { done: true, link };
    const links = {
      find: async () => link,
      update: async (...args: unknown[]) => (stamps.push(args[5] as AuditStamp), done),
      markDeleted: async (...args: unknown[]) => (stamps.push(args[4] as AuditStamp), done),
    } as unknown as ManagedLinkStore;
    const context: ManagementContext = { caller, author, flags: SAFE_DEFAULT_FLAGS, nowMs, shortBaseUrl: 'https://sho.rt' };
    await editLink('abc1234', { url: 'https://example.org/' }, context, { links, safety: new ListSafetyChecker([]), smartFields });
    await deleteLink('abc1234', context, { links });
    expect(stamps.map((stamp) => [stamp?.action, stamp?.actor, stamp?.requestId])).toEqual([
      ['link.updated', caller.actor, 'req-1'],
      ['link.deleted', caller.actor, 'req-1'],
    ]);
  });
});
