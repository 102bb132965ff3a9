import type { DomainRecord } from '../domain/domains/custom-domain';
import type { DomainLookup } from '../domain/visits/visit';

/**
 * How long a redirect container keeps what it read about a customer domain, absent ones included (a flood of
 * requests for unknown hosts costs one read per host and container, not one per request). An owner's change, a
 * delete or an operator's disable reaches every visitor within this time.
 */
export const DOMAIN_MEMORY_MS = 5_000;

export class CachedDomainLookup implements DomainLookup {
  private readonly entries = new Map<string, { record: DomainRecord | undefined; until: number }>();

  constructor(
    private readonly inner: DomainLookup,
    private readonly options: { maxEntries: number; now?: () => number },
  ) {}

  async find(domain: string): Promise<DomainRecord | undefined> {
    const nowMs = (this.options.now ?? Date.now)();
    const entry = this.entries.get(domain);
    if (entry && nowMs < entry.until) return entry.record;
    this.entries.delete(domain);
    const record = await this.inner.find(domain);
    // Maps iterate in insertion order: dropping the first key evicts the oldest entry.
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(domain, { record, until: nowMs + DOMAIN_MEMORY_MS });
    return record;
  }
}
