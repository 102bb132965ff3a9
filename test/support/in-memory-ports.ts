import { SAFE_DEFAULT_FLAGS, type Flags } from '../../functions/shared/domain/limits/flags';
import { isExpired, type LinkRecord } from '../../functions/shared/domain/links/link';
import { isLeasable } from '../../functions/shared/domain/links/cache-lease';
import type { AliasOverrides, ClickOutcome, FlagSource, LinkStore, SafetyChecker, UsageCounter } from '../../functions/shared/domain/ports';

/**
 * In-memory ports for unit tests of domain orchestration. The DynamoDB adapters that must behave the same are
 * tested against DynamoDB Local in test/integration.
 */
export class MemoryLinkStore implements LinkStore {
  readonly links = new Map<string, LinkRecord>();
  writes = 0;

  async createIfAbsent(link: LinkRecord): Promise<boolean> {
    this.writes += 1;
    if (this.links.has(link.code)) return false;
    this.links.set(link.code, { ...link });
    return true;
  }

  async find(code: string): Promise<LinkRecord | undefined> {
    return this.links.get(code);
  }

  async consumeClick(code: string, nowMs: number): Promise<ClickOutcome> {
    const link = this.links.get(code);
    if (!link) return { kind: 'missing' };
    if (link.retired || (link.maxClicks !== undefined && link.clicks >= link.maxClicks)) return { kind: 'usedUp' };
    if (isExpired(link, nowMs)) return { kind: 'expired' };
    link.clicks += 1;
    return { kind: 'counted', link: { ...link } };
  }

  leaseRenewals = 0;

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
    if (link) this.links.set(code, { code, isAlias: link.isAlias, createdAt: link.createdAt, clicks: link.clicks, owner: link.owner, retired: true, ...(link.maxClicks !== undefined ? { maxClicks: link.maxClicks } : {}) });
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
