import { freePort } from '../bin/local/child-process';
import { devApiKey, http, jsonHeaders } from '../test/support/local-stack';
import { verify, WebhookReceiver, type Received } from '../test/support/webhook-receiver';
import { load, median, round, startBenchStack } from './support';

/**
 * Issue 19: link changes and clicks turned into signed deliveries to a receiver on this machine, through the
 * links table's stream, the aggregator, the delivery queue and the deliverer, as `npm start` runs them. Each round:
 * a burst of 200 creations (four batches of 50 at once), a steady 10 creations a second for 5 s, and 100 clicks a
 * second for 5 s. Reported: deliveries per second and the time from the change (the link's createdAt, the click's
 * time) to the receiver, p50 and p99, medians over the rounds. Every delivery is verified as a receiver would.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
}

async function waitFor(receiver: WebhookReceiver, path: string, count: number, timeoutMs = 120_000): Promise<Received[]> {
  const deadline = Date.now() + timeoutMs;
  while (receiver.on(path).length < count) {
    if (Date.now() > deadline) throw new Error(`only ${receiver.on(path).length} of ${count} deliveries on ${path}`);
    await sleep(20);
  }
  return receiver.on(path);
}

const api = (method: string, path: string, body?: object) => http(method, path, { headers: jsonHeaders(devApiKey()), ...(body ? { body } : {}) });

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
}

function figures(deliveries: readonly Received[], changedAt: (delivery: Received) => number, startedAt: number): Figures {
  const lags = deliveries.map((delivery) => delivery.at - changedAt(delivery));
  const lastAt = Math.max(...deliveries.map((delivery) => delivery.at));
  return { perSecond: round(deliveries.length / ((lastAt - startedAt) / 1000), 1), p50: percentile(lags, 0.5), p99: percentile(lags, 0.99) };
}

async function main(): Promise<void> {
  const receiver = new WebhookReceiver(await freePort());
  await receiver.start();
  const stack = await startBenchStack({ LOCAL_WEBHOOK_ALLOW: `127.0.0.1:${receiver.port}` });
  const results: Record<'burst' | 'steady' | 'clicks', Figures[]> = { burst: [], steady: [], clicks: [] };
  let verified = 0;
  try {
    for (let round_ = 1; round_ <= ROUNDS; round_++) {
      const created = await api('POST', '/v2/webhooks', { url: receiver.url(`/round-${round_}`), events: ['link.created', 'link.clicked'] });
      const { secret, id } = created.json<{ secret: string; id: string }>();
      const path = `/round-${round_}`;
      const createdAt = (delivery: Received) => Date.parse(String(delivery.event.data.createdAt));

      let startedAt = Date.now();
      await Promise.all([0, 1, 2, 3].map((batch) => api('POST', '/v2/shorten/batch', { urls: Array.from({ length: 50 }, (_, index) => ({ url: `https://example.com/${round_}/${batch}/${index}` })) })));
      const burst = await waitFor(receiver, path, 200);
      results.burst.push(figures(burst, createdAt, startedAt));

      startedAt = Date.now();
      const codes: string[] = [];
      for (let index = 0; index < 50; index++) {
        const answer = await api('POST', '/v2/shorten', { url: `https://example.com/steady/${round_}/${index}` });
        codes.push(answer.json<{ shortCode: string }>().shortCode);
        await sleep(Math.max(0, startedAt + (index + 1) * 100 - Date.now()));
      }
      const steady = (await waitFor(receiver, path, 250)).slice(200);
      results.steady.push(figures(steady, createdAt, startedAt));

      startedAt = Date.now();
      const clicks = await load({ url: `${stack.url}/${codes[0] ?? ''}`, connections: 5, overallRate: 100, duration: 5 });
      const clicked = (await waitFor(receiver, path, 250 + clicks.byClass['3xx'])).slice(250);
      results.clicks.push(figures(clicked, (delivery) => Date.parse(String(delivery.event.data.at)), startedAt));

      for (const delivery of receiver.on(path)) {
        verify(secret, delivery);
        verified += 1;
      }
      await api('DELETE', `/v2/webhooks/${id}`);
      const last = { burst: results.burst.at(-1), steady: results.steady.at(-1), clicks: results.clicks.at(-1) };
      console.log(`round ${round_}: ${JSON.stringify(last)}`);
    }
    const summary = (runs: Figures[]) => ({ perSecond: median(runs.map((run) => run.perSecond)), p50: median(runs.map((run) => run.p50)), p99: median(runs.map((run) => run.p99)) });
    console.log(`\nmedians over ${ROUNDS} rounds (deliveries per second; ms from change to receiver), ${verified} deliveries verified:`);
    console.log(`  burst of 200 creations:   ${JSON.stringify(summary(results.burst))}`);
    console.log(`  10 creations a second:    ${JSON.stringify(summary(results.steady))}`);
    console.log(`  100 clicks a second:      ${JSON.stringify(summary(results.clicks))}`);
  } finally {
    await stack.stop();
    await receiver.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
