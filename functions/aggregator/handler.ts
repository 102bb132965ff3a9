import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { countClicks } from '../shared/domain/analytics/click-counts';
import { clickInLogLine } from '../shared/domain/analytics/click-lines';
import { decodeLogDelivery, deliveryId } from '../shared/http/log-delivery';
import { MetricName } from '../shared/metric-names';
import { count, logger, metrics, publishMetrics } from '../shared/observability';
import { clickStats } from '../shared/wiring';
import { MetricUnit } from '@aws-lambda-powertools/metrics';

const stats = clickStats();

/**
 * The redirect's click lines, delivered in batches by the log group's subscription filter: summed per (link, day,
 * dimension) and added exactly once per delivery. A failure throws, so the delivery is retried (and, past the
 * retries, kept in the dead-letter queue); parts already applied are not applied again.
 */
async function aggregate(event: { awslogs?: { data?: string } }): Promise<void> {
  const delivery = decodeLogDelivery(event);
  if (delivery.messageType !== 'DATA_MESSAGE') return;
  const clicks = delivery.logEvents.flatMap((logEvent) => clickInLogLine(logEvent.message) ?? []);
  if (clicks.length === 0) return;
  const nowMs = Date.now();
  await stats.apply(deliveryId(delivery), countClicks(clicks), nowMs);
  count(MetricName.clicksCounted, clicks.length);
  // How long the oldest click of the batch waited to be counted: the delivery-lag alarm watches its maximum.
  metrics.addMetric(MetricName.clickDeliveryLag, MetricUnit.Milliseconds, nowMs - Math.min(...clicks.map((click) => Date.parse(click.at))));
}

export const handler = middy(aggregate).use(injectLambdaContext(logger, { resetKeys: true })).use(publishMetrics());
