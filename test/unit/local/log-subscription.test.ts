import { gunzipSync } from 'node:zlib';
import { LocalLogSubscription, MAX_EVENTS_PER_DELIVERY } from '../../../bin/local/log-subscription';
import type { LocalFunction } from '../../../bin/local/lambda-runtime';

/** The local log subscription (issue 28): a load's lines reach the aggregator as they come, never as a backlog. */
const spec = { sourceFunctionId: 'Redirect', destinationFunctionId: 'Aggregator', filterPattern: '{ $.type = "click" }', logGroupName: '/aws/lambda/redirect', filterName: 'clicks' };

function recordingDestination() {
  const deliveries: Array<{ messages: string[] }> = [];
  const destination = {
    invoke: async (event: { awslogs: { data: string } }) => {
      const payload = JSON.parse(gunzipSync(Buffer.from(event.awslogs.data, 'base64')).toString('utf8')) as { logEvents: Array<{ message: string }> };
      deliveries.push({ messages: payload.logEvents.map((logEvent) => logEvent.message) });
    },
  } as unknown as LocalFunction;
  return { deliveries, destination };
}

const click = (index: number) => JSON.stringify({ type: 'click', code: `ü-${index}` });

describe('LocalLogSubscription', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends a full delivery at once, before its timer, and keeps no more than one delivery of lines waiting', async () => {
    const { deliveries, destination } = recordingDestination();
    const subscription = new LocalLogSubscription(spec, destination, () => undefined);
    const offered = MAX_EVENTS_PER_DELIVERY * 2 + 7;
    for (let index = 0; index < offered; index += 1) subscription.offer(click(index));
    subscription.offer(JSON.stringify({ type: 'log', message: 'not a click' }));
    await jest.advanceTimersByTimeAsync(0);
    expect(deliveries.map((delivery) => delivery.messages.length)).toEqual([MAX_EVENTS_PER_DELIVERY, MAX_EVENTS_PER_DELIVERY]);
    // The rest goes with the next tick of the timer, in the order written.
    await jest.advanceTimersByTimeAsync(1_000);
    expect(deliveries.map((delivery) => delivery.messages.length)).toEqual([MAX_EVENTS_PER_DELIVERY, MAX_EVENTS_PER_DELIVERY, 7]);
    expect(deliveries.flatMap((delivery) => delivery.messages)).toEqual(Array.from({ length: offered }, (_, index) => click(index)));
    await subscription.close();
  });

  it('delivers what is pending when closed', async () => {
    const { deliveries, destination } = recordingDestination();
    const subscription = new LocalLogSubscription(spec, destination, () => undefined);
    subscription.offer(click(1));
    await subscription.close();
    expect(deliveries).toEqual([{ messages: [click(1)] }]);
  });
});
