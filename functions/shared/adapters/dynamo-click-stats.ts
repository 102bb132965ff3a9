import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { emptyDay, type DayCounts, type LinkCounts } from '../domain/analytics/click-counts';
import type { LiveHour, WorkspaceDay } from '../domain/analytics/rollups';
import { DIMENSIONS, type Dimension, type DimensionCounts } from '../domain/analytics/dimensions';
import { decodeSketch, encodeSketch, mergeInto } from '../domain/analytics/visitor-sketch';
import type { ClickStatsStore } from '../domain/ports';
import { UNSTAMPING } from './audit-items';

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
/** Live hours: the API shows the last 60 minutes, so an hour's item is kept 2 hours past its end. */
const LIVE_SECONDS = 3 * 3_600;
/** A workspace day's clicks per link (top links): `l#<link key>`. */
const LINK_PREFIX = 'l#';

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
type PartAction = { kind: 'link' | 'day' | 'live'; action: Action; sketch?: { key: string; after: StoredSketch } };
/** What one delivery writes: a stats item's day (a link's or a workspace's), a link's own counters, a live hour. */
type Entry =
  | { kind: 'link'; code: string; uncounted: number; bots: number }
  | { kind: 'day'; code: string; counts: DayCounts; links?: Record<string, number> }
  | { kind: 'live'; hour: LiveHour };
/** Entries applied together; a link's clicks (its counters and its days) go together, so a link gone since drops whole. */
type Group = { link?: string; entries: Entry[] };
/** A day item's stored sketch and its version (`skv`), which the next write of the sketch must still find. */
type StoredSketch = { sketch: Uint8Array; version: number };
/** Sketches written by another delivery between our read and our write are read again, this many times at most. */
const SKETCH_RACE_ATTEMPTS = 5;
/** Sketches a container remembers (a dense one is 4 KB): beyond this many, all are forgotten and read again. */
const MAX_KNOWN_SKETCHES = 1_000;
const dayKey = (code: string, day: string) => `${code}\n${day}`;

/** The `most` most clicked values, the rest summed as "other" (dropped when `sumRest` is false: a link may be called "other"). */
function capped(counts: Record<string, number>, most: number, sumRest = true): Record<string, number> {
  const entries = Object.entries(counts).sort(([, a], [, b]) => b - a);
  if (entries.length <= most) return counts;
  if (!sumRest) return Object.fromEntries(entries.slice(0, most));
  const kept = Object.fromEntries(entries.slice(0, most - 1));
  const rest = entries.slice(most - 1).reduce((total, [, count]) => total + count, 0);
  return { ...kept, other: (kept.other ?? 0) + rest };
}

/** The day's values per attribute prefix, each dimension cut to its share of one update's additions when they are too many. */
function additionsOf(day: DayCounts, links: Record<string, number> = {}): Array<[string, Record<string, number>]> {
  const groups: Array<[string, Record<string, number>]> = [
    [LINK_PREFIX, links] as [string, Record<string, number>],
    ...DIMENSIONS.map((dimension): [string, Record<string, number>] => [PREFIX[dimension], day.dimensions[dimension]]),
    ...DIMENSIONS.map((dimension): [string, Record<string, number>] => [BOT_MARK + PREFIX[dimension], day.botDimensions[dimension]]),
  ].filter(([, counts]) => Object.keys(counts).length > 0);
  const total = groups.reduce((sum, [, counts]) => sum + Object.keys(counts).length, 0);
  if (total <= MAX_ADDITIONS_PER_UPDATE) return groups;
  const share = Math.max(2, Math.floor(MAX_ADDITIONS_PER_UPDATE / groups.length));
  return groups.map(([prefix, counts]) => [prefix, capped(counts, share, prefix !== LINK_PREFIX)]);
}

function readDimension(counts: DimensionCounts, name: string, value: unknown): void {
  const dimension = DIMENSION_OF_PREFIX.get(name.slice(0, 2));
  if (dimension) counts[dimension][name.slice(2)] = Number(value);
}

/**
 * Click aggregates: one item per (link, UTC day) in the stats table, and the link's all-time `clicks` and `bots` on
 * the link item itself (so the link view and the stats' `total` are one number); beside them (issue 30) one item
 * per (workspace item, day) and per (link or workspace, hour). A delivered batch is applied in transactions of whole
 * groups, each with a marker item for (batch, part) that must not exist yet: a redelivered batch finds its markers and
 * adds nothing twice, and one that failed halfway adds only the parts still missing.
 */
