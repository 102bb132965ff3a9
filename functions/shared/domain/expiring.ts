/** Beyond this many remembered entries the expired ones are dropped, and all of them if none expired. */
const MAX_REMEMBERED = 50_000;

/** Values that hold until an instant, bounded in number: what a container may remember of a table for a while. */
export class Expiring<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  get(key: string, nowMs: number): { value: V } | undefined {
    const entry = this.entries.get(key);
    return entry && entry.until > nowMs ? entry : undefined;
  }

  set(key: string, value: V, untilMs: number, nowMs: number): void {
    if (this.entries.size >= MAX_REMEMBERED) {
      for (const [entry, { until }] of this.entries) if (until <= nowMs) this.entries.delete(entry);
      if (this.entries.size >= MAX_REMEMBERED) this.entries.clear();
    }
    this.entries.set(key, { value, until: untilMs });
  }
}
