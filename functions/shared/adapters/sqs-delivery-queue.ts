import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryQueue } from '../domain/ports';
import type { DeliveryTask } from '../domain/webhooks/delivery';

/** SQS delays a message at most 15 minutes; a task due later is sent again each time it surfaces early (a hop). */
export const MAX_DELAY_SECONDS = 900;
const BATCH = 10;

export function delaySecondsUntil(dueAt: number, nowMs: number): number {
  return Math.max(0, Math.min(MAX_DELAY_SECONDS, Math.ceil((dueAt - nowMs) / 1000)));
}

/**
 * The delivery queue on SQS. A send that fails throws: the caller (a stream batch, a queue message, an API call)
 * is then retried or answers 503, so no task is dropped on the way in.
 */
export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(tasks: readonly DeliveryTask[], nowMs: number): Promise<void> {
    const batches: DeliveryTask[][] = [];
    for (let start = 0; start < tasks.length; start += BATCH) batches.push(tasks.slice(start, start + BATCH));
    await Promise.all(
      batches.map(async (batch) => {
        const { Failed = [] } = await this.client.send(
          new SendMessageBatchCommand({
            QueueUrl: this.queueUrl,
            Entries: batch.map((task, index) => ({ Id: String(index), MessageBody: JSON.stringify(task), DelaySeconds: delaySecondsUntil(task.dueAt, nowMs) })),
          }),
        );
        if (Failed.length > 0) throw new Error(`the delivery queue refused ${Failed.length} of ${batch.length} tasks: ${Failed[0]?.Code ?? 'unknown'}`);
      }),
    );
  }
}
