import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { sendWebhook } from '../shared/adapters/webhook-sender';
import { config } from '../shared/config';
import type { DeliveryTask } from '../shared/domain/webhooks/delivery';
import { deliverTasks, type DeliveryDeps } from '../shared/domain/webhooks/webhook-delivery';
import { MetricName } from '../shared/metric-names';
import { count, logger, publishMetrics } from '../shared/observability';
import { deliveryQueue, localReceivers, secretSealer, webhookStore } from '../shared/webhook-wiring';
import { linkStore, shortBaseUrlReader } from '../shared/wiring';

const receivers = localReceivers();
const hostsFile = config.localHostsFile();
const links = linkStore();
const deps: DeliveryDeps = {
  webhooks: webhookStore(),
  queue: deliveryQueue(),
  secrets: secretSealer(),
  findLink: (key) => links.find(key),
  shortBaseUrl: shortBaseUrlReader(),
  send: (url, headers, body) => sendWebhook(url, headers, body, { localReceivers: receivers, ...(hostsFile ? { hostsFile } : {}) }),
  timeScale: config.webhookTimeScale(),
  random: Math.random,
  now: Date.now,
};

/** The message's task, or undefined when its body is not one (it then fails alone, towards the dead-letter queue). */
function taskOf(record: SQSRecord): DeliveryTask | undefined {
  try {
    const task = JSON.parse(record.body) as Partial<DeliveryTask>;
    return typeof task.webhookId === 'string' && typeof task.owner === 'string' && typeof task.event === 'object' ? (task as DeliveryTask) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The delivery queue's messages: one webhook's tasks one after another (a batch takes one of its in-flight places,
 * not ten), different webhooks' side by side, so a slow endpoint holds only its own. A task that fails here
 * (DynamoDB or SQS down) is reported, so SQS offers that message again and, past its receive limit, keeps it in the
 * dead-letter queue; the endpoint's own failures are retried on the schedule instead. Nothing about an answer's
 * content is logged.
 */
async function deliver(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  const byWebhook = new Map<string, Array<{ record: SQSRecord; task: DeliveryTask }>>();
  for (const record of event.Records) {
    const task = taskOf(record);
    if (!task) {
      logger.error('not a delivery task, left on the queue', { messageId: record.messageId });
      failures.push({ itemIdentifier: record.messageId });
      continue;
    }
    const key = `${task.owner}\u0000${task.webhookId}`;
    byWebhook.set(key, [...(byWebhook.get(key) ?? []), { record, task }]);
  }
  await Promise.all(
    [...byWebhook.values()].map(async (group) => {
      const results = await deliverTasks(group.map(({ task }) => task), deps).catch((error: unknown) => group.map(() => (error instanceof Error ? error : new Error(String(error)))));
      results.forEach((result, index) => {
        const messageId = group[index]?.record.messageId ?? '';
        if (result instanceof Error) {
          logger.error('delivery task failed, left on the queue', { messageId, error: result.name });
          failures.push({ itemIdentifier: messageId });
        }
        if (result === 'done') count(MetricName.webhookDeliveries);
        if (result === 'retry' || result === 'gaveUp' || result === 'disable') count(MetricName.webhookDeliveryFailures);
        if (result === 'disable') count(MetricName.webhooksDisabled);
      });
    }),
  );
  return { batchItemFailures: failures };
}

export const handler = middy(deliver).use(injectLambdaContext(logger, { resetKeys: true })).use(publishMetrics());
