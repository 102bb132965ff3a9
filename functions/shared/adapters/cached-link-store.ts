import { CACHE_LEASE_MS, isLeasable, LEASE_RENEWAL_MARGIN_MS, memoryLifetimeMs } from '../domain/links/cache-lease';
import { isExpired, type LinkRecord } from '../domain/links/link';
import type { ClickOutcome, LinkStore } from '../domain/ports';
import type { AuditStamp } from '../domain/audit/audit-stamp';

/**
 * How long a password link's form may be answered from a copy: an owner's edit or an operator's block shows on its
 * page within this, and never on a posted password, which reads the link (CachedDomainLookup keeps domains as long).
 */
export const PASSWORD_FORM_MEMORY_MS = 5_000;

export interface LinkCacheOptions {
  maxEntries: number;
  now?: () => number;
}

/**
 * Keeps plain links in the container's memory so a hot link costs no DynamoDB read, under the link's cache lease
 * (see domain/links/cache-lease.ts): a copy lives at most 30 s and never past the lease minus a browser's max-age,
 * and a lease running short is renewed by one conditional write, which fails once the link got a click limit or a
 * password or was sealed by an edit. Links with a limit or a password are never served from memory: a maxClicks
 * link once read is only remembered as one (its click's conditional update then reads it), and a password link's
 * copy answers its form for 5 s, never its submission; misses and tombstones are not cached, so a new alias works
 * at once.
 */
export class CachedLinkStore implements LinkStore {
  private readonly entries = new Map<string, { link: LinkRecord; until: number }>();
  /**
   * Keys of links last read with a click limit and no password: their next visits are counted before any read
   * (visit.ts `countedStraightAway`). Only the fact is kept, never the link: the click's update returns it fresh.
   */
  private readonly counted = new Set<string>();
  /** Password links read in the last PASSWORD_FORM_MEMORY_MS, for their forms only (visit.ts). */
  private readonly passwordLinks = new Map<string, { link: LinkRecord; until: number }>();
  /**
   * Reads in flight per key. A container serving several visits at once (Lambda's multi-concurrency, the local
   * stack) would otherwise send one read and one lease renewal per waiting visit when a hot link's copy runs out:
   * fifty conditional writes queued on one item stalled every visit for a fifth of a second locally (issue 28).
   */
  private readonly reading = new Map<string, Promise<LinkRecord | undefined>>();
  private readonly now: () => number;

  constructor(
    private readonly inner: LinkStore,
    private readonly options: LinkCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async find(code: string): Promise<LinkRecord | undefined> {
    const entry = this.entries.get(code);
    if (entry && this.now() < entry.until) return entry.link;
    this.entries.delete(code);
    const reading = this.reading.get(code);
    // Another visit is reading this link: a copy it leases is what a hit a moment later would return. Anything else
    // (a miss, a refused lease, a read that failed) is read again, as each such visit always is; a link last seen
    // with a limit or a password is never copied, so its visits do not wait for each other.
    if (reading && !this.counted.has(code) && !this.passwordLinks.has(code)) {
      await reading.catch(() => undefined);
      const shared = this.entries.get(code);
      if (shared && this.now() < shared.until) return shared.link;
    }
    const read = this.readThrough(code).finally(() => {
      if (this.reading.get(code) === read) this.reading.delete(code);
    });
    this.reading.set(code, read);
    return read;
  }

  private async readThrough(code: string): Promise<LinkRecord | undefined> {
    const nowMs = this.now();
    const found = await this.inner.find(code);
    this.noteCounting(code, found, nowMs);
    this.notePassword(code, found, nowMs);
    if (!found || !isLeasable(found)) return found;
    if (memoryLifetimeMs(found, nowMs) >= LEASE_RENEWAL_MARGIN_MS) return this.remember(code, found, nowMs);
    const renewal = await this.inner.renewCacheLease(code, nowMs + CACHE_LEASE_MS, nowMs);
    return renewal.leased && renewal.link ? this.remember(code, renewal.link, nowMs) : renewal.link;
  }

  createIfAbsent(link: LinkRecord, stamp?: AuditStamp): Promise<boolean> {
    return this.inner.createIfAbsent(link, stamp);
  }

  consumeClick(code: string, nowMs: number, options?: { passwordless: boolean }): Promise<ClickOutcome> {
    return this.inner.consumeClick(code, nowMs, options);
  }

  countsClicks(code: string): boolean {
    return this.counted.has(code);
  }

  recentPasswordLink(code: string): LinkRecord | undefined {
    const entry = this.passwordLinks.get(code);
    if (entry && this.now() < entry.until) return entry.link;
    this.passwordLinks.delete(code);
    return undefined;
  }

  renewCacheLease(code: string, untilMs: number, nowMs: number): Promise<{ leased: boolean; link?: LinkRecord }> {
    return this.inner.renewCacheLease(code, untilMs, nowMs);
  }

  async retire(code: string): Promise<void> {
    this.entries.delete(code);
    this.counted.delete(code);
    this.passwordLinks.delete(code);
    await this.inner.retire(code);
  }

  private noteCounting(code: string, link: LinkRecord | undefined, nowMs: number): void {
    if (!link || link.maxClicks === undefined || link.passwordHash !== undefined || link.retired || link.deleted || link.disabled || isExpired(link, nowMs)) {
      this.counted.delete(code);
      return;
    }
    // Sets iterate in insertion order too: the oldest key goes first.
    if (!this.counted.has(code) && this.counted.size >= this.options.maxEntries) this.counted.delete(this.counted.values().next().value as string);
    this.counted.add(code);
  }

  private notePassword(code: string, link: LinkRecord | undefined, nowMs: number): void {
    if (!link || link.passwordHash === undefined) {
      this.passwordLinks.delete(code);
      return;
    }
    if (!this.passwordLinks.has(code) && this.passwordLinks.size >= this.options.maxEntries) this.passwordLinks.delete(this.passwordLinks.keys().next().value as string);
    this.passwordLinks.set(code, { link, until: nowMs + PASSWORD_FORM_MEMORY_MS });
  }

  private remember(code: string, link: LinkRecord, nowMs: number): LinkRecord {
    const lifetime = memoryLifetimeMs(link, nowMs);
    if (lifetime <= 0) return link;
    // Maps iterate in insertion order: dropping the first key evicts the oldest entry.
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(code, { link, until: nowMs + lifetime });
    return link;
  }
}
