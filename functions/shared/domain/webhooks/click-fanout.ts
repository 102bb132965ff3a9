import type { Click } from '../analytics/click';
import type { DeliveryQueue, WebhookStore } from '../ports';
import { clickEventsOf } from './account-events';
import { queueTasks } from './event-fanout';
import type { WebhookRecord } from './webhook';
import { Expiring } from '../expiring';

/**
 * How long a container trusts that an account takes no link.clicked (no webhook, or none enabled and subscribed to
 * it): a webhook that starts taking clicks (added, enabled, subscribed) gets them within this time.
 */
export const QUIET_ACCOUNT_MS = 30_000;
/**
 * How long a container remembers a link's owner. A short code keeps its owner for life (a deleted link stays a
 * tombstone); only a link removed by its expiry's TTL frees its code for someone else.
 */
export const LINK_OWNER_MS = 10 * 60_000;

export interface ClickFanoutDeps {
  /** The link's owner (undefined: the link is gone). */
  ownerOf: (key: string) => Promise<string | undefined>;
  webhooks: Pick<WebhookStore, 'list' | 'countQueuedClicks'>;
  queue: DeliveryQueue;
}

const takesClicks = (webhook: WebhookRecord) => webhook.enabled && webhook.events.includes('link.clicked');

/**
 * link.clicked for the aggregator's deliveries, free for the accounts that take none. A container remembers each
 * clicked link's owner (LINK_OWNER_MS) and each quiet account (QUIET_ACCOUNT_MS): the clicks of a quiet account's
 * links then cost no read at all, and once its time is up, one webhooks query for all of its links. A remembered
 * owner is only trusted to keep quiet: before a click goes to an account's webhooks, its link's owner is read
 * again, so a code taken over by another account can at worst lose that account's clicks for a while, never send
 * them to the first account. Accounts that take clicks are read on every delivery, as before. Returns how many
 * tasks were queued.
 */
export class ClickFanout {
  private readonly linkOwners = new Expiring<string | undefined>();
  private readonly quietAccounts = new Expiring<true>();

  constructor(private readonly deps: ClickFanoutDeps) {}

  async queue(clicks: readonly Click[], deliveryId: string, nowMs: number): Promise<number> {
    const keys = [...new Set(clicks.map((click) => click.code))];
    const owners = new Map<string, string | undefined>();
    const readNow = new Set<string>();
    const readOwner = async (key: string) => {
      const owner = await this.deps.ownerOf(key);
      owners.set(key, owner);
      readNow.add(key);
      // A gone link's code may be taken again: it is remembered as briefly as a quiet account.
      this.linkOwners.set(key, owner, nowMs + (owner === undefined ? QUIET_ACCOUNT_MS : LINK_OWNER_MS), nowMs);
    };
    await Promise.all(
      keys.map(async (key) => {
        const remembered = this.linkOwners.get(key, nowMs);
        if (remembered) owners.set(key, remembered.value);
        else await readOwner(key);
      }),
    );
    const taking = new Map<string, WebhookRecord[]>();
    await this.sortAccounts(owners.values(), taking, nowMs);
    const recheck = keys.filter((key) => !readNow.has(key) && taking.has(owners.get(key) ?? ''));
    if (recheck.length > 0) {
      await Promise.all(recheck.map(readOwner));
      await this.sortAccounts(recheck.map((key) => owners.get(key)), taking, nowMs);
    }
    const events = await clickEventsOf(clicks, deliveryId, async (key) => {
      const owner = owners.get(key);
      return owner !== undefined && taking.has(owner) ? owner : undefined;
    });
    return queueTasks(events, [...taking.values()].flat(), this.deps, nowMs);
  }

  /** Accounts not yet known: their click-taking webhooks into `taking`, or remembered as quiet. */
  private async sortAccounts(owners: Iterable<string | undefined>, taking: Map<string, WebhookRecord[]>, nowMs: number): Promise<void> {
    const unknown = [...new Set(owners)].filter(
      (owner): owner is string => owner !== undefined && owner !== 'anonymous' && !taking.has(owner) && !this.quietAccounts.get(owner, nowMs),
    );
    await Promise.all(
      unknown.map(async (owner) => {
        const webhooks = (await this.deps.webhooks.list(owner)).filter(takesClicks);
        if (webhooks.length > 0) taking.set(owner, webhooks);
        else this.quietAccounts.set(owner, true, nowMs + QUIET_ACCOUNT_MS, nowMs);
      }),
    );
  }
}
