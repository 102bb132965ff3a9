import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { sendWebhook } from '../shared/adapters/webhook-sender';
import { config } from '../shared/config';
import type { DeliveryTask } from '../shared/domain/webhooks/delivery';
import { deliverTask, type DeliveryDeps } from '../shared/domain/webhooks/webhook-delivery';
import { MetricName } from '../shared/metric-names';
import { count, logger, publishMetrics } from '../shared/observability';
import { deliveryQueue, localReceivers, webhookStore } from '../shared/webhook-wiring';
import { linkStore, shortBaseUrlReader } from '../shared/wiring';

const receivers = localReceivers();
const hostsFile = config.localHostsFile();
const links = linkStore();
const deps: DeliveryDeps = {
  webhooks: webhookStore(),
  queue: deliveryQueue(),
  findLink: (key) => links.find(key),
  shortBaseUrl: shortBaseUrlReader(),
  send: (url, headers, body) => sendWebhook(url, headers, body, { localReceivers: receivers, ...(hostsFile ? { hostsFile } : {}) }),
  timeScale: config.webhookTimeScale(),
  random: Math.random,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * The delivery queue's messages, each one task, all at once: a slow endpoint holds only its own. A task that fails
 * here (DynamoDB or SQS down) is reported, so SQS offers that message again and, past its receive limit, keeps it in
 * the dead-letter queue; the endpoint's own failures are retried on the schedule instead. Nothing about an answer's
 * content is logged.
 */
async function deliver(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        const task = JSON.parse(record.body) as DeliveryTask;
        const result = await deliverTask(task, Date.now(), deps);
        if (result === 'done') count(MetricName.webhookDeliveries);
        if (result === 'retry' || result === 'gaveUp' || result === 'disable') count(MetricName.webhookDeliveryFailures);
        if (result === 'disable') count(MetricName.webhooksDisabled);
      } catch (error) {
        logger.error('delivery task failed, left on the queue', { messageId: record.messageId, error: error instanceof Error ? error.name : 'unknown' });
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
}

export const handler = middy(deliver).use(injectLambdaContext(logger, { resetKeys: true })).use(publishMetrics());
