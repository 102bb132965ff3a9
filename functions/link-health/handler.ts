import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { BUSY_RETRY_SECONDS, checkLink, HealthCheckBusy, queueDueLinks } from '../shared/domain/health/health-checks';
import { healthCheckDeps, healthQueue } from '../shared/health-wiring';
import { MetricName } from '../shared/metric-names';
import { count, logger, publishMetrics } from '../shared/observability';

const deps = healthCheckDeps();
const queue = healthQueue();

const keyOf = (record: SQSRecord): string | undefined => {
  try {
    const { key } = JSON.parse(record.body) as { key?: unknown };
    return typeof key === 'string' && key.length > 0 && key.length <= 300 ? key : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The health queue's links, side by side: a link whose URL another worker is checking, or whose host is booked up
 * for the next seconds, goes back on the queue with a delay (it is not a failure); a failure of the worker itself
 * (DynamoDB down) is reported, so SQS offers it again and then keeps it in the dead-letter queue.
 */
async function checkQueued(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  const later: string[] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      const key = keyOf(record);
      if (!key) {
        logger.error('not a link to check, left on the queue', { messageId: record.messageId });
        failures.push({ itemIdentifier: record.messageId });
        return;
      }
      try {
        if ((await checkLink(key, deps)) === 'checked') count(MetricName.linkHealthChecks);
      } catch (error) {
        if (error instanceof HealthCheckBusy) later.push(key);
        else {
          logger.error('health check failed, left on the queue', { messageId: record.messageId, error: (error as Error).name });
          failures.push({ itemIdentifier: record.messageId });
        }
      }
    }),
  );
  if (later.length > 0) await queue.send(later, BUSY_RETRY_SECONDS);
  return { batchItemFailures: failures };
}

/** Two ways in: the schedule (queue the links due) and the queue (check them). */
async function route(event: SQSEvent | { source?: string }): Promise<SQSBatchResponse | undefined> {
  if ('Records' in event) return checkQueued(event);
  count(MetricName.linkHealthQueued, await queueDueLinks({ links: deps.links, queue, timeScale: deps.timeScale, now: deps.now }));
  return undefined;
}

export const handler = middy(route).use(injectLambdaContext(logger, { resetKeys: true })).use(publishMetrics());
