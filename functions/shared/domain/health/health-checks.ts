import { keyOf, statusOf } from '../links/link';
import type { DestinationRequest, HealthLinks, HealthQueue, HostSlots, UrlChecks } from '../ports';
import {
  CHECK_EVERY_MS,
  classify,
  destinationsOf,
  HEAD_REFUSED,
  HEALTH_SHARDS,
  hostOf,
  nextHealth,
  worstOf,
  type Observation,
  type ProbeAnswer,
} from './link-health';

/** How far ahead a check may book its host's second: past it, the link waits in the queue instead of a worker. */
export const SLOT_AHEAD_SECONDS = 10;
/** A claimed URL's check is another worker's for this long (two slot waits and two 10 s requests fit in it). */
const CLAIM_MS = 60_000;
/** A task that found its URL claimed, or its host booked up, comes back this much later. */
export const BUSY_RETRY_SECONDS = SLOT_AHEAD_SECONDS;

export interface HealthCheckDeps {
  links: HealthLinks;
  urls: UrlChecks;
  slots: HostSlots;
  request: DestinationRequest;
  /** Whether this destination may be checked at all (a local run's allow list; every destination on AWS). */
  mayCheck: (url: string) => boolean;
  /** LOCAL_HEALTH_TIME_SCALE: 1 on AWS; a local run's day is shorter. */
  timeScale: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/** The host's turn was not to be had within SLOT_AHEAD_SECONDS, or another worker holds the URL's check. */
export class HealthCheckBusy extends Error {}

/** Waits for a second of the host's own: at most one request per host per second, whoever sends it. */
async function takeTurn(host: string, deps: HealthCheckDeps): Promise<void> {
  for (;;) {
    const second = Math.floor(deps.now() / 1000);
    const slot = await deps.slots.reserve(host, second, SLOT_AHEAD_SECONDS);
    if (slot === undefined) throw new HealthCheckBusy();
    const wait = slot * 1000 - deps.now();
    if (wait > 0) await deps.sleep(wait);
    // A worker that woke past its second (a paused container) books another rather than send in someone else's.
    if (deps.now() < (slot + 1) * 1000) return;
  }
}

/** HEAD, then GET (its first 64 KiB, read by the adapter) when the HEAD is refused: each in a turn of the host's. */
export async function probe(url: string, deps: HealthCheckDeps): Promise<Observation> {
  const host = hostOf(url);
  await takeTurn(host, deps);
  let answer: ProbeAnswer = await deps.request(url, 'HEAD');
  if ('status' in answer && HEAD_REFUSED.has(answer.status)) {
    await takeTurn(host, deps);
    answer = await deps.request(url, 'GET');
  }
  return classify(answer, url, new Date(deps.now()).toISOString());
}

/** The URL's check of the day: the one made (for any link) in the last 24 hours, else a new one, claimed first. */
async function observe(url: string, deps: HealthCheckDeps): Promise<Observation> {
  const day = CHECK_EVERY_MS * deps.timeScale;
  const nowMs = deps.now();
  const latest = await deps.urls.latest(url);
  if (latest && Date.parse(latest.checkedAt) > nowMs - day) return latest;
  if (!(await deps.urls.claim(url, nowMs, nowMs - day, CLAIM_MS))) throw new HealthCheckBusy();
  try {
    const observation = await probe(url, deps);
    await deps.urls.record(url, observation);
    return observation;
  } catch (error) {
    await deps.urls.release(url);
    throw error;
  }
}

/**
 * One link's check: each destination's check of the day (made now or reused), the worst of them applied to the
 * link's health, and its next due time: a day after its oldest destination's check, when that URL may be checked
 * again. A link that ended (or, locally, has nothing allowed to check) leaves the due index.
 */
export async function checkLink(key: string, deps: HealthCheckDeps): Promise<'checked' | 'notChecked'> {
  const link = await deps.links.find(key);
  const destinations = link && statusOf(link, deps.now()) === 'active' ? destinationsOf(link).filter(deps.mayCheck) : [];
  if (!link || destinations.length === 0) {
    if (link) await deps.links.stopChecking(keyOf(link));
    return 'notChecked';
  }
  // Side by side (each URL's checks made or reused are kept, so a link sent back for a busy host resumes, not restarts).
  const settled = await Promise.allSettled(destinations.map((url) => observe(url, deps)));
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  const observations = settled.map((result) => (result as PromiseFulfilledResult<Observation>).value);
  const combined = worstOf(observations) as Observation;
  const oldest = Math.min(...observations.map((observation) => Date.parse(observation.checkedAt)));
  const day = CHECK_EVERY_MS * deps.timeScale;
  await deps.links.saveHealth(keyOf(link), nextHealth(link.health, combined), Math.max(oldest + day, deps.now() + day / 24));
  return 'checked';
}

/** One message of the queue: its id, and its link's key (undefined when the body is not one). */
export interface QueuedCheck {
  messageId: string;
  key: string | undefined;
}

/**
 * A batch of the queue, side by side: a link whose URL another worker is checking, or whose host is booked up for
 * the next seconds, goes back on the queue with a delay (not a failure: no receive is spent); a failure of the
 * worker itself (DynamoDB down) or a body that is no link is returned, for SQS to offer again and then keep in the
 * dead-letter queue. The count checked, and the ids that failed.
 */
export async function checkQueued(
  messages: readonly QueuedCheck[],
  deps: HealthCheckDeps & { queue: HealthQueue },
  onError: (messageId: string, error: unknown) => void,
): Promise<{ checked: number; failed: string[] }> {
  const failed: string[] = [];
  const later: string[] = [];
  let checked = 0;
  await Promise.all(
    messages.map(async ({ messageId, key }) => {
      try {
        if (key === undefined) throw new Error('not a link to check');
        if ((await checkLink(key, deps)) === 'checked') checked += 1;
      } catch (error) {
        if (error instanceof HealthCheckBusy && key !== undefined) later.push(key);
        else {
          onError(messageId, error);
          failed.push(messageId);
        }
      }
    }),
  );
  if (later.length > 0) await deps.queue.send(later, BUSY_RETRY_SECONDS);
  return { checked, failed };
}

/** Due links read per partition per run: the rest are still due at the next run. */
export const DUE_PER_SHARD = 500;
/** A link queued by a run is due again this long after (its check lost, the next run takes it). */
const LEASE_FRACTION_OF_DAY = 1 / 24;

/**
 * The schedule's run: every partition of the due index, each due link leased (so the next run does not queue it
 * again while it waits) and queued. The count queued.
 */
export async function queueDueLinks(deps: { links: HealthLinks; queue: HealthQueue; timeScale: number; now: () => number }): Promise<number> {
  const nowMs = deps.now();
  const leaseUntil = nowMs + CHECK_EVERY_MS * deps.timeScale * LEASE_FRACTION_OF_DAY;
  const shards = Array.from({ length: HEALTH_SHARDS }, (_, index) => `h${index}`);
  const leased = await Promise.all(
    shards.map(async (shard) => {
      const due = await deps.links.due(shard, nowMs, DUE_PER_SHARD);
      const taken = await Promise.all(due.map(async ({ key, dueAtMs }) => ((await deps.links.lease(key, dueAtMs, leaseUntil)) ? key : undefined)));
      return taken.filter((key): key is string => key !== undefined);
    }),
  );
  const keys = leased.flat();
  if (keys.length > 0) await deps.queue.send(keys);
  return keys.length;
}
