import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { HealthQueue } from '../domain/ports';

const BATCH = 10;

/** The link health queue on SQS: one message per link key (`{"key"}`). A send that fails throws, so nothing is dropped. */
export class SqsHealthQueue implements HealthQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(keys: readonly string[], delaySeconds = 0): Promise<void> {
    const batches: string[][] = [];
    for (let start = 0; start < keys.length; start += BATCH) batches.push(keys.slice(start, start + BATCH));
    await Promise.all(
      batches.map(async (batch) => {
        const { Failed = [] } = await this.client.send(
          new SendMessageBatchCommand({
            QueueUrl: this.queueUrl,
            Entries: batch.map((key, index) => ({ Id: String(index), MessageBody: JSON.stringify({ key }), DelaySeconds: delaySeconds })),
          }),
        );
        if (Failed.length > 0) throw new Error(`the health queue refused ${Failed.length} of ${batch.length} links: ${Failed[0]?.Code ?? 'unknown'}`);
      }),
    );
  }
}
