import { DynamoAnalyticsSwitches } from '../../functions/shared/adapters/dynamo-analytics-switches';
import { DynamoClickStatsStore } from '../../functions/shared/adapters/dynamo-click-stats';
import { DynamoLinkStore } from '../../functions/shared/adapters/dynamo-link-store';
import { DynamoWorkspaceSettings } from '../../functions/shared/adapters/dynamo-workspace-settings';
import { RECORD_EVERYTHING } from '../../functions/shared/domain/analytics/analytics-switches';
import type { Click } from '../../functions/shared/domain/analytics/click';
import { countClicks, type DayCounts } from '../../functions/shared/domain/analytics/click-counts';
import { rollupClicks, workspaceCode, type LinkPlace } from '../../functions/shared/domain/analytics/rollups';
import { forgetUnrecordedDimensions, SWITCHES_CACHE_MS, UnrecordedDimensions } from '../../functions/shared/domain/analytics/unrecorded-dimensions';
import { auditRecord } from '../../functions/shared/domain/audit/audit-record';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, freshTables } from '../support/local-stack';

/**
 * Issue 30's switches, from the account record the PATCH writes to the days the aggregator adds, against DynamoDB
 * Local: the same steps as functions/aggregator/handler.ts (places, switches, sums, forgetting, one apply).
 */
const nowMs = Date.now();
const today = new Date(nowMs).toISOString().slice(0, 10);
const run = nowMs.toString(36);
let stats: DynamoClickStatsStore;
let settings: DynamoWorkspaceSettings;
let switches: DynamoAnalyticsSwitches;
let links: DynamoLinkStore;

beforeAll(async () => {
  const tables = await freshTables();
  stats = new DynamoClickStatsStore(dynamo(), tables[StackOutputs.clickStatsTable] as string, tables[StackOutputs.linksTable] as string);
  settings = new DynamoWorkspaceSettings(dynamo(), tables[StackOutputs.accountsTable] as string, tables[StackOutputs.auditTable] as string);
  switches = new DynamoAnalyticsSwitches(dynamo(), tables[StackOutputs.accountsTable] as string);
  links = new DynamoLinkStore(dynamo(), tables[StackOutputs.linksTable] as string);
});

const visit = (code: string, fields: Partial<Click> = {}): Click => ({
  code,
  at: new Date(nowMs).toISOString(),
  country: 'FR',
  referrer: 'news.example',
  device: 'mobile',
  counted: true,
  browser: 'Firefox',
  os: 'Android',
  region: 'FR-IDF',
  city: 'Paris',
  utmSource: 'newsletter',
  visitor: [7, 3],
  ...fields,
});

/** The links, as the aggregator finds them (clicks of a link that is gone are dropped). */
async function create(places: ReadonlyMap<string, LinkPlace>): Promise<void> {
  for (const [code, place] of places) {
    await links.createIfAbsent({ code, url: 'https://example.com/', isAlias: false, createdAt: new Date(nowMs).toISOString(), clicks: 0, owner: place.owner, tags: [...place.tags] });
  }
}

/** What the aggregator does with a delivery, the links' places given (its link reads). */
async function fold(deliveryId: string, clicks: readonly Click[], places: ReadonlyMap<string, LinkPlace>, unrecorded: UnrecordedDimensions, atMs = nowMs) {
  const byOwner = await unrecorded.byOwner([...places.values()].map((place) => place.owner), atMs);
  const counts = countClicks(clicks);
  const rollups = rollupClicks(clicks, places);
  forgetUnrecordedDimensions(counts, rollups.workspaces, places, byOwner);
  await stats.apply(deliveryId, counts, atMs, rollups);
}

const silenced = (day: DayCounts | undefined) => {
  const { city, referrer, utmSource, utmMedium, utmCampaign } = day?.dimensions ?? {};
  return { city, referrer, utmSource, utmMedium, utmCampaign };
};

async function switchOff(workspaceId: string, off: Partial<typeof RECORD_EVERYTHING>) {
  const analytics = { ...RECORD_EVERYTHING, ...off };
  const audit = auditRecord({ workspaceId, actor: { kind: 'operator' }, nowMs, action: 'workspace.updated', target: { type: 'workspace', id: workspaceId }, changes: {} });
  await settings.update({ workspaceId, owner: `acct:${workspaceId}`, plan: 'PRO' }, { analytics }, audit);
}

