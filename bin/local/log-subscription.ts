import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { compileFilterPattern, type LogFilter } from './filter-pattern';
import type { LocalFunction } from './lambda-runtime';
import type { LogSubscriptionSpec } from './template';

/**
 * CloudWatch Logs delivers a subscription's events in batches, within seconds; once a second here. Each delivery
 * costs the aggregator a transaction of a few items per link and day whatever its number of clicks (issue 28): four
 * a second made the local stack's DynamoDB do two and a half times the work per visit of 386dc3c's.
 */
const DELIVERY_INTERVAL_MS = 1_000;
/**
 * Up to this many events per delivery (AWS's deliveries hold up to about 1 MB). A full delivery leaves at once: held
 * for the timer, a load of 15,000 visits a second piled up a backlog of tens of megabytes of lines that the
 * gateway's thread carried through every garbage collection and the aggregator worked off long after the load.
 */
export const MAX_EVENTS_PER_DELIVERY = 5_000;
/** A failed delivery is retried, as Lambda retries an asynchronous invocation, before it is given up loudly. */
const DELIVERY_ATTEMPTS = 5;

/**
 * A subscription filter from the template, played locally: the source function's log lines that match the
 * filter pattern go to the destination function in the `awslogs` payload AWS sends (base64 of gzip of JSON).
 */
export class LocalLogSubscription {
  private readonly filter: LogFilter;
  private pending: Array<{ id: string; timestamp: number; message: string }> = [];
  private readonly timer: NodeJS.Timeout;
  private inFlight: Promise<void> = Promise.resolve();
  private sequence = 0;

  constructor(
    private readonly spec: LogSubscriptionSpec,
    private readonly destination: LocalFunction,
    private readonly log: (message: string) => void,
  ) {
    this.filter = compileFilterPattern(spec.filterPattern);
    this.timer = setInterval(() => this.flush(), DELIVERY_INTERVAL_MS);
  }

  /** One line the source function wrote. */
  offer(line: string): void {
    if (!this.filter(line)) return;
    this.sequence += 1;
    this.pending.push({ id: `${Date.now()}${String(this.sequence).padStart(12, '0')}`, timestamp: Date.now(), message: line });
    if (this.pending.length >= MAX_EVENTS_PER_DELIVERY) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const events = this.pending.splice(0, MAX_EVENTS_PER_DELIVERY);
    const payload = {
      messageType: 'DATA_MESSAGE',
      owner: '000000000000',
      logGroup: this.spec.logGroupName,
      logStream: `local/${randomUUID()}`,
      subscriptionFilters: [this.spec.filterName],
      logEvents: events,
    };
    // Any gzip level reads back the same; the fastest, as this runs on the thread that also serves every request.
    const data = gzipSync(Buffer.from(JSON.stringify(payload)), { level: 1 }).toString('base64');
    // Deliveries go one after another, as each of them would be retried before the next is given up on.
    this.inFlight = this.inFlight.then(() => this.deliver(data, events.length));
  }

  private async deliver(data: string, count: number): Promise<void> {
    for (let attempt = 1; attempt <= DELIVERY_ATTEMPTS; attempt += 1) {
      try {
        await this.destination.invoke({ awslogs: { data } });
        return;
      } catch (error) {
        if (attempt === DELIVERY_ATTEMPTS) this.log(`log subscription ${this.spec.filterName}: gave up a delivery of ${count} events: ${String(error)}`);
        else await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
      }
    }
  }

  /** Delivers what is pending, then stops. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.flush();
    await this.inFlight;
  }
}
