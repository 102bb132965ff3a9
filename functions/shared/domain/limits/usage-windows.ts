/** Fixed windows for rate limits and calendar months for quotas, all in UTC. Pure date arithmetic. */

export interface Window {
  /** Distinguishes this window's counter from the next one's. */
  id: string;
  /** Epoch seconds at which the next window starts. */
  resetsAt: number;
}

export function fixedWindow(nowMs: number, lengthSeconds: number): Window {
  const start = Math.floor(nowMs / 1000 / lengthSeconds) * lengthSeconds;
  return { id: String(start), resetsAt: start + lengthSeconds };
}

export function secondsUntil(resetsAt: number, nowMs: number): number {
  return Math.max(1, Math.ceil(resetsAt - nowMs / 1000));
}

export function calendarMonth(nowMs: number): Window & { resetDate: string } {
  const now = new Date(nowMs);
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return {
    id: now.toISOString().slice(0, 7),
    resetsAt: next / 1000,
    resetDate: new Date(next).toISOString().slice(0, 10),
  };
}
