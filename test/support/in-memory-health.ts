import type { HealthCheckDeps } from '../../functions/shared/domain/health/health-checks';
import type { LinkHealthRecord, Observation, ProbeAnswer } from '../../functions/shared/domain/health/link-health';
import { keyOf, type LinkRecord } from '../../functions/shared/domain/links/link';
import type { HealthLinks, HealthQueue, HostSlots, UrlChecks } from '../../functions/shared/domain/ports';

/** The health worker's ports in memory, on a virtual clock that sleeping moves forward. */
export class InMemoryHealth {
  nowMs = Date.parse('2026-11-26T00:00:00.000Z');
  readonly links = new Map<string, LinkRecord & { dueAtMs?: number }>();
  readonly urls = new Map<string, { observation?: Observation; claimedUntil?: number }>();
  readonly slots = new Set<string>();
  /** Every request sent: when, where, how. */
  readonly requests: Array<{ atMs: number; url: string; method: 'HEAD' | 'GET' }> = [];
  readonly queued: Array<{ keys: readonly string[]; delaySeconds: number }> = [];
  answer: (url: string, method: 'HEAD' | 'GET') => ProbeAnswer = () => ({ status: 200 });

  add(link: LinkRecord): void {
    this.links.set(keyOf(link), link);
  }

  readonly healthLinks: HealthLinks = {
    find: async (key) => {
      const stored = this.links.get(key);
      if (!stored) return undefined;
      const { dueAtMs: _due, ...link } = stored;
      return link;
    },
    saveHealth: async (key: string, health: LinkHealthRecord, dueAtMs: number) => {
      const link = this.links.get(key);
      if (link) this.links.set(key, { ...link, health, dueAtMs });
    },
    stopChecking: async (key) => {
      const link = this.links.get(key);
      if (link) this.links.set(key, { ...link, dueAtMs: undefined });
    },
    due: async (_shard, nowMs, limit) =>
      [...this.links.entries()]
        .filter(([, link]) => link.dueAtMs !== undefined && link.dueAtMs <= nowMs)
        .slice(0, limit)
        .map(([key, link]) => ({ key, dueAtMs: link.dueAtMs as number })),
    lease: async (key, seen, until) => {
      const link = this.links.get(key);
      if (link?.dueAtMs !== seen) return false;
      this.links.set(key, { ...link, dueAtMs: until });
      return true;
    },
  };

  readonly urlChecks: UrlChecks = {
    latest: async (url) => this.urls.get(url)?.observation,
    claim: async (url, nowMs, freshAfterMs, leaseMs) => {
      const entry = this.urls.get(url) ?? {};
      const fresh = entry.observation && Date.parse(entry.observation.checkedAt) > freshAfterMs;
      if (fresh || (entry.claimedUntil ?? 0) >= nowMs) return false;
      this.urls.set(url, { ...entry, claimedUntil: nowMs + leaseMs });
      return true;
    },
    record: async (url, observation) => {
      this.urls.set(url, { observation });
    },
    release: async (url) => {
      const entry = this.urls.get(url);
      if (entry) this.urls.set(url, { ...entry, claimedUntil: undefined });
    },
  };

  readonly hostSlots: HostSlots = {
    reserve: async (host, fromSecond, ahead) => {
      for (let second = fromSecond; second < fromSecond + ahead; second += 1) {
        if (this.slots.has(`${host}#${second}`)) continue;
        this.slots.add(`${host}#${second}`);
        return second;
      }
      return undefined;
    },
  };

  readonly queue: HealthQueue = {
    send: async (keys, delaySeconds = 0) => {
      this.queued.push({ keys, delaySeconds });
    },
  };

  deps(overrides: Partial<HealthCheckDeps> = {}): HealthCheckDeps {
    return {
      links: this.healthLinks,
      urls: this.urlChecks,
      slots: this.hostSlots,
      request: async (url, method) => {
        this.requests.push({ atMs: this.nowMs, url, method });
        return this.answer(url, method);
      },
      mayCheck: () => true,
      timeScale: 1,
      now: () => this.nowMs,
      sleep: async (ms) => {
        this.nowMs += ms;
      },
      ...overrides,
    };
  }
}
