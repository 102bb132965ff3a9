import type { VisitorSaltStore } from '../ports';

const DAY_MS = 86_400_000;
const utcDay = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 10);

/**
 * The current UTC day's salt, read once per container and day. The first read of a new day also removes the
 * previous day's salt from the table (whichever container gets there first; the others find nothing to remove) and
 * drops it from memory, so a salt outlives its day by the time it takes the next day's first visit to arrive.
 */
export class DailySalt {
  /** The day's salt and the day's bounds: every visit asks, and a comparison is cheaper than formatting a date. */
  private current: { startMs: number; salt: Promise<string> } | undefined;

  constructor(private readonly store: VisitorSaltStore) {}

  saltFor(nowMs: number): Promise<string> {
    if (this.current && nowMs >= this.current.startMs && nowMs < this.current.startMs + DAY_MS) return this.current.salt;
    const day = utcDay(nowMs);
    const salt = this.store.saltOf(day);
    this.current = { startMs: nowMs - (nowMs % DAY_MS), salt };
    // A failed read is tried again on the next visit rather than kept.
    salt.catch(() => {
      if (this.current?.salt === salt) this.current = undefined;
    });
    const yesterday = utcDay(nowMs - DAY_MS);
    this.store.forget(yesterday).catch(() => undefined);
    return salt;
  }
}
