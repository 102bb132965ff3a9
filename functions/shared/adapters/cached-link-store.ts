import type { LinkRecord } from '../domain/links/link';
import type { ClickOutcome, LinkStore } from '../domain/ports';

export interface LinkCacheOptions {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

/**
 * Keeps found links in the container's memory so a hot link costs no DynamoDB read. An owner's edit, a delete or a
 * takedown reaches a container within `ttlMs` (30 s; with the browser's own 30 s, the documented 60-s bound on how
 * long a visitor may still be sent to an old destination). Expiry is checked on every visit against the cached expiresAt, and a maxClicks
 * link's clicks are always decided by DynamoDB (consumeClick), which also notices a link deleted or changed since it
 * was cached. Misses and tombstones are not cached, so a new alias works at once.
 */
export class CachedLinkStore implements LinkStore {
  private readonly entries = new Map<string, { link: LinkRecord; storedAt: number }>();
  private readonly now: () => number;

  constructor(
    private readonly inner: LinkStore,
    private readonly options: LinkCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async find(code: string): Promise<LinkRecord | undefined> {
    const entry = this.entries.get(code);
    if (entry && this.now() - entry.storedAt < this.options.ttlMs) return entry.link;
    this.entries.delete(code);
    const link = await this.inner.find(code);
    if (link && !link.retired && !link.deleted && !link.disabled) this.remember(code, link);
    return link;
  }

  createIfAbsent(link: LinkRecord): Promise<boolean> {
    return this.inner.createIfAbsent(link);
  }

  consumeClick(code: string, nowMs: number): Promise<ClickOutcome> {
    return this.inner.consumeClick(code, nowMs);
  }

  async retire(code: string): Promise<void> {
    this.entries.delete(code);
    await this.inner.retire(code);
  }

  private remember(code: string, link: LinkRecord): void {
    // Maps iterate in insertion order: dropping the first key evicts the oldest entry.
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(code, { link, storedAt: this.now() });
  }
}