describe('a workspace\'s analytics switches in the aggregator', () => {
  it('are read for many workspaces at once, 100 a call, a workspace without a record recording everything', async () => {
    const ids = Array.from({ length: 130 }, (_, index) => `acct_many${index}x${run}`);
    await switchOff(ids[7] as string, { os: false });
    await switchOff(ids[120] as string, { campaign: false, device: false });
    const read = await switches.switchesOf(ids);
    expect(read.size).toBe(130);
    expect([read.get(ids[0] as string), read.get(ids[7] as string), read.get(ids[120] as string)]).toEqual([
      RECORD_EVERYTHING,
      { ...RECORD_EVERYTHING, os: false },
      { ...RECORD_EVERYTHING, campaign: false, device: false },
    ]);
  });

  it('records no city, campaign or referrer once switched off, on the link and the workspace, keeping clicks, unique and every other dimension', async () => {
    const quiet = `acct_quiet${run}`;
    const loud = `acct_loud${run}`;
    await switchOff(quiet, { city: false, campaign: false, referrer: false });
    const [mine, theirs] = [`sw1${run}`, `sw2${run}`];
    const places = new Map<string, LinkPlace>([
      [mine, { owner: `acct:${quiet}`, tags: ['spring'] }],
      [theirs, { owner: `acct:${loud}`, tags: [] }],
    ]);
    await create(places);
    await fold('switches-1', [visit(mine), visit(mine, { bot: true, counted: false }), visit(theirs)], places, new UnrecordedDimensions(switches));

    const [link] = await stats.days(mine, today, today);
    // toMatchObject takes {} as "any object": the silenced dimensions are compared whole.
    expect(link).toMatchObject({ clicks: 1, bots: 1, dimensions: { country: { FR: 1 }, region: { 'FR-IDF': 1 }, browser: { Firefox: 1 }, os: { Android: 1 }, device: { mobile: 1 } } });
    expect(silenced(link)).toEqual({ city: {}, referrer: {}, utmSource: {}, utmMedium: {}, utmCampaign: {} });
    expect(link?.botDimensions.city).toEqual({});
    expect(link?.botDimensions.country).toEqual({ FR: 1 });
    expect(link?.sketch).toBeDefined();
    for (const code of [workspaceCode(`acct:${quiet}`), workspaceCode(`acct:${quiet}`, { tag: 'spring' })]) {
      const [day] = await stats.days(code, today, today);
      expect(day).toMatchObject({ clicks: 1, dimensions: { country: { FR: 1 } } });
      expect(silenced(day)).toEqual({ city: {}, referrer: {}, utmSource: {}, utmMedium: {}, utmCampaign: {} });
    }
    // Another workspace in the same delivery records everything.
    const [other] = await stats.days(theirs, today, today);
    expect(other?.dimensions).toMatchObject({ city: { Paris: 1 }, referrer: { 'news.example': 1 }, utmSource: { newsletter: 1 } });
  });

  it('applies a change within the container\'s cache time, and reads the switches once per cache time', async () => {
    const workspaceId = `acct_later${run}`;
    const code = `sw3${run}`;
    const places = new Map<string, LinkPlace>([[code, { owner: `acct:${workspaceId}`, tags: [] }]]);
    await create(places);
    let reads = 0;
    const unrecorded = new UnrecordedDimensions({
      switchesOf: (ids) => {
        reads += 1;
        return switches.switchesOf(ids);
      },
    });
    await fold('switches-2', [visit(code)], places, unrecorded);
    await switchOff(workspaceId, { city: false });
    // Within the cache time the container still records the city; a read after it does not.
    await fold('switches-3', [visit(code)], places, unrecorded, nowMs + 1);
    await fold('switches-4', [visit(code)], places, unrecorded, nowMs + SWITCHES_CACHE_MS + 1);
    expect(reads).toBe(2);
    const [day] = await stats.days(code, today, today);
    expect(day).toMatchObject({ clicks: 3, dimensions: { city: { Paris: 2 }, country: { FR: 3 } } });
  });
});
