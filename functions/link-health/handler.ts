import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { checkQueued, queueDueLinks } from '../shared/domain/health/health-checks';
import { healthCheckDeps } from '../shared/health-check-wiring';
import { healthQueue } from '../shared/health-wiring';
import { MetricName } from '../shared/metric-names';
import { count, logger, publishMetrics } from '../shared/observability';

const deps = { ...healthCheckDeps(), queue: healthQueue() };

/** The message's link key, or undefined when its body is not one (it then fails alone, towards the dead-letter queue). */
function keyOf(record: SQSRecord): string | undefined {
  try {
    const { key } = JSON.parse(record.body) as { key?: unknown };
    return typeof key === 'string' && key.length > 0 && key.length <= 300 ? key : undefined;
  } catch {
    return undefined;
  }
}

/** Two ways in: the schedule (queue the links due) and the queue (check them). Nothing of an answer is logged. */
async function route(event: SQSEvent | { source?: string }): Promise<SQSBatchResponse | undefined> {
  if (!('Records' in event)) {
    count(MetricName.linkHealthQueued, await queueDueLinks(deps));
    return undefined;
  }
  const messages = event.Records.map((record) => ({ messageId: record.messageId, key: keyOf(record) }));
  const { checked, failed } = await checkQueued(messages, deps, (messageId, error) =>
    logger.error('health check failed, left on the queue', { messageId, error: error instanceof Error ? error.name : 'unknown' }),
  );
  count(MetricName.linkHealthChecks, checked);
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
}

export const handler = middy(route).use(injectLambdaContext(logger, { resetKeys: true })).use(publishMetrics());
