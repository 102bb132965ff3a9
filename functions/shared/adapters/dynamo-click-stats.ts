import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { emptyDay, type DayCounts, type LinkCounts } from '../domain/analytics/click-counts';
import { DIMENSIONS, type Dimension, type DimensionCounts } from '../domain/analytics/dimensions';
import { decodeSketch, encodeSketch, mergeInto } from '../domain/analytics/visitor-sketch';
import type { ClickStatsStore } from '../domain/ports';

/** DynamoDB's ceiling per transaction; one place of each is the batch's marker. */
const MAX_TRANSACTION_ITEMS = 100;
/**
 * Dimension values one update adds at most: DynamoDB caps an expression at 4 KB, and each addition costs about
 * ten characters of it. Past this, each dimension keeps its most clicked values and adds the rest as "other".
 */
const MAX_ADDITIONS_PER_UPDATE = 300;
/** Markers only need to outlive redelivery (CloudWatch Logs retries for hours, not days). */
const MARKER_SECONDS = 7 * 86_400;
/** Day items are kept well past the 90 days the API shows. */
const DAY_SECONDS = 400 * 86_400;

/**
 * Dimension values are attribute names of the day item (`c#DE`): ADD creates and increments each in one update.
 * Bots' values carry a `!` before the prefix (`!c#DE`).
 */
const PREFIX: Record<Dimension, string> = {
  country: 'c#', referrer: 'r#', device: 'd#', destination: 'x#',
  browser: 'w#', os: 'o#', region: 'g#', city: 't#', utmSource: 's#', utmMedium: 'm#', utmCampaign: 'k#',
};
const BOT_MARK = '!';
const DIMENSION_OF_PREFIX = new Map(DIMENSIONS.map((dimension) => [PREFIX[dimension], dimension]));

type Action = Record<string, unknown>;
/** What each action of a transaction is, to tell a link gone since (dropped) from a sketch written meanwhile (read again). */
type PartAction = { code: string; kind: 'link' | 'day'; action: Action };
/** A day item's stored sketch and its version (`skv`), which the next write of the sketch must still find. */
type StoredSketch = { sketch: Uint8Array; version: number };
/** Sketches written by another delivery between our read and our write are read again, this many times at most. */
const SKETCH_RACE_ATTEMPTS = 5;
const dayKey = (code: string, day: string) => `${code}\n${day}`;

function capped(counts: Record<string, number>, most: number): Record<string, number> {
  const entries = Object.entries(counts).sort(([, a], [, b]) => b - a);
  if (entries.length <= most) return counts;
  const kept = Object.fromEntries(entries.slice(0, most - 1));
  const rest = entries.slice(most - 1).reduce((total, [, count]) => total + count, 0);
  return { ...kept, other: (kept.other ?? 0) + rest };
}

/** The day's values per attribute prefix, each dimension cut to its share of one update's additions when they are too many. */
function additionsOf(day: DayCounts): Array<[string, Record<string, number>]> {
  const groups: Array<[string, Record<string, number>]> = [
    ...DIMENSIONS.map((dimension): [string, Record<string, number>] => [PREFIX[dimension], day.dimensions[dimension]]),
    ...DIMENSIONS.map((dimension): [string, Record<string, number>] => [BOT_MARK + PREFIX[dimension], day.botDimensions[dimension]]),
  ].filter(([, counts]) => Object.keys(counts).length > 0);
  const total = groups.reduce((sum, [, counts]) => sum + Object.keys(counts).length, 0);
  if (total <= MAX_ADDITIONS_PER_UPDATE) return groups;
  const share = Math.max(2, Math.floor(MAX_ADDITIONS_PER_UPDATE / groups.length));
  return groups.map(([prefix, counts]) => [prefix, capped(counts, share)]);
}

