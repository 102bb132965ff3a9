import type { Click } from '../analytics/click';
import type { DeliveryQueue, WebhookStore } from '../ports';
import { clickEventsOf } from './account-events';
import { tasksFor } from './delivery';
import type { WebhookRecord } from './webhook';

/**
 * How long a container trusts that an account takes no link.clicked (no webhook, or none enabled and subscribed to
 * it): a webhook that starts taking clicks (added, enabled, subscribed) gets them within this time.
 */
export const QUIET_ACCOUNT_MS = 30_000;
/** Beyond this many remembered links or accounts the expired ones are dropped, and all of them if none expired. */
const MAX_REMEMBERED = 50_000;

export interface ClickFanoutDeps {
  /** The link's owner (undefined: the link is gone). */
  ownerOf: (key: string) => Promise<string | undefined>;
  webhooks: Pick<WebhookStore, 'list'>;
  queue: DeliveryQueue;
}

/** Entries that hold until an instant, bounded in number. */
class Expiring {
  private readonly until = new Map<string, number>();

  has(key: string, nowMs: number): boolean {
    return this.expiry(key) > nowMs;
  }

  expiry(key: string): number {
    return this.until.get(key) ?? -Infinity;
  }

  add(key: string, untilMs: number, nowMs: number): void {
    if (this.until.size >= MAX_REMEMBERED) {
      for (const [entry, expiry] of this.until) if (expiry <= nowMs) this.until.delete(entry);
      if (this.until.size >= MAX_REMEMBERED) this.until.clear();
    }
    this.until.set(key, untilMs);
  }
}

const takesClicks = (webhook: WebhookRecord) => webhook.enabled && webhook.events.includes('link.clicked');

/**
 * link.clicked for the aggregator's deliveries, free for the accounts that take none: a quiet account (one whose
 * webhooks, if any, do not take link.clicked) is remembered for QUIET_ACCOUNT_MS, and so are its links, so the
 * clicks of a hot link cost no owner read and no webhooks query per delivery. A link's owner is remembered only
 * while that owner is quiet: an alias deleted and created again by another account can at worst lose that
 * account's clicks for the time, never send them to the first account's webhooks. Accounts that take clicks are
 * read on every delivery, as before. Returns how many tasks were queued.
 */
export class ClickFanout {
  private readonly quietAccounts = new Expiring();
  private readonly quietLinks = new Expiring();

  constructor(private readonly deps: ClickFanoutDeps) {}

  async queue(clicks: readonly Click[], deliveryId: string, nowMs: number): Promise<number> {
    const owners = new Map<string, string | undefined>();
    const events = await clickEventsOf(clicks, deliveryId, async (key) => {
      if (this.quietLinks.has(key, nowMs)) return undefined;
      const owner = await this.deps.ownerOf(key);
      owners.set(key, owner);
      return owner;
    });
    const accounts = [...new Set(events.map((event) => event.owner))];
    const webhooks = await Promise.all(accounts.map(async (owner) => (this.quietAccounts.has(owner, nowMs) ? [] : (await this.deps.webhooks.list(owner)).filter(takesClicks))));
    accounts.forEach((owner, index) => {
      if (webhooks[index]?.length === 0) this.quietAccounts.add(owner, nowMs + QUIET_ACCOUNT_MS, nowMs);
    });
    // Gone and anonymous links are quiet for the time too, a quiet account's links as long as the account.
    for (const [key, owner] of owners) {
      if (owner === undefined || owner === 'anonymous') this.quietLinks.add(key, nowMs + QUIET_ACCOUNT_MS, nowMs);
      else if (this.quietAccounts.has(owner, nowMs)) this.quietLinks.add(key, this.quietAccounts.expiry(owner), nowMs);
    }
    const tasks = tasksFor(events, webhooks.flat(), nowMs);
    if (tasks.length > 0) await this.deps.queue.send(tasks, nowMs);
    return tasks.length;
  }
}
