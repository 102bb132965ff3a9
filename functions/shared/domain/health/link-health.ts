import { createHash } from 'node:crypto';
import type { LinkRecord } from '../links/link';

/**
 * Link health (issue 31): what a check of a link's destinations found, and when the owner is told. One check of a
 * destination is one HEAD (a GET of its first 64 KiB when HEAD is refused); a link's health is its worst
 * destination's, and it is called broken, or recovered, only after two checks in a row agree, so one blip sends nothing.
 */

export const HEALTH_STATUSES = ['ok', 'redirects', 'client-error', 'server-error', 'unreachable'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** Why no answer came (guarded-request.ts's kinds): the address rule, the name, TLS, the deadline, the connection. */
export const UNREACHABLE_REASONS = ['refused', 'dns', 'tls', 'timeout', 'connection'] as const;
export type UnreachableReason = (typeof UNREACHABLE_REASONS)[number];

/** One check of one URL (or a link's worst of them). */
export interface Observation {
  status: HealthStatus;
  statusCode?: number;
  /** Where a redirect leads (absolute), never followed. */
  location?: string;
  error?: UnreachableReason;
  /** ISO 8601: when the URL was checked. */
  checkedAt: string;
}

/** What the link view shows: the latest observation and since when the status has been the same. */
export interface HealthView extends Observation {
  since: string;
}

/** What the link item keeps: the view, whether the owner was told it is broken, and how many checks disagree since. */
export interface LinkHealthRecord extends HealthView {
  broken: boolean;
  streak: number;
}

/** A destination's answer as the prober saw it: a status (and Location), or why none came. */
export type ProbeAnswer = { status: number; location?: string } | { failure: UnreachableReason };

/** Every destination is checked this often, and never more often however many links point at it. */
export const CHECK_EVERY_MS = 24 * 3_600_000;
/** Checks in a row that must agree before a link is called broken or recovered. */
export const CHECKS_TO_FLIP = 2;
/** HEAD answers that mean "ask with GET": the method is not allowed or not implemented, or refused by a firewall. */
export const HEAD_REFUSED = new Set([403, 405, 501]);
/** The name the checks give in their User-Agent, so site owners can tell who asks and why. */
export const HEALTH_USER_AGENT = 'url-shortener-link-health/1 (+checks short links\' destinations once a day)';
const MAX_LOCATION_LENGTH = 2_048;

const BROKEN: ReadonlySet<HealthStatus> = new Set(['client-error', 'server-error', 'unreachable']);
export const isBrokenStatus = (status: HealthStatus) => BROKEN.has(status);

/** Worse first: a link with one dead variant is as broken as that variant. */
const SEVERITY: Record<HealthStatus, number> = { unreachable: 4, 'server-error': 3, 'client-error': 2, redirects: 1, ok: 0 };

/** An answer, in the view's words. A Location that is not an http(s) URL is not shown. */
export function classify(answer: ProbeAnswer, url: string, checkedAt: string): Observation {
  if ('failure' in answer) return { status: 'unreachable', error: answer.failure, checkedAt };
  const { status } = answer;
  if (status >= 200 && status < 300) return { status: 'ok', statusCode: status, checkedAt };
  if (status >= 300 && status < 400) {
    const location = absoluteLocation(answer.location, url);
    return { status: 'redirects', statusCode: status, ...(location ? { location } : {}), checkedAt };
  }
  if (status >= 400 && status < 500) return { status: 'client-error', statusCode: status, checkedAt };
  return { status: 'server-error', statusCode: status, checkedAt };
}

function absoluteLocation(location: string | undefined, base: string): string | undefined {
  if (!location) return undefined;
  try {
    const resolved = new URL(location, base);
    return (resolved.protocol === 'http:' || resolved.protocol === 'https:') && resolved.href.length <= MAX_LOCATION_LENGTH ? resolved.href : undefined;
  } catch {
    return undefined;
  }
}

/** A link's destinations' observations as one: the worst, checked when the latest of them was. */
export function worstOf(observations: readonly Observation[]): Observation | undefined {
  const [first, ...rest] = [...observations].sort((a, b) => SEVERITY[b.status] - SEVERITY[a.status]);
  if (!first) return undefined;
  const checkedAt = [first, ...rest].map((observation) => observation.checkedAt).sort().at(-1) as string;
  return { ...first, checkedAt };
}

/**
 * The link's health after an observation. One that is not newer than the last (a URL's check reused by a second
 * task) changes nothing; a status that disagrees with what the owner was told counts towards CHECKS_TO_FLIP, and one
 * that agrees starts the count again.
 */
export function nextHealth(previous: LinkHealthRecord | undefined, observed: Observation): LinkHealthRecord {
  if (previous && observed.checkedAt <= previous.checkedAt) return previous;
  const since = previous && previous.status === observed.status ? previous.since : observed.checkedAt;
  const wasBroken = previous?.broken ?? false;
  const disagrees = isBrokenStatus(observed.status) !== wasBroken;
  const streak = disagrees ? (previous?.streak ?? 0) + 1 : 0;
  const flips = streak >= CHECKS_TO_FLIP;
  return { ...observed, since, broken: flips ? !wasBroken : wasBroken, streak: flips ? 0 : streak };
}

/** What the view shows of the stored health: not the bookkeeping. */
export function toHealthView(health: LinkHealthRecord): HealthView {
  const { broken: _broken, streak: _streak, ...view } = health;
  return view;
}

/**
 * The link's destinations, each once: its url, its rules' and variants' urls, and its expiredUrl. One that does not
 * parse (stored before destinations were checked) is left out rather than failing the stream's batch or the check.
 */
export function destinationsOf(link: Pick<LinkRecord, 'url' | 'rules' | 'variants' | 'expiredUrl'>): string[] {
  const all = [link.url, ...(link.rules ?? []).map((rule) => rule.url), ...(link.variants ?? []).map((variant) => variant.url), link.expiredUrl];
  return [...new Set(all.filter((url): url is string => typeof url === 'string' && URL.canParse(url)))];
}

/** The due index's partitions: a link is in one by its key's hash, so no partition takes every check's write. */
export const HEALTH_SHARDS = 16;
export function healthShardOf(key: string): string {
  return `h${createHash('sha256').update(key).digest().readUInt16BE(0) % HEALTH_SHARDS}`;
}

/** The host a destination is limited by: its name, whatever the port or scheme. */
export const hostOf = (url: string) => new URL(url).hostname.toLowerCase();
