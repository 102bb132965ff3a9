import { createHash } from 'node:crypto';
import { isExpired, toLinkView, type LinkRecord, type LinkView } from '../links/link';
import type { SubscribableEvent } from './webhook';

/** A link's event before it is addressed to webhooks: whose link, what happened, when. */
export interface OwnedEvent {
  owner: string;
  id: string;
  type: SubscribableEvent;
  timestamp: string;
  data: unknown;
  /** link.expired is due at the link's expiry: delivered then, if the link still expires at that instant. */
  dueAt?: number;
  /** The link to read again at `dueAt` (its key and the expiry promised). */
  confirmExpiry?: { key: string; expiresAt: string };
}

/** A committed change to the links table, as its stream reports it. */
export interface LinkChange {
  /** The stream record's id: retries of the same record give the same event ids. */
  recordId: string;
  kind: 'INSERT' | 'MODIFY' | 'REMOVE';
  old?: LinkRecord;
  new?: LinkRecord;
  /** DynamoDB's TTL removed the item (the record's userIdentity names the service). */
  byTtl: boolean;
  /** When the change was committed (epoch ms). */
  atMs: number;
}

/** Attributes whose change the owner would call an update; clicks, leases and seals are the service's bookkeeping. */
const EDITED_FIELDS = ['url', 'expiresAt', 'maxClicks', 'passwordHash', 'tags', 'rules', 'variants', 'forwardQuery', 'utm', 'expiredUrl'] as const;

/** Deterministic ids: a retried stream record or a repeated due event carries the id it had the first time. */
export function eventId(...parts: string[]): string {
  return `evt_${createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 27)}`;
}

const usedUp = (link: LinkRecord) => link.retired === true || (link.maxClicks !== undefined && link.clicks >= link.maxClicks);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The link.expired due at a record's expiry (keyed by link and instant: the TTL's removal later repeats its id). */
function expiryEvent(link: LinkRecord & { expiresAt: string }, view: LinkView, key: string): OwnedEvent {
  return {
    owner: link.owner,
    id: eventId('link.expired', key, link.expiresAt),
    type: 'link.expired',
    timestamp: link.expiresAt,
    data: view,
    dueAt: Date.parse(link.expiresAt),
    confirmExpiry: { key, expiresAt: link.expiresAt },
  };
}

/**
 * The events one committed change means. `key` is the item's key (code, or domain/code). A change can mean
 * several (an edit that sets a new expiry is an update and a future expiry); v1 links (owner "anonymous") have none.
 */
export function linkEventsOf(change: LinkChange, key: string, shortBaseUrl: string): OwnedEvent[] {
  const link = change.new ?? change.old;
  if (!link || link.owner === 'anonymous') return [];
  const timestamp = new Date(change.atMs).toISOString();
  const view = toLinkView(link, shortBaseUrl, change.atMs);
  const event = (type: SubscribableEvent): OwnedEvent => ({ owner: link.owner, id: eventId(type, change.recordId), type, timestamp, data: view });

  if (change.kind === 'REMOVE') {
    // The TTL removes a link 90 days after its expiry: the same link.expired (same id) as at the expiry itself.
    return change.byTtl && link.expiresAt ? [{ ...expiryEvent({ ...link, expiresAt: link.expiresAt }, view, key), dueAt: undefined, confirmExpiry: undefined }] : [];
  }
  const before = change.old;
  const after = change.new;
  if (!after) return [];
  const events: OwnedEvent[] = [];
  const expiresLater = after.expiresAt !== undefined && !isExpired(after, change.atMs) && !after.deleted && !usedUp(after);
  if (!before) {
    if (after.deleted || after.retired) return [];
    events.push(event('link.created'));
    if (expiresLater) events.push(expiryEvent({ ...after, expiresAt: after.expiresAt as string }, view, key));
    return events;
  }
  if (!before.deleted && after.deleted) return [event('link.deleted')];
  if (!before.disabled && after.disabled) return [event('link.disabled')];
  if (before.disabled && !after.disabled) events.push(event('link.enabled'));
  // Counting to maxClicks and the tombstone that follows are two writes: the first one reaching the limit tells.
  if (!usedUp(before) && usedUp(after)) events.push(event('link.used-up'));
  // A tombstone's fields change only when its domain's cleanup clears them: no edit of the owner's.
  if (EDITED_FIELDS.some((field) => !same(before[field], after[field])) && !usedUp(after) && !after.deleted) {
    events.push(event('link.updated'));
    if (expiresLater && before.expiresAt !== after.expiresAt) events.push(expiryEvent({ ...after, expiresAt: after.expiresAt as string }, view, key));
  }
  // The health worker's writes (issue 31): told once the checks agree twice in a row (link-health.ts).
  const wasBroken = before.health?.broken === true;
  const isBroken = after.health?.broken === true;
  if (!wasBroken && isBroken) events.push(event('link.broken'));
  if (wasBroken && !isBroken && after.health) events.push(event('link.recovered'));
  return events;
}

/** Whether the link read at its due time still expires at the instant promised (an edit or deletion cancels it). */
export function stillExpiresAt(link: LinkRecord | undefined, expiresAt: string): link is LinkRecord {
  return link !== undefined && link.expiresAt === expiresAt && !link.deleted && !link.disabled && !usedUp(link);
}