export class DynamoClickStatsStore implements ClickStatsStore {
  /**
   * The sketches this container last read or wrote, with their versions. The next delivery merges into these
   * without reading them again: a write made meanwhile by another container fails the version's condition, and the
   * part is read and merged again. One aggregator container at a time (the usual case) never reads a sketch twice.
   */
  private readonly knownSketches = new Map<string, StoredSketch>();

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly statsTable: string,
    private readonly linksTable: string,
  ) {}

  async apply(batchId: string, counts: readonly LinkCounts[], nowMs: number, rollups: { workspaces: readonly WorkspaceDay[]; live: readonly LiveHour[] } = { workspaces: [], live: [] }): Promise<void> {
    const groups: Group[] = [
      ...counts.map((link): Group => ({
        link: link.code,
        entries: [
          ...(link.uncounted > 0 || link.bots > 0 ? [{ kind: 'link' as const, code: link.code, uncounted: link.uncounted, bots: link.bots }] : []),
          ...link.days.map((day) => ({ kind: 'day' as const, code: link.code, counts: day })),
        ],
      })),
      ...rollups.workspaces.map((workspace): Group => ({ entries: [{ kind: 'day', code: workspace.code, counts: workspace.counts, links: workspace.links }] })),
      ...rollups.live.map((hour): Group => ({ entries: [{ kind: 'live', hour }] })),
    ];
    for (const [index, part] of this.parts(groups).entries()) await this.applyPart(batchId, index, part, nowMs);
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
        if (name.startsWith(LINK_PREFIX)) (counts.links ??= {})[name.slice(LINK_PREFIX.length)] = Number(value);
        else if (name.startsWith(BOT_MARK)) readDimension(counts.botDimensions, name.slice(1), value);
        else readDimension(counts.dimensions, name, value);
      }
      return counts;
    });
  }

  async hours(code: string, fromHour: string, toHour: string): Promise<LiveHour[]> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.statsTable,
        KeyConditionExpression: 'code = :code AND #day BETWEEN :from AND :to',
        ExpressionAttributeNames: { '#day': 'day' },
        ExpressionAttributeValues: { ':code': code, ':from': fromHour, ':to': toHour },
      }),
    );
    return Items.map((item) => {
      const minutes: LiveHour['minutes'] = {};
      for (const [name, value] of Object.entries(item)) {
        const match = /^([mb])(\d{2})$/.exec(name);
        if (!match) continue;
        const minute = (minutes[match[2] as string] ??= { clicks: 0, bots: 0 });
        if (match[1] === 'm') minute.clicks = Number(value);
        else minute.bots = Number(value);
      }
      return { code, hour: String(item.day), minutes };
    });
  }

  /** Whole groups per part, in the batch's (sorted) order: the same batch always splits the same way. */
  private parts(groups: readonly Group[]): Group[][] {
    const parts: Group[][] = [];
    let current: Group[] = [];
    let size = 0;
    for (const group of groups) {
      if (current.length > 0 && size + group.entries.length > MAX_TRANSACTION_ITEMS - 1) {
        parts.push(current);
        current = [];
        size = 0;
      }
      current.push(group);
      size += group.entries.length;
    }
    if (current.length > 0) parts.push(current);
    return parts;
  }

  private async applyPart(batchId: string, index: number, groups: Group[], nowMs: number): Promise<void> {
    let remaining = groups;
    for (let sketchRaces = 0; ; ) {
      const entries = remaining.flatMap((group) => group.entries.map((entry) => ({ group, entry })));
      const stored = await this.storedSketches(entries.map(({ entry }) => entry));
      const actions = entries.map(({ group, entry }) => ({ group, ...this.action(entry, stored, nowMs) }));
      const sketches = actions.flatMap((entry) => (entry.sketch ? [entry.sketch] : []));
      const marker: Action = {
        Put: {
          TableName: this.statsTable,
          Item: { code: `delivery#${batchId}`, day: `part#${index}`, ttl: Math.ceil(nowMs / 1000) + MARKER_SECONDS },
          ConditionExpression: 'attribute_not_exists(code)',
        },
      };
      try {
        await this.client.send(new TransactWriteCommand({ TransactItems: [marker, ...actions.map((entry) => entry.action)] as never }));
        this.remember(sketches);
        return;
      } catch (error) {
        // Whatever was or was not written, these sketches are read again before they are written again.
        for (const { key } of sketches) this.knownSketches.delete(key);
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        if (reasons[0]?.Code === 'ConditionalCheckFailed') return; // this part was applied by an earlier delivery
        const failed = actions.filter((_, position) => reasons[position + 1]?.Code === 'ConditionalCheckFailed');
        // A link gone since its clicks (expired and removed by TTL): its counts are dropped, the rest applied.
        const missing = new Set(failed.filter((entry) => entry.kind === 'link').map((entry) => entry.group));
        // A sketch another delivery wrote since it was read: read again and merged again (registers take the maximum).
        const raced = failed.some((entry) => entry.kind === 'day');
        if (missing.size === 0 && (!raced || ++sketchRaces >= SKETCH_RACE_ATTEMPTS)) throw error;
        remaining = remaining.filter((group) => !missing.has(group));
        if (remaining.length === 0) return;
      }
    }
  }

  private remember(sketches: ReadonlyArray<{ key: string; after: StoredSketch }>): void {
    if (this.knownSketches.size + sketches.length > MAX_KNOWN_SKETCHES) this.knownSketches.clear();
    for (const { key, after } of sketches) this.knownSketches.set(key, after);
  }

  /**
   * The stored sketches of the part's days that bring one: those this container knows as it left them, the others
   * read side by side (one GetItem per item and day).
   */
  private async storedSketches(entries: readonly Entry[]): Promise<Map<string, StoredSketch>> {
    const stored = new Map<string, StoredSketch>();
    const keys = entries.flatMap((entry) => {
      if (entry.kind !== 'day' || !entry.counts.sketch) return [];
      const known = this.knownSketches.get(dayKey(entry.code, entry.counts.day));
      if (known) stored.set(dayKey(entry.code, entry.counts.day), known);
      return known ? [] : [{ code: entry.code, day: entry.counts.day }];
    });
    await Promise.all(
      keys.map(async (key) => {
        const { Item } = await this.client.send(new GetCommand({ TableName: this.statsTable, Key: key, ProjectionExpression: 'sk, skv', ConsistentRead: true }));
        if (Item?.sk instanceof Uint8Array) stored.set(dayKey(key.code, key.day), { sketch: decodeSketch(Item.sk), version: Number(Item.skv ?? 0) });
      }),
    );
    return stored;
  }

  private action(entry: Entry, stored: ReadonlyMap<string, StoredSketch>, nowMs: number): PartAction {
    if (entry.kind === 'link') {
      return {
        kind: 'link',
        action: {
          Update: {
            TableName: this.linksTable,
            Key: { code: entry.code },
            UpdateExpression: `ADD clicks :n, bots :b ${UNSTAMPING}`,
            ConditionExpression: 'attribute_exists(code)',
            ExpressionAttributeValues: { ':n': entry.uncounted, ':b': entry.bots },
          },
        },
      };
    }
    if (entry.kind === 'live') return { kind: 'live', action: this.liveAction(entry.hour, nowMs) };
    const day = entry.counts;
    const names: Record<string, string> = { '#ttl': 'ttl' };
    const values: Record<string, unknown> = { ':clicks': day.clicks, ':bots': day.bots, ':ttl': Math.ceil(Date.parse(`${day.day}T00:00:00.000Z`) / 1000) + DAY_SECONDS };
    const additions = ['clicks :clicks', 'bots :bots'];
    for (const [prefix, counts] of additionsOf(day, entry.links)) {
      for (const [key, count] of Object.entries(counts)) {
        const index = additions.length.toString(36);
        names[`#${index}`] = `${prefix}${key}`;
        values[`:${index}`] = count;
        additions.push(`#${index} :${index}`);
      }
    }
    const key = dayKey(entry.code, day.day);
    const sketch = this.sketchWrite(day, stored.get(key));
    return {
      kind: 'day',
      ...(sketch ? { sketch: { key, after: sketch.after } } : {}),
      action: {
        Update: {
          TableName: this.statsTable,
          Key: { code: entry.code, day: day.day },
          UpdateExpression: `ADD ${additions.join(', ')} SET #ttl = :ttl${sketch?.condition ? ', sk = :sk, skv = :skv' : ''}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ...values, ...(sketch?.values ?? {}) },
          ...(sketch?.condition ? { ConditionExpression: sketch.condition } : {}),
        },
      },
    };
  }

  /** An hour's per-minute counters: `mMM` people's clicks, `bMM` bots (at most 120 additions: within one update). */
  private liveAction(hour: LiveHour, nowMs: number): Action {
    const additions: string[] = [];
    const values: Record<string, unknown> = { ':ttl': Math.max(Math.ceil(Date.parse(`${hour.hour}:00:00.000Z`) / 1000) + LIVE_SECONDS, Math.ceil(nowMs / 1000) + 60) };
    for (const [minute, counts] of Object.entries(hour.minutes)) {
      if (counts.clicks > 0) additions.push(`m${minute} :m${minute}`);
      if (counts.bots > 0) additions.push(`b${minute} :b${minute}`);
      if (counts.clicks > 0) values[`:m${minute}`] = counts.clicks;
      if (counts.bots > 0) values[`:b${minute}`] = counts.bots;
    }
    return {
      Update: {
        TableName: this.statsTable,
        Key: { code: hour.code, day: hour.hour },
        UpdateExpression: `ADD ${additions.join(', ')} SET #ttl = :ttl`,
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: values,
      },
    };
  }

  /**
   * The day's sketch merged into the stored one, written only if it changed and only over the version read (another
   * delivery's write in between cancels the transaction, and the part is read and merged again), and the sketch as
   * it is once the transaction went through.
   */
  private sketchWrite(day: DayCounts, stored: StoredSketch | undefined): { condition?: string; values?: Record<string, unknown>; after: StoredSketch } | undefined {
    if (!day.sketch) return undefined;
    const merged = stored ? Uint8Array.from(stored.sketch) : new Uint8Array(day.sketch.length);
    mergeInto(merged, day.sketch);
    if (stored && merged.every((rank, register) => rank === stored.sketch[register])) return { after: stored };
    const version = stored?.version ?? 0;
    return {
      condition: stored ? 'skv = :prev' : 'attribute_not_exists(skv)',
      values: { ':sk': encodeSketch(merged), ':skv': version + 1, ...(stored ? { ':prev': version } : {}) },
      after: { sketch: merged, version: version + 1 },
    };
  }
}
