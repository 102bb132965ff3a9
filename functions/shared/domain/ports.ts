import type { Flags } from './limits/flags';
import type { LinkRecord } from './links/link';

/** What the domain needs from storage and third parties; adapters in ../adapters implement these. */

export interface LinkStore {
  /** Writes the link unless its code is taken; false when it was. */
  createIfAbsent(link: LinkRecord): Promise<boolean>;
  find(code: string): Promise<LinkRecord | undefined>;
  /** One atomic conditional click; see ClickOutcome. */
  consumeClick(code: string, nowMs: number): Promise<ClickOutcome>;
  /** Strips a used-up link to a tombstone that keeps its code taken. */
  retire(code: string): Promise<void>;
}

export type ClickOutcome =
  | { kind: 'counted'; link: LinkRecord }
  | { kind: 'missing' }
  | { kind: 'expired' }
  | { kind: 'usedUp' };

export interface UsageCounter {
  /** Adds one to the counter unless it already reached `limit`; `count` is the value after the call. */
  tryConsume(counterId: string, limit: number, expiresAtEpochSeconds: number): Promise<{ consumed: boolean; count: number }>;
  /** Takes back one unit an earlier tryConsume counted (never below zero). */
  release(counterId: string): Promise<void>;
}

export interface FlagSource {
  current(): Promise<Flags>;
}

export interface SafetyChecker {
  /** The subset of `urls` that the check flags; throws SafetyCheckUnavailable when it cannot tell. */
  findUnsafe(urls: readonly string[]): Promise<ReadonlySet<string>>;
}

export interface AliasOverrides {
  /** Whether an operator let this key use this reserved alias. */
  allows(alias: string, keyId: string): Promise<boolean>;
}
