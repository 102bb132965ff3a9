import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DeviceClass } from '../domain/analytics/click';
import type { DestinationLabel } from '../domain/destinations/smart-link';
import type { DayCounts, LinkCounts } from '../domain/analytics/click-counts';
import type { ClickStatsStore } from '../domain/ports';

/** DynamoDB's ceiling per transaction; one place of each is the batch's marker. */
const MAX_TRANSACTION_ITEMS = 100;
/** Beyond this many distinct hosts in one batch for one link and day, the rest count as "other" (update size). */
const MAX_REFERRERS_PER_UPDATE = 150;
/** Markers only need to outlive redelivery (CloudWatch Logs retries for hours, not days). */
const MARKER_SECONDS = 7 * 86_400;
/** Day items are kept well past the 90 days the API shows. */
const DAY_SECONDS = 400 * 86_400;

/** Dimension values are attribute names of the day item: ADD creates and increments each in one update. */
const PREFIX = { countries: 'c#', referrers: 'r#', devices: 'd#', destinations: 'x#' } as const;

type Action = Record<string, unknown>;

function cappedReferrers(referrers: Record<string, number>): Record<string, number> {
  const entries = Object.entries(referrers).sort(([, a], [, b]) => b - a);
  if (entries.length <= MAX_REFERRERS_PER_UPDATE) return referrers;
  const kept = Object.fromEntries(entries.slice(0, MAX_REFERRERS_PER_UPDATE - 1));
  const rest = entries.slice(MAX_REFERRERS_PER_UPDATE - 1).reduce((total, [, count]) => total + count, 0);
  return { ...kept, other: (kept.other ?? 0) + rest };
}

/**
 * Click aggregates: one item per (link, UTC day) in the stats table, and the link's all-time `clicks` on the link
 * item itself (so the link view and the stats' `total` are one number). A delivered batch is applied in
 * transactions of whole links, each with a marker item for (batch, part) that must not exist yet: a redelivered
 * batch finds its markers and adds nothing twice, and one that failed halfway adds only the parts still missing.
 */
export class DynamoClickStatsStore implements ClickStatsStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly statsTable: string,
    private readonly linksTable: string,
  ) {}

  async apply(batchId: string, counts: readonly LinkCounts[], nowMs: number): Promise<void> {
    const parts = this.parts(counts);
    for (const [index, part] of parts.entries()) await this.applyPart(batchId, index, part, nowMs);
  }

  async days(code: string, fromDay: string, toDay: string): Promise<DayCounts[]> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.statsTable,
        KeyConditionExpression: 'code = :code AND #day BETWEEN :from AND :to',
        ExpressionAttributeNames: { '#day': 'day' },
        ExpressionAttributeValues: { ':code': code, ':from': fromDay, ':to': toDay },
      }),
    );
    return Items.map((item) => {
      const counts: DayCounts = { day: String(item.day), clicks: Number(item.clicks ?? 0), countries: {}, referrers: {}, devices: {}, destinations: {} };
      for (const [name, value] of Object.entries(item)) {
        if (name.startsWith(PREFIX.countries)) counts.countries[name.slice(2)] = Number(value);
        else if (name.startsWith(PREFIX.referrers)) counts.referrers[name.slice(2)] = Number(value);
        else if (name.startsWith(PREFIX.devices)) counts.devices[name.slice(2) as DeviceClass] = Number(value);
        else if (name.startsWith(PREFIX.destinations)) counts.destinations[name.slice(2) as DestinationLabel] = Number(value);
      }
      return counts;
    });
  }

  /** Whole links per part, in the batch's (sorted) order: the same batch always splits the same way. */
  private parts(counts: readonly LinkCounts[]): LinkCounts[][] {
    const parts: LinkCounts[][] = [];
    let current: LinkCounts[] = [];
    let size = 0;
    for (const link of counts) {
      const actions = link.days.length + (link.uncounted > 0 ? 1 : 0);
      if (current.length > 0 && size + actions > MAX_TRANSACTION_ITEMS - 1) {
        parts.push(current);
        current = [];
        size = 0;
      }
      current.push(link);
      size += actions;
    }
    if (current.length > 0) parts.push(current);
    return parts;
  }

  private async applyPart(batchId: string, index: number, links: LinkCounts[], nowMs: number): Promise<void> {
    let remaining = links;
    for (;;) {
      const actions = remaining.flatMap((link) => this.actions(link));
      const marker: Action = {
        Put: {
          TableName: this.statsTable,
          Item: { code: `delivery#${batchId}`, day: `part#${index}`, ttl: Math.ceil(nowMs / 1000) + MARKER_SECONDS },
          ConditionExpression: 'attribute_not_exists(code)',
        },
      };
      try {
        await this.client.send(new TransactWriteCommand({ TransactItems: [marker, ...actions.map((entry) => entry.action)] as never }));
        return;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        if (reasons[0]?.Code === 'ConditionalCheckFailed') return; // this part was applied by an earlier delivery
        // A link gone since its clicks (expired and removed by TTL): its counts are dropped, the rest applied.
        const missing = new Set(actions.filter((_, position) => reasons[position + 1]?.Code === 'ConditionalCheckFailed').map((entry) => entry.code));
        if (missing.size === 0) throw error;
        remaining = remaining.filter((link) => !missing.has(link.code));
        if (remaining.length === 0) return;
      }
    }
  }

  private actions(link: LinkCounts): Array<{ code: string; action: Action }> {
    const actions: Array<{ code: string; action: Action }> = [];
    if (link.uncounted > 0) {
      actions.push({
        code: link.code,
        action: {
          Update: {
            TableName: this.linksTable,
            Key: { code: link.code },
            UpdateExpression: 'ADD clicks :n',
            ConditionExpression: 'attribute_exists(code)',
            ExpressionAttributeValues: { ':n': link.uncounted },
          },
        },
      });
    }
    for (const day of link.days) {
      const names: Record<string, string> = { '#ttl': 'ttl' };
      const values: Record<string, unknown> = { ':clicks': day.clicks, ':ttl': Math.ceil(Date.parse(`${day.day}T00:00:00.000Z`) / 1000) + DAY_SECONDS };
      const additions = ['clicks :clicks'];
      const dimensions: Array<[string, Record<string, number>]> = [
        [PREFIX.countries, day.countries],
        [PREFIX.referrers, cappedReferrers(day.referrers)],
        [PREFIX.devices, day.devices as Record<string, number>],
        [PREFIX.destinations, day.destinations as Record<string, number>],
      ];
      for (const [prefix, counts] of dimensions) {
        for (const [key, count] of Object.entries(counts)) {
          const index = additions.length;
          names[`#a${index}`] = `${prefix}${key}`;
          values[`:a${index}`] = count;
          additions.push(`#a${index} :a${index}`);
        }
      }
      actions.push({
        code: link.code,
        action: {
          Update: {
            TableName: this.statsTable,
            Key: { code: link.code, day: day.day },
            UpdateExpression: `ADD ${additions.join(', ')} SET #ttl = :ttl`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        },
      });
    }
    return actions;
  }
}