function readDimension(counts: DimensionCounts, name: string, value: unknown): void {
  const dimension = DIMENSION_OF_PREFIX.get(name.slice(0, 2));
  if (dimension) counts[dimension][name.slice(2)] = Number(value);
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
      const counts: DayCounts = { ...emptyDay(String(item.day)), clicks: Number(item.clicks ?? 0), bots: Number(item.bots ?? 0) };
      if (item.sk instanceof Uint8Array) counts.sketch = decodeSketch(item.sk);
      for (const [name, value] of Object.entries(item)) {
        if (name.startsWith(BOT_MARK)) readDimension(counts.botDimensions, name.slice(1), value);
        else readDimension(counts.dimensions, name, value);
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
      const actions = link.days.length + (link.uncounted > 0 || link.bots > 0 ? 1 : 0);
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
    for (let sketchRaces = 0; ; ) {
      const stored = await this.storedSketches(remaining);
      const actions = remaining.flatMap((link) => this.actions(link, stored));
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
        const failed = actions.filter((_, position) => reasons[position + 1]?.Code === 'ConditionalCheckFailed');
        // A link gone since its clicks (expired and removed by TTL): its counts are dropped, the rest applied.
        const missing = new Set(failed.filter((entry) => entry.kind === 'link').map((entry) => entry.code));
        // A sketch another delivery wrote since it was read: read again and merged again (registers take the maximum).
        const raced = failed.some((entry) => entry.kind === 'day');
        if (missing.size === 0 && (!raced || ++sketchRaces >= SKETCH_RACE_ATTEMPTS)) throw error;
        remaining = remaining.filter((link) => !missing.has(link.code));
        if (remaining.length === 0) return;
      }
    }
  }

  /** The stored sketches of the part's (link, day) pairs that bring one: one BatchGetItem (a part has fewer than 100). */
  private async storedSketches(links: readonly LinkCounts[]): Promise<Map<string, StoredSketch>> {
    const stored = new Map<string, StoredSketch>();
    let keys: Array<Record<string, unknown>> = links.flatMap((link) => link.days.filter((day) => day.sketch).map((day) => ({ code: link.code, day: day.day })));
    while (keys.length > 0) {
      const { Responses, UnprocessedKeys } = await this.client.send(
        new BatchGetCommand({ RequestItems: { [this.statsTable]: { Keys: keys, ProjectionExpression: 'code, #day, sk, skv', ExpressionAttributeNames: { '#day': 'day' }, ConsistentRead: true } } }),
      );
      for (const item of Responses?.[this.statsTable] ?? []) {
        if (item.sk instanceof Uint8Array) stored.set(dayKey(String(item.code), String(item.day)), { sketch: decodeSketch(item.sk), version: Number(item.skv ?? 0) });
      }
      keys = (UnprocessedKeys?.[this.statsTable]?.Keys as Array<Record<string, unknown>> | undefined) ?? [];
    }
    return stored;
  }

  private actions(link: LinkCounts, stored: ReadonlyMap<string, StoredSketch>): PartAction[] {
    const actions: PartAction[] = [];
    if (link.uncounted > 0 || link.bots > 0) {
      actions.push({
        code: link.code,
        kind: 'link',
        action: {
          Update: {
            TableName: this.linksTable,
            Key: { code: link.code },
            UpdateExpression: 'ADD clicks :n, bots :b',
            ConditionExpression: 'attribute_exists(code)',
            ExpressionAttributeValues: { ':n': link.uncounted, ':b': link.bots },
          },
        },
      });
    }
    for (const day of link.days) {
      const names: Record<string, string> = { '#ttl': 'ttl' };
      const values: Record<string, unknown> = { ':clicks': day.clicks, ':bots': day.bots, ':ttl': Math.ceil(Date.parse(`${day.day}T00:00:00.000Z`) / 1000) + DAY_SECONDS };
      const additions = ['clicks :clicks', 'bots :bots'];
      for (const [prefix, counts] of additionsOf(day)) {
        for (const [key, count] of Object.entries(counts)) {
          const index = additions.length.toString(36);
          names[`#${index}`] = `${prefix}${key}`;
          values[`:${index}`] = count;
          additions.push(`#${index} :${index}`);
        }
      }
      const sketch = this.sketchWrite(day, stored.get(dayKey(link.code, day.day)));
      actions.push({
        code: link.code,
        kind: 'day',
        action: {
          Update: {
            TableName: this.statsTable,
            Key: { code: link.code, day: day.day },
            UpdateExpression: `ADD ${additions.join(', ')} SET #ttl = :ttl${sketch ? ', sk = :sk, skv = :skv' : ''}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ...values, ...(sketch?.values ?? {}) },
            ...(sketch ? { ConditionExpression: sketch.condition } : {}),
          },
        },
      });
    }
    return actions;
  }

  /**
   * The day's sketch merged into the stored one, written only if it changed and only over the version read (another
   * delivery's write in between cancels the transaction, and the part is read and merged again).
   */
  private sketchWrite(day: DayCounts, stored: StoredSketch | undefined): { condition: string; values: Record<string, unknown> } | undefined {
    if (!day.sketch) return undefined;
    const merged = stored ? Uint8Array.from(stored.sketch) : new Uint8Array(day.sketch.length);
    mergeInto(merged, day.sketch);
    if (stored && merged.every((rank, register) => rank === stored.sketch[register])) return undefined;
    const version = stored?.version ?? 0;
    return {
      condition: stored ? 'skv = :prev' : 'attribute_not_exists(skv)',
      values: { ':sk': encodeSketch(merged), ':skv': version + 1, ...(stored ? { ':prev': version } : {}) },
    };
  }
}
