/**
 * A workspace's head count, kept on one item so that every change to it is one conditional write: members, the
 * owners among them (a workspace always keeps one), and the invitations still pending, which hold a seat until they
 * are accepted, revoked or expire. Expiries live here rather than being read off the invitations, because TTL deletes
 * an expired invitation without telling anyone: the count would otherwise keep its seat forever.
 */
export interface SeatCount {
  members: number;
  owners: number;
  /** Invitation id → when it expires (ms since the epoch). */
  pending: Record<string, number>;
}

export const EMPTY_WORKSPACE: SeatCount = { members: 0, owners: 0, pending: {} };

/** The count with expired invitations dropped: what every change starts from. */
export function withoutExpired(count: SeatCount, nowMs: number): SeatCount {
  const pending = Object.fromEntries(Object.entries(count.pending).filter(([, expiresAtMs]) => expiresAtMs > nowMs));
  return { ...count, pending };
}

/** Members and live invitations: what a plan's seat allowance caps. */
export function seatsTaken(count: SeatCount, nowMs: number): number {
  return count.members + Object.keys(withoutExpired(count, nowMs).pending).length;
}

/** Whether one more person (a member or an invitation) fits; a null allowance has no cap. */
export function hasFreeSeat(count: SeatCount, allowance: number | null, nowMs: number): boolean {
  return allowance === null || seatsTaken(count, nowMs) < allowance;
}
