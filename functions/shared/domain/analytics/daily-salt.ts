import type { VisitorSaltStore } from '../ports';

const utcDay = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 10);

/**
 * The current UTC day's salt, read once per container and day. The first read of a new day also removes the
 * previous day's salt from the table (whichever container gets there first; the others find nothing to remove) and
 * drops it from memory, so a salt outlives its day by the time it takes the next day's first visit to arrive.
 */
export class DailySalt {
  private current: { day: string; salt: Promise<string> } | undefined;

  constructor(private readonly store: VisitorSaltStore) {}

  saltFor(nowMs: number): Promise<string> {
    const day = utcDay(nowMs);
    if (this.current?.day === day) return this.current.salt;
    const salt = this.store.saltOf(day);
    this.current = { day, salt };
    // A failed read is tried again on the next visit rather than kept.
    salt.catch(() => {
      if (this.current?.salt === salt) this.current = undefined;
    });
    const yesterday = utcDay(nowMs - 86_400_000);
    this.store.forget(yesterday).catch(() => undefined);
    return salt;
  }
}
