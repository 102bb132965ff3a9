import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoClickStatsStore } from '../../functions/shared/adapters/dynamo-click-stats';
import { DynamoLinkStore } from '../../functions/shared/adapters/dynamo-link-store';
import type { Click } from '../../functions/shared/domain/analytics/click';
import { countClicks } from '../../functions/shared/domain/analytics/click-counts';
import { StackOutputs } from '../../lib/stack-outputs';
import { auditStamp } from '../../functions/shared/domain/audit/audit-stamp';
import { dynamo, freshTables } from '../support/local-stack';
import { dayOf } from '../support/day-counts';
import { estimate, SKETCH_STANDARD_ERROR, visitorUpdate } from '../../functions/shared/domain/analytics/visitor-sketch';
import { liveCode, rollupClicks, workspaceCode } from '../../functions/shared/domain/analytics/rollups';

/** The aggregator's writes against DynamoDB Local: at-least-once delivery, counted exactly once. */
const nowMs = Date.now();
let tables: Record<string, string>;
let links: DynamoLinkStore;

beforeAll(async () => {
  tables = await freshTables();
  links = new DynamoLinkStore(dynamo(), tables[StackOutputs.linksTable] as string);
});

const store = (client: DynamoDBDocumentClient = dynamo()) =>
  new DynamoClickStatsStore(client, tables[StackOutputs.clickStatsTable] as string, tables[StackOutputs.linksTable] as string);

let counter = 0;
async function newLink(fields: { maxClicks?: number } = {}): Promise<string> {
  counter += 1;
  const code = `agg${counter}x${nowMs.toString(36)}`;
  await links.createIfAbsent({ code, url: 'https://example.com/', isAlias: false, createdAt: new Date(nowMs).toISOString(), clicks: 0, owner: 'acct:a', ...fields });
  return code;
}

const click = (code: string, fields: Partial<Click> = {}): Click => ({
  code,
  at: new Date(nowMs).toISOString(),
  country: 'DE',
  referrer: 'direct',
  device: 'desktop',
  counted: false,
  ...fields,
});

const today = new Date(nowMs).toISOString().slice(0, 10);
const clicksOf = async (code: string) => (await links.find(code))?.clicks;

