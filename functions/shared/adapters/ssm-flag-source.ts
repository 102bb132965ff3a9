import { GetParametersCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { FLAG_NAMES, SAFE_DEFAULT_FLAGS, parseFlagValue, type Flags } from '../domain/limits/flags';
import type { FlagSource } from '../domain/ports';

export interface FlagSourceLog {
  warn(message: string, extra: Record<string, unknown>): void;
  error(message: string, extra: Record<string, unknown>): void;
}

/** An operator's `flags set` takes effect within this time (the issue allows at most 10 s). */
export const FLAG_CACHE_MS = 5_000;

/**
 * All flags in one GetParameters round trip, cached per container. Written by hand rather than with
 * Powertools Parameters because the fallback is the point: when SSM fails we keep the last values we saw,
 * and with none, serve with the safe defaults.
 */
export class SsmFlagSource implements FlagSource {
  private cached?: { flags: Flags; fetchedAt: number };
  private inFlight?: Promise<Flags>;

  constructor(
    private readonly client: SSMClient,
    private readonly prefix: string,
    private readonly log: FlagSourceLog,
    private readonly now: () => number = Date.now,
  ) {}

  parameterName(flag: (typeof FLAG_NAMES)[number]): string {
    return `${this.prefix.replace(/\/+$/, '')}/${flag}`;
  }

  async current(): Promise<Flags> {
    if (this.cached && this.now() - this.cached.fetchedAt < FLAG_CACHE_MS) return this.cached.flags;
    // Concurrent requests after expiry share one SSM call instead of stampeding it.
    this.inFlight ??= this.refresh().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async refresh(): Promise<Flags> {
    try {
      const names = FLAG_NAMES.map((flag) => this.parameterName(flag));
      const { Parameters = [] } = await this.client.send(new GetParametersCommand({ Names: names }));
      const values = new Map(Parameters.map((parameter) => [parameter.Name, parameter.Value]));
      const flags = Object.fromEntries(
        FLAG_NAMES.map((flag) => [flag, parseFlagValue(flag, values.get(this.parameterName(flag)))]),
      ) as Flags;
      this.cached = { flags, fetchedAt: this.now() };
      return flags;
    } catch (error) {
      if (this.cached) {
        this.log.warn('SSM unreadable, serving the last known flags', { error: String(error) });
        this.cached = { flags: this.cached.flags, fetchedAt: this.now() };
        return this.cached.flags;
      }
      this.log.error('SSM unreadable and no flags known, serving safe defaults', { error: String(error) });
      return SAFE_DEFAULT_FLAGS;
    }
  }
}
