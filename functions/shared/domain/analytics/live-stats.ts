import { keyOf } from '../links/link';
import { ownedLink, type ManagementContext, type ManagementDeps } from '../links/link-viewing';
import type { ClickStatsStore } from '../ports';
import { liveCode, workspaceCode } from './rollups';

/** The live view's span: the last 60 minutes, the current one included. */
export const LIVE_MINUTES = 60;

export interface LiveStats {
  /** Each of the last 60 minutes (UTC), oldest first: people's clicks and bots' visits, as far as the aggregator got. */
  minutes: Array<{ minute: string; clicks: number; bots: number }>;
  /** People's clicks over the 60 minutes. */
  total: number;
}

const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13);

/** The 60 minutes ending with the current one, from the (at most two) hour items they fall in: one Query. */
async function lastHour(code: string, nowMs: number, stats: Pick<ClickStatsStore, 'hours'>): Promise<LiveStats> {
  const thisMinute = Math.floor(nowMs / 60_000) * 60_000;
  const first = thisMinute - (LIVE_MINUTES - 1) * 60_000;
  const hours = new Map((await stats.hours(code, hourOf(first), hourOf(thisMinute))).map((hour) => [hour.hour, hour.minutes]));
  const minutes = Array.from({ length: LIVE_MINUTES }, (_, i) => {
    const at = new Date(first + i * 60_000).toISOString();
    const counts = hours.get(at.slice(0, 13))?.[at.slice(14, 16)];
    return { minute: at, clicks: counts?.clicks ?? 0, bots: counts?.bots ?? 0 };
  });
  return { minutes, total: minutes.reduce((sum, minute) => sum + minute.clicks, 0) };
}

/** GET /v2/links/{code}/stats/live: the owner's link (the same 404 as its view). */
export async function liveOfLink(code: string, context: ManagementContext, deps: { links: ManagementDeps['links']; stats: Pick<ClickStatsStore, 'hours'> }): Promise<LiveStats> {
  const link = await ownedLink(code, context, deps.links);
  return lastHour(liveCode(keyOf(link)), context.nowMs, deps.stats);
}

/** GET /v2/stats/live: the whole workspace. */
export const liveOfWorkspace = (owner: string, nowMs: number, stats: Pick<ClickStatsStore, 'hours'>): Promise<LiveStats> => lastHour(liveCode(workspaceCode(owner)), nowMs, stats);
