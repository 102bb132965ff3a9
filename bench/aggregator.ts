import { StackOutputs } from '../lib/stack-outputs';
import { DynamoAnalyticsSwitches } from '../functions/shared/adapters/dynamo-analytics-switches';
import { DynamoClickStatsStore } from '../functions/shared/adapters/dynamo-click-stats';
import { DynamoLinkStore } from '../functions/shared/adapters/dynamo-link-store';
import { DynamoWebhookStore } from '../functions/shared/adapters/dynamo-webhook-store';
import { DEVICE_CLASSES, type Click } from '../functions/shared/domain/analytics/click';
import { countClicks } from '../functions/shared/domain/analytics/click-counts';
import type { DeliveryQueue } from '../functions/shared/domain/ports';
import { clickEventsOf } from '../functions/shared/domain/webhooks/account-events';
import { ClickFanout } from '../functions/shared/domain/webhooks/click-fanout';
import { UnrecordedDimensions } from '../functions/shared/domain/analytics/unrecorded-dimensions';
import { queueEvents } from '../functions/shared/domain/webhooks/event-fanout';
import { dynamo, freshTables } from '../test/support/local-stack';
import { median, round, startBenchStack } from './support';

/**
 * Issue 28: clicks a second through the aggregator's work per delivery, for accounts without webhooks, against
 * DynamoDB Local: the stats' transactions alone (the webhooks flag off: the floor), with the fan-out as it was (each
 * clicked link's owner and each owner's webhooks read on every delivery: before), and with ClickFanout (after).
 * One delivery at a time, as one aggregator container takes them; the modes alternate within each round. 1,000
 * links of 50 accounts, none with a webhook; deliveries of 100 clicks. Issue 30 adds a fourth: ClickFanout and each
 * clicked link's workspace's analytics switches (none set, read at most every 5 s per workspace), their cost alone.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARM_UP_ROUNDS = 1;
const SECONDS = 5;
const ACCOUNTS = 50;
const LINKS_PER_ACCOUNT = 20;
const CLICKS_PER_DELIVERY = 100;

const nothingQueued: DeliveryQueue = {
  send: () => Promise.reject(new Error('an account without webhooks got a delivery task')),
};

async function main(): Promise<void> {
  const stack = await startBenchStack();
  try {
    const tables = await freshTables();
    const links = new DynamoLinkStore(dynamo(), tables[StackOutputs.linksTable] as string);
    const stats = new DynamoClickStatsStore(dynamo(), tables[StackOutputs.clickStatsTable] as string, tables[StackOutputs.linksTable] as string);
    const webhooks = new DynamoWebhookStore(dynamo(), tables[StackOutputs.webhooksTable] as string);
    const codes: string[] = [];
    for (let account = 0; account < ACCOUNTS; account += 1) {
      for (let link = 0; link < LINKS_PER_ACCOUNT; link += 1) {
        const code = `agg${account}x${link}`;
        await links.createIfAbsent({ code, url: 'https://example.com/', isAlias: false, createdAt: new Date().toISOString(), clicks: 0, owner: `acct:acct_bench${account}` });
        codes.push(code);
      }
    }
    let requests = 0;
    dynamo().middlewareStack.add(
      (next) => (args) => {
        requests += 1;
        return next(args);
      },
      { step: 'initialize', name: 'requestCounter' },
    );

    let deliveries = 0;
    const delivery = (): Click[] => {
      deliveries += 1;
      const at = new Date().toISOString();
      return Array.from({ length: CLICKS_PER_DELIVERY }, (_, index) => ({
        // Clicks crowd on a few links with a long tail (the square of a uniform draw): half of them on a quarter of the links.
        code: codes[Math.floor(Math.random() ** 2 * codes.length)] as string,
        at,
        country: ['DE', 'FR', 'US', 'unknown'][index % 4] as string,
        referrer: index % 3 === 0 ? 'direct' : 'news.example.com',
        device: DEVICE_CLASSES[index % DEVICE_CLASSES.length] as Click['device'],
        counted: false,
      }));
    };
    const fanout = new ClickFanout({ ownerOf: (key) => links.ownerOf(key), webhooks, queue: nothingQueued });
    const unrecorded = new UnrecordedDimensions(new DynamoAnalyticsSwitches(dynamo(), tables[StackOutputs.accountsTable] as string));
    // The link's owner is in its code here (agg<account>x<link>); the aggregator has it from the link read it makes anyway.
    const ownerOfCode = (code: string) => `acct:acct_bench${code.slice(3, code.indexOf('x'))}`;
    const modes: Record<string, (clicks: Click[], id: string, nowMs: number) => Promise<unknown>> = {
      'stats only (webhooks flag off: the floor)': async () => undefined,
      'before: owners and webhooks read every delivery': async (clicks, id, nowMs) =>
        queueEvents(await clickEventsOf(clicks, id, (key) => links.ownerOf(key)), { webhooks, queue: nothingQueued }, nowMs),
      'after: ClickFanout': (clicks, id, nowMs) => fanout.queue(clicks, id, nowMs),
      'after, with the analytics switches (issue 30)': async (clicks, id, nowMs) => {
        await unrecorded.byOwner(clicks.map((click) => ownerOfCode(click.code)), nowMs);
        return fanout.queue(clicks, id, nowMs);
      },
    };

    const figures = new Map<string, { clicksPerSecond: number[]; requestsPerDelivery: number[] }>();
    for (let round = 1 - WARM_UP_ROUNDS; round <= ROUNDS; round += 1) {
      for (const [name, fanOut] of Object.entries(modes)) {
        const firstRequest = requests;
        let clicksDone = 0;
        let done = 0;
        const started = performance.now();
        while (performance.now() - started < SECONDS * 1000) {
          const clicks = delivery();
          const id = `bench-${deliveries}-${Date.now()}`;
          const nowMs = Date.now();
          await stats.apply(id, countClicks(clicks), nowMs);
          await fanOut(clicks, id, nowMs);
          clicksDone += clicks.length;
          done += 1;
        }
        const clicksPerSecond = clicksDone / ((performance.now() - started) / 1000);
        const requestsPerDelivery = (requests - firstRequest) / done;
        console.error(`round ${round}, ${name}: ${Math.round(clicksPerSecond)} clicks/s, ${round2(requestsPerDelivery)} DynamoDB requests a delivery`);
        if (round <= 0) continue;
        const entry = figures.get(name) ?? { clicksPerSecond: [], requestsPerDelivery: [] };
        entry.clicksPerSecond.push(clicksPerSecond);
        entry.requestsPerDelivery.push(requestsPerDelivery);
        figures.set(name, entry);
      }
    }
    const floor = median(figures.values().next().value?.clicksPerSecond ?? []);
    for (const [name, entry] of figures) {
      const clicksPerSecond = median(entry.clicksPerSecond);
      console.log(`| ${name} | ${Math.round(clicksPerSecond)} clicks/s | ${round2(median(entry.requestsPerDelivery))} | ${round2(clicksPerSecond / floor)} |`);
    }
  } finally {
    await stack.stop();
  }
}

const round2 = (value: number) => round(value, 2);

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
