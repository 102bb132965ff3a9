import { smartFieldParsers } from '../../functions/shared/domain/destinations/smart-link-request';
import { SAFE_DEFAULT_FLAGS, type Flags } from '../../functions/shared/domain/limits/flags';
import { isExpired, keyOf, type LinkRecord } from '../../functions/shared/domain/links/link';
import type { DomainRecord } from '../../functions/shared/domain/domains/custom-domain';
import { isLeasable } from '../../functions/shared/domain/links/cache-lease';
import type {
  AliasOverrides,
  AttachmentCheck,
  ClickOutcome,
  DomainAttachments,
  CleanupProgress,
  DomainCleanup,
  DomainClaim,
  DomainHold,
  DomainSettings,
  DomainStore,
  DomainTransition,
  TxtRecords,
  FlagSource,
  LinkStore,
  SafetyChecker,
  UsageCounter,
  WorkspaceKeyStore,
} from '../../functions/shared/domain/ports';
import type { ApiKeyRecord } from '../../functions/shared/domain/accounts/api-keys';
import type { AuditRecord } from '../../functions/shared/domain/audit/audit-record';

/**
 * In-memory ports for unit tests of domain orchestration. The DynamoDB adapters that must behave the same are
 * tested against DynamoDB Local in test/integration.
 */
export class MemoryLinkStore implements LinkStore {
  readonly links = new Map<string, LinkRecord>();
  writes = 0;

  async createIfAbsent(link: LinkRecord): Promise<boolean> {
    this.writes += 1;
    if (this.links.has(keyOf(link))) return false;
    this.links.set(keyOf(link), { ...link });
    return true;
  }

  async find(code: string): Promise<LinkRecord | undefined> {
    return this.links.get(code);
  }

  async consumeClick(code: string, nowMs: number, options?: { passwordless: boolean }): Promise<ClickOutcome> {
    this.clickWrites += 1;
    const link = this.links.get(code);
    if (!link || (options?.passwordless && link.passwordHash !== undefined)) return { kind: 'missing' };
    // DynamoDB's condition `clicks < maxClicks` fails when the limit is gone (DynamoLinkStore.consumeClick).
    if (link.maxClicks === undefined && !link.retired) return { kind: 'unlimited', link: { ...link } };
    const ran = link.expiredUrl === undefined ? {} : { expiredUrl: link.expiredUrl };
    if (link.retired || (link.maxClicks !== undefined && link.clicks >= link.maxClicks)) return { kind: 'usedUp', ...ran };
    if (isExpired(link, nowMs)) return { kind: 'expired', ...ran };
    link.clicks += 1;
    return { kind: 'counted', link: { ...link } };
  }

  leaseRenewals = 0;
  clickWrites = 0;

  /** DynamoLinkStore.renewCacheLease's rule, tested against DynamoDB Local in test/integration. */
  async renewCacheLease(code: string, untilMs: number, nowMs: number): Promise<{ leased: boolean; link?: LinkRecord }> {
    this.leaseRenewals += 1;
    const link = this.links.get(code);
    if (!link) return { leased: false };
    if (!isLeasable(link) || (link.cacheSealedUntil ?? 0) > nowMs) return { leased: false, link: { ...link } };
    link.cacheLeaseUntil = untilMs;
    return { leased: true, link: { ...link } };
  }

  async retire(code: string): Promise<void> {
    const link = this.links.get(code);
    if (!link) return;
    const kept = { code, isAlias: link.isAlias, createdAt: link.createdAt, clicks: link.clicks, owner: link.owner, retired: true };
    this.links.set(code, { ...kept, ...(link.maxClicks !== undefined ? { maxClicks: link.maxClicks } : {}), ...(link.expiredUrl !== undefined ? { expiredUrl: link.expiredUrl } : {}) });
  }
}

export class MemoryUsageCounter implements UsageCounter {
  readonly counts = new Map<string, number>();

  async tryConsume(counterId: string, limit: number): Promise<{ consumed: boolean; count: number }> {
    const count = this.counts.get(counterId) ?? 0;
    if (count >= limit) return { consumed: false, count };
    this.counts.set(counterId, count + 1);
    return { consumed: true, count: count + 1 };
  }

  async current(counterId: string): Promise<number> {
    return this.counts.get(counterId) ?? 0;
  }

  async release(counterId: string): Promise<void> {
    const count = this.counts.get(counterId) ?? 0;
    if (count > 0) this.counts.set(counterId, count - 1);
  }
}

export class FixedFlags implements FlagSource {
  constructor(public flags: Flags = SAFE_DEFAULT_FLAGS) {}
  async current(): Promise<Flags> {
    return this.flags;
  }
}