describe('adding a delivery of clicks', () => {
  it('counts a delivery once however often it is delivered', async () => {
    const code = await newLink();
    const counts = countClicks([click(code), click(code, { country: 'FR', device: 'mobile', destination: 'variants[1]' }), click(code, { referrer: 'news.example', destination: 'rules[12]' })]);
    await store().apply('delivery-twice', counts, nowMs);
    await store().apply('delivery-twice', counts, nowMs);
    expect(await clicksOf(code)).toBe(3);
    expect(await store().days(code, today, today)).toEqual([
      dayOf(today, 3, {
        country: { DE: 2, FR: 1 },
        referrer: { direct: 2, 'news.example': 1 },
        device: { desktop: 2, mobile: 1 },
        destination: { 'variants[1]': 1, 'rules[12]': 1 },
        browser: { unknown: 3 },
        os: { unknown: 3 },
        region: { unknown: 3 },
        city: { unknown: 3 },
      }),
    ]);
    await store().apply('another-delivery', countClicks([click(code)]), nowMs);
    expect(await clicksOf(code)).toBe(4);
  });

  it('drops the link\'s audit stamp with the clicks it adds, so the audit recorder\'s stream filter passes the write over (issue 28)', async () => {
    const code = `agg-stamped-${nowMs.toString(36)}`;
    await links.createIfAbsent({ code, url: 'https://example.com/', isAlias: false, createdAt: new Date(nowMs).toISOString(), clicks: 0, owner: 'acct:a' }, auditStamp('link.created', { actor: { kind: 'operator' } }, nowMs));
    const stamp = async () => (await dynamo().send(new GetCommand({ TableName: tables[StackOutputs.linksTable], Key: { code } }))).Item?.auditStamp;
    expect(await stamp()).toMatchObject({ action: 'link.created' });
    await store().apply('unstamping', countClicks([click(code), click(code)]), nowMs);
    expect(await clicksOf(code)).toBe(2);
    expect(await stamp()).toBeUndefined();
  });

  it('leaves a maxClicks link\'s own count to the redirect, and still breaks its clicks down', async () => {
    const code = await newLink({ maxClicks: 5 });
    await store().apply('limited', countClicks([click(code, { counted: true }), click(code, { counted: true })]), nowMs);
    expect(await clicksOf(code)).toBe(0);
    expect((await store().days(code, today, today))[0]?.clicks).toBe(2);
  });

  it('recovers from a delivery that failed halfway: redelivered, it adds only the part that was missing', async () => {
    // 120 links: more than one transaction of 100 items, so the delivery is applied in two parts.
    const codes = await Promise.all(Array.from({ length: 120 }, () => newLink()));
    const counts = countClicks(codes.flatMap((code) => [click(code), click(code, { device: 'mobile' })]));
    let transactions = 0;
    const failingSecondPart = new Proxy(dynamo(), {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return async (command: { constructor: { name: string } }) => {
          if (command.constructor.name === 'TransactWriteCommand' && ++transactions === 2) throw new Error('connection reset halfway');
          return target.send(command as never);
        };
      },
    });
    await expect(store(failingSecondPart).apply('halfway', counts, nowMs)).rejects.toThrow('connection reset halfway');
    const applied = await Promise.all(codes.map(clicksOf));
    expect(applied.filter((clicks) => clicks === 2).length).toBeGreaterThan(0);
    expect(applied.filter((clicks) => clicks === 0).length).toBeGreaterThan(0);

    await store().apply('halfway', counts, nowMs);
    expect(await Promise.all(codes.map(clicksOf))).toEqual(codes.map(() => 2));
    const days = await Promise.all(codes.map((code) => store().days(code, today, today)));
    expect(days.every(([day]) => day?.clicks === 2 && day.dimensions.device.mobile === 1 && day.dimensions.device.desktop === 1)).toBe(true);
  });

  it('keeps bots apart on the link and the day, with their own values, once however often delivered', async () => {
    const code = await newLink();
    const counts = countClicks([click(code), click(code, { bot: true, country: 'US', city: 'Ashburn' }), click(code, { bot: true, country: 'US' })]);
    await store().apply('with-bots', counts, nowMs);
    await store().apply('with-bots', counts, nowMs);
    expect(await links.find(code)).toMatchObject({ clicks: 1, bots: 2 });
    const [day] = await store().days(code, today, today);
    expect([day?.clicks, day?.bots, day?.dimensions.country, day?.botDimensions.country, day?.botDimensions.city]).toEqual([1, 2, { DE: 1 }, { US: 2 }, { Ashburn: 1, unknown: 1 }]);
  });

  it('keeps one update within DynamoDB\'s expression limit when a delivery brings hundreds of values: the least clicked become "other"', async () => {
    const code = await newLink();
    const clicks = Array.from({ length: 400 }, (_, i) => click(code, { city: `Town ${i}`, referrer: `site${i}.example`, utmCampaign: `c${i}`, ...(i < 10 ? { city: 'Big City' } : {}) }));
    await store().apply('many-values', countClicks(clicks), nowMs);
    const [day] = await store().days(code, today, today);
    expect(day?.clicks).toBe(400);
    expect(Object.values(day?.dimensions.city ?? {}).reduce((a, b) => a + b, 0)).toBe(400);
    expect(day?.dimensions.city['Big City']).toBe(10);
    expect(day?.dimensions.city.other).toBeGreaterThan(0);
  });

  it('drops the clicks of a link that no longer exists, and counts the rest of the delivery', async () => {
    const code = await newLink();
    await store().apply('with-a-ghost', countClicks([click('ghost-link-gone'), click(code)]), nowMs);
    expect(await clicksOf(code)).toBe(1);
    const ghost = await dynamo().send(new GetCommand({ TableName: tables[StackOutputs.linksTable], Key: { code: 'ghost-link-gone' } }));
    expect(ghost.Item).toBeUndefined();
    expect(await store().days('ghost-link-gone', today, today)).toEqual([]);
  });

  it('merges a day\'s visitor sketch across deliveries, and a replayed delivery changes nothing', async () => {
    const code = await newLink();
    const visitor = (i: number) => visitorUpdate('salt', `198.51.100.${i}`, 'agent');
    // 40 visitors in the first delivery, 30 of them again and 20 new ones in the second: 60 in all.
    const first = countClicks(Array.from({ length: 40 }, (_, i) => click(code, { visitor: visitor(i) })));
    const second = countClicks(Array.from({ length: 50 }, (_, i) => click(code, { visitor: visitor(i + 10) })));
    await store().apply('sketch-1', first, nowMs);
    await store().apply('sketch-2', second, nowMs);
    const [day] = await store().days(code, today, today);
    const unique = estimate(day?.sketch ?? new Uint8Array());
    expect(Math.abs(unique - 60)).toBeLessThanOrEqual(Math.ceil(3 * SKETCH_STANDARD_ERROR * 60));
    await store().apply('sketch-1', first, nowMs);
    await store().apply('sketch-2', second, nowMs);
    const [replayed] = await store().days(code, today, today);
    expect(replayed?.sketch).toEqual(day?.sketch);
    expect(replayed?.clicks).toBe(90);
  });

  it('reads a sketch again when another delivery wrote it between the read and the write, and loses neither', async () => {
    const code = await newLink();
    const ours = countClicks(Array.from({ length: 20 }, (_, i) => click(code, { visitor: visitorUpdate('salt', `192.0.2.${i}`, 'ours') })));
    const theirs = countClicks(Array.from({ length: 20 }, (_, i) => click(code, { visitor: visitorUpdate('salt', `192.0.2.${i}`, 'theirs') })));
    await store().apply('race-seed', countClicks([click(code, { visitor: visitorUpdate('salt', 'seed', 'x') })]), nowMs);
    let interfered = false;
    const racing = new Proxy(dynamo(), {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return async (command: { constructor: { name: string } }) => {
          if (command.constructor.name === 'TransactWriteCommand' && !interfered) {
            interfered = true;
            await store().apply('race-theirs', theirs, nowMs);
          }
          return target.send(command as never);
        };
      },
    });
    await store(racing).apply('race-ours', ours, nowMs);
    const [day] = await store().days(code, today, today);
    expect(day?.clicks).toBe(41);
    expect(Math.abs(estimate(day?.sketch ?? new Uint8Array()) - 41)).toBeLessThanOrEqual(Math.ceil(3 * SKETCH_STANDARD_ERROR * 41));
  });

  it('reads a sketch once per container: later deliveries merge into the one it wrote (issue 28)', async () => {
    const code = await newLink();
    const reads: string[] = [];
    const counting = new Proxy(dynamo(), {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return (command: { constructor: { name: string } }) => {
          if (command.constructor.name === 'GetCommand') reads.push(command.constructor.name);
          return target.send(command as never);
        };
      },
    });
    const container = store(counting);
    const deliveries = Array.from({ length: 4 }, (_, delivery) =>
      countClicks(Array.from({ length: 10 }, (_, i) => click(code, { visitor: visitorUpdate('salt', `203.0.113.${delivery * 10 + i}`, 'agent') }))),
    );
    for (const [index, counts] of deliveries.entries()) await container.apply(`once-${index}`, counts, nowMs);
    expect(reads).toHaveLength(1);
    const [day] = await store().days(code, today, today);
    expect(Math.abs(estimate(day?.sketch ?? new Uint8Array()) - 40)).toBeLessThanOrEqual(Math.ceil(3 * SKETCH_STANDARD_ERROR * 40));
  });

  it('merges into what another container wrote since this one last wrote the sketch, losing neither', async () => {
    const code = await newLink();
    const visitors = (label: string, from: number) => countClicks(Array.from({ length: 15 }, (_, i) => click(code, { visitor: visitorUpdate('salt', `198.18.0.${from + i}`, label) })));
    const first = store();
    const second = store();
    await first.apply('two-containers-1', visitors('a', 0), nowMs);
    await second.apply('two-containers-2', visitors('b', 0), nowMs);
    // The first container still remembers the sketch as it left it: its write must not undo the second's.
    await first.apply('two-containers-3', visitors('c', 0), nowMs);
    const [day] = await store().days(code, today, today);
    expect(day?.clicks).toBe(45);
    expect(Math.abs(estimate(day?.sketch ?? new Uint8Array()) - 45)).toBeLessThanOrEqual(Math.ceil(3 * SKETCH_STANDARD_ERROR * 45));
  });

  it('writes per delivery as many items as distinct (link, day) pairs, however many clicks they hold', async () => {
    const codes = await Promise.all(Array.from({ length: 3 }, () => newLink()));
    const yesterday = new Date(nowMs - 86_400_000).toISOString();
    const clicks = codes.flatMap((code) =>
      Array.from({ length: 500 }, (_, i) => click(code, { at: i % 2 ? yesterday : new Date(nowMs).toISOString(), visitor: visitorUpdate('salt', `203.0.113.${i % 250}`, 'a'), ...(i % 5 === 0 ? { bot: true as const } : {}) })),
    );
    const written: number[] = [];
    const counting = new Proxy(dynamo(), {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return async (command: { constructor: { name: string }; input: { TransactItems?: unknown[] } }) => {
          if (command.constructor.name === 'TransactWriteCommand') written.push(command.input.TransactItems?.length ?? 0);
          return target.send(command as never);
        };
      },
    });
    const places = new Map(codes.map((code) => [code, { owner: 'acct:bounded', tags: [] }]));
    await store(counting).apply('1500-clicks', countClicks(clicks), nowMs, rollupClicks(clicks, places));
    // One transaction for 1,500 clicks: the marker, each link's own counters, each (link, day) pair's item, the
    // workspace's two days, and the live hours (two per link and two for the workspace).
    expect(written).toEqual([1 + 3 + 3 * 2 + 2 + (3 * 2 + 2)]);
    const [workspaceToday] = await store().days(workspaceCode('acct:bounded'), today, today);
    expect([workspaceToday?.clicks, workspaceToday?.bots, Object.keys(workspaceToday?.links ?? {}).sort()]).toEqual([600, 150, [...codes].sort()]);
    const hour = new Date(nowMs).toISOString().slice(0, 13);
    const [live] = await store().hours(liveCode(workspaceCode('acct:bounded')), hour, hour);
    expect(live?.minutes[new Date(nowMs).toISOString().slice(14, 16)]).toEqual({ clicks: 600, bots: 150 });
    // Replayed, the delivery adds nothing anywhere.
    await store().apply('1500-clicks', countClicks(clicks), nowMs, rollupClicks(clicks, places));
    expect((await store().days(workspaceCode('acct:bounded'), today, today))[0]?.clicks).toBe(600);
  });
});

