import { localScheduleEveryMs, MIN_HEALTH_SCHEDULE_MS } from '../../../bin/local/schedule-clock';

/** Issue 31: the local run's rate rules, link health's on its own clock. */
const hourly = { functionId: 'LinkHealthFunction', everyMs: 3_600_000 };
const everyMinute = { functionId: 'DomainWorkerFunction', everyMs: 60_000 };
const healthWorker = { environment: { HEALTH_QUEUE_URL: 'http://sqs/LinkHealthChecks' } };
const domainWorker = { environment: {} };

describe('a local run\'s schedules', () => {
  it('run at the rule\'s rate, or LOCAL_SCHEDULE_EVERY_MS when it is set', () => {
    expect(localScheduleEveryMs(everyMinute, domainWorker, { healthScale: 1 })).toBe(60_000);
    expect(localScheduleEveryMs(everyMinute, domainWorker, { everyMs: 1000, healthScale: 0.0001 })).toBe(1000);
  });

  it('link health\'s shrinks with LOCAL_HEALTH_TIME_SCALE (an hour at 0.001 is 3.6 s), never below a floor', () => {
    expect(localScheduleEveryMs(hourly, healthWorker, { everyMs: 1000, healthScale: 0.001 })).toBe(3_600);
    expect(localScheduleEveryMs(hourly, healthWorker, { healthScale: 0.0001 })).toBe(360);
    expect(localScheduleEveryMs(hourly, healthWorker, { healthScale: 0.00001 })).toBe(MIN_HEALTH_SCHEDULE_MS);
    // Unscaled, it is a schedule like any other.
    expect(localScheduleEveryMs(hourly, healthWorker, { everyMs: 1000, healthScale: 1 })).toBe(1000);
  });
});