export class ListSafetyChecker implements SafetyChecker {
  calls: string[][] = [];
  constructor(private readonly unsafe: readonly string[] = []) {}
  async findUnsafe(urls: readonly string[]): Promise<ReadonlySet<string>> {
    this.calls.push([...urls]);
    return new Set(urls.filter((url) => this.unsafe.includes(url)));
  }
}

export class MemoryAliasOverrides implements AliasOverrides {
  constructor(private readonly allowed: ReadonlyArray<[alias: string, keyId: string]> = []) {}
  async allows(alias: string, keyId: string): Promise<boolean> {
    return this.allowed.some(([a, k]) => a.toLowerCase() === alias.toLowerCase() && k === keyId);
  }
}

/** DynamoDomainStore's rules in memory (the adapter itself is tested against DynamoDB Local in test/integration). */
export class MemoryDomainStore implements DomainStore {
  readonly domains = new Map<string, DomainRecord>();
  readonly defaults = new Map<string, string>();
  readonly cleanups: Array<DomainCleanup & { dueAt: number }> = [];
  readonly holds = new Map<string, DomainHold>();
  readonly manualChecks = new Map<string, number>();

  async claim(record: DomainRecord, allowance: number | null): Promise<DomainClaim> {
    const existing = this.domains.get(record.domain);
    const hold = this.holds.get(record.domain);
    if (existing && existing.status !== 'failed') return 'taken';
    if (hold && hold.heldFor !== record.owner && hold.heldUntilMs > Date.parse(record.createdAt)) return 'taken';
    const held = [...this.domains.values()].filter((domain) => domain.owner === record.owner && domain !== existing).length;
    if (allowance !== null && held >= allowance) return 'overLimit';
    if (existing) this.cleanups.push(this.cleanupOf(existing, Date.parse(record.createdAt)));
    this.holds.delete(record.domain);
    this.domains.set(record.domain, structuredClone(record));
    return 'claimed';
  }

  private cleanupOf(record: DomainRecord, nowMs: number): DomainCleanup & { dueAt: number } {
    return { id: `cleanup#${record.domain}#${nowMs}`, domain: record.domain, formerOwner: record.owner, deletedAt: new Date(nowMs).toISOString(), ...(record.claimId ? { claimId: record.claimId } : {}), dueAt: nowMs };
  }

  async find(domain: string): Promise<DomainRecord | undefined> {
    const record = this.domains.get(domain);
    return record && structuredClone(record);
  }

  async listByOwner(owner: string): Promise<DomainRecord[]> {
    return [...this.domains.values()].filter((record) => record.owner === owner).map((record) => structuredClone(record));
  }

  async listAll(): Promise<DomainRecord[]> {
    return [...this.domains.values()].map((record) => structuredClone(record));
  }

  async defaultOf(owner: string): Promise<string | undefined> {
    return this.defaults.get(owner);
  }

  async updateSettings(domain: string, owner: string, settings: DomainSettings): Promise<DomainRecord | undefined> {
    const record = this.domains.get(domain);
    if (record?.owner !== owner) return undefined;
    for (const [field, value] of Object.entries(settings) as Array<[keyof DomainSettings, string | null | undefined]>) {
      if (value === null) delete record[field];
      else if (value !== undefined) record[field] = value;
    }
    return this.find(domain);
  }

  async setDefault(domain: string, owner: string, isDefault: boolean): Promise<DomainRecord | undefined> {
    const record = this.domains.get(domain);
    if (record?.owner !== owner) return undefined;
    const previous = this.defaults.get(owner);
    if (previous !== undefined && previous !== domain) this.domains.get(previous)!.isDefault = false;
    if (isDefault) this.defaults.set(owner, domain);
    else if (previous === domain) this.defaults.delete(owner);
    record.isDefault = isDefault;
    return this.find(domain);
  }

  async transition(domain: string, transition: DomainTransition): Promise<DomainRecord | undefined> {
    const record = this.domains.get(domain);
    if (!record || !transition.from.includes(record.status)) return undefined;
    if (!transition.from.includes(transition.change.status)) record.history.push(transition.change);
    record.status = transition.change.status;
    if (transition.change.reason === undefined) delete record.statusReason;
    else record.statusReason = transition.change.reason;
    if (transition.verifiedAt !== undefined) record.verifiedAt = transition.verifiedAt;
    if (transition.checksStartedAt !== undefined) record.checksStartedAt = transition.checksStartedAt;
    if (transition.nextCheckAt === null) delete record.nextCheckAt;
    else record.nextCheckAt = transition.nextCheckAt;
    return this.find(domain);
  }

