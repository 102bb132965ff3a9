import type { Click } from '../analytics/click';
import { eventId, type OwnedEvent } from './link-events';

/** The share of the monthly quota at which quota.warning is sent. */
export const QUOTA_WARNING_SHARE = 0.8;

/** A monthly quota counter's change (`quota#acct#<account>#<yyyy-mm>`), as the usage table's stream reports it. */
export interface QuotaChange {
  counterId: string;
  before: number;
  after: number;
  limit: number;
  atMs: number;
}

/** The account and month a quota counter counts, or undefined for any other counter. */
export function quotaCounterOf(counterId: string): { accountId: string; month: string } | undefined {
  const match = /^quota#acct#(.+)#(\d{4}-\d{2})$/.exec(counterId);
  return match ? { accountId: match[1] as string, month: match[2] as string } : undefined;
}

/** quota.warning when the count crosses 80 % of the limit, quota.exhausted when it reaches it: once per month each. */
export function quotaEventsOf(change: QuotaChange, owner: string): OwnedEvent[] {
  const counter = quotaCounterOf(change.counterId);
  if (!counter || change.limit <= 0) return [];
  const warnAt = Math.ceil(change.limit * QUOTA_WARNING_SHARE);
  const data = { month: counter.month, used: change.after, limit: change.limit };
  const timestamp = new Date(change.atMs).toISOString();
  const crossed = (threshold: number) => change.before < threshold && change.after >= threshold;
  return [
    ...(crossed(warnAt) ? [{ owner, id: eventId('quota.warning', change.counterId), type: 'quota.warning' as const, timestamp, data }] : []),
    ...(crossed(change.limit) ? [{ owner, id: eventId('quota.exhausted', change.counterId), type: 'quota.exhausted' as const, timestamp, data }] : []),
  ];
}

/** What a receiver learns of a click: the stats' click (no address, no user agent). */
export interface ClickData {
  code: string;
  domain?: string;
  at: string;
  country: string;
  referrer: string;
  device: Click['device'];
  destination?: string;
}

/** link.clicked for one click; `source` names its place in the aggregator's delivery (the same on a retry). */
export function clickEventOf(click: Click, owner: string, source: string): OwnedEvent {
  const slash = click.code.indexOf('/');
  const data: ClickData = {
    code: slash === -1 ? click.code : click.code.slice(slash + 1),
    ...(slash === -1 ? {} : { domain: click.code.slice(0, slash) }),
    at: click.at,
    country: click.country,
    referrer: click.referrer,
    device: click.device,
    ...(click.destination ? { destination: click.destination } : {}),
  };
  return { owner, id: eventId('link.clicked', source), type: 'link.clicked', timestamp: click.at, data };
}

/**
 * link.clicked for each click of a delivery (every click line is a click the stats count; its `counted` only says
 * whether the redirect already added it to the link's total), its owner read once per link; links gone since have none.
 */
export async function clickEventsOf(clicks: readonly Click[], deliveryId: string, ownerOf: (key: string) => Promise<string | undefined>): Promise<OwnedEvent[]> {
  const keys = [...new Set(clicks.map((click) => click.code))];
  const owners = new Map(await Promise.all(keys.map(async (key) => [key, await ownerOf(key)] as const)));
  return clicks.flatMap((click, index) => {
    const owner = owners.get(click.code);
    return owner && owner !== 'anonymous' ? [clickEventOf(click, owner, `${deliveryId}#${index}`)] : [];
  });
}