  async remove(record: DomainRecord, nowMs: number, heldUntilMs?: number): Promise<boolean> {
    const { domain, owner } = record;
    const current = this.domains.get(domain);
    if (current?.owner !== owner || current.status !== record.status) return false;
    this.domains.delete(domain);
    if (heldUntilMs !== undefined) this.holds.set(domain, { domain, heldFor: owner, heldUntilMs });
    if (record.isDefault) this.defaults.delete(owner);
    this.cleanups.push(this.cleanupOf(record, nowMs));
    return true;
  }

  async holdOf(domain: string): Promise<DomainHold | undefined> {
    return this.holds.get(domain);
  }

  async endHold(domain: string): Promise<boolean> {
    return this.holds.delete(domain);
  }

  async reserveManualCheck(domain: string, owner: string, nowMs: number, everyMs: number): Promise<number | undefined> {
    if (this.domains.get(domain)?.owner !== owner) return undefined;
    const last = this.manualChecks.get(domain);
    if (last !== undefined && nowMs - last < everyMs) return last + everyMs - nowMs;
    this.manualChecks.set(domain, nowMs);
    return undefined;
  }

  async dueChecks(nowMs: number): Promise<string[]> {
    return [...this.domains.values()].filter((record) => record.nextCheckAt !== undefined && record.nextCheckAt <= nowMs).map((record) => record.domain);
  }

  async dueCleanups(nowMs: number, limit: number): Promise<DomainCleanup[]> {
    return this.cleanups.filter((cleanup) => cleanup.dueAt <= nowMs).slice(0, limit).map(({ dueAt: _dueAt, ...cleanup }) => ({ ...cleanup }));
  }

  async postponeCleanup(id: string, untilMs: number, progress?: CleanupProgress): Promise<void> {
    const index = this.cleanups.findIndex((cleanup) => cleanup.id === id);
    const cleanup = this.cleanups[index];
    if (!cleanup) return;
    const { cursor: _cursor, linksCleared: _linksCleared, failures: _failures, ...kept } = cleanup;
    this.cleanups[index] = progress ? { ...kept, ...progress, dueAt: untilMs } : { ...cleanup, dueAt: untilMs };
  }

  async finishCleanup(id: string): Promise<void> {
    const index = this.cleanups.findIndex((cleanup) => cleanup.id === id);
    if (index >= 0) this.cleanups.splice(index, 1);
  }
}

/** A resolver that answers as told: names in `serving` serve, names in `failing` throw, others wait with a reason. */
export class FixedAttachments implements DomainAttachments {
  readonly serving = new Set<string>();
  readonly failing = new Set<string>();
  checks = 0;
  /** The claims checked, `domain claimId` each. */
  checked: string[] = [];
  detached: string[] = [];

  dnsRecordsFor(domain: string) {
    return [{ type: 'CNAME' as const, name: domain, value: 'edge.example.net' }];
  }

  async check(domain: string, claimId: string | undefined): Promise<AttachmentCheck> {
    this.checks += 1;
    this.checked.push(`${domain} ${claimId}`);
    if (this.failing.has(domain)) throw new Error(`CNAMEAlreadyExists: ${domain}`);
    return this.serving.has(domain) ? { serving: true } : { serving: false, reason: `${domain} does not resolve yet` };
  }

  async detach(domain: string, claimId: string | undefined): Promise<boolean> {
    this.detached.push(claimId ? `${domain} ${claimId}` : domain);
    return true;
  }
}

/** TXT records as published: `publish` adds a value under a name. */
export class PublishedTxtRecords implements TxtRecords {
  readonly records = new Map<string, string[]>();

  publish(name: string, value: string): this {
    this.records.set(name, [...(this.records.get(name) ?? []), value]);
    return this;
  }

  async lookup(name: string): Promise<string[]> {
    return this.records.get(name) ?? [];
  }
}

/** The smart-link fields' parsers as the functions load them, imported directly. */
export const smartFields = async () => smartFieldParsers;

/** Keys by hash and the audit records written beside them, as DynamoKeyStore keeps them (one transaction each). */
export class MemoryKeyStore implements WorkspaceKeyStore {
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly audit: AuditRecord[] = [];

  async keysOf(accountId: string): Promise<ApiKeyRecord[]> {
    return [...this.keys.values()].filter((key) => key.accountId === accountId && key.status !== 'revoked').sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async add(record: ApiKeyRecord, audit: AuditRecord): Promise<void> {
    if (this.keys.has(record.keyHash)) throw new Error('a key with this hash exists');
    this.keys.set(record.keyHash, { ...record });
    this.audit.push(audit);
  }

  async revoke(record: ApiKeyRecord, audit: AuditRecord): Promise<boolean> {
    const stored = this.keys.get(record.keyHash);
    if (!stored || stored.status === 'revoked' || stored.accountId !== record.accountId) return false;
    stored.status = 'revoked';
    this.audit.push(audit);
    return true;
  }
}
