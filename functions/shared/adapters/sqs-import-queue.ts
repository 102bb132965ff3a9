import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ImportQueue } from '../domain/imports/import-management';
import { logger } from '../observability';

const BATCH = 10;

/** The import chunk's message: which job, which chunk. The chunk itself waits in the imports table. */
export interface ImportChunkMessage {
  jobId: string;
  index: number;
}

const indexesFrom = (start: number, end: number) => Array.from({ length: end - start }, (_, offset) => start + offset);

/** The import queue on SQS; the chunks it refuses, or could not be sent, are answered for the job to fail their rows. */
export class SqsImportQueue implements ImportQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async sendChunks(jobId: string, chunkCount: number): Promise<number[]> {
    const unqueued: number[] = [];
    for (let start = 0; start < chunkCount; start += BATCH) {
      const indexes = indexesFrom(start, Math.min(start + BATCH, chunkCount));
      try {
        const { Failed = [] } = await this.client.send(
          new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: indexes.map((index) => ({ Id: String(index), MessageBody: JSON.stringify({ jobId, index } satisfies ImportChunkMessage) })) }),
        );
        if (Failed.length > 0) logger.error('the import queue refused chunks, their rows reported failed', { jobId, refused: Failed.length, code: Failed[0]?.Code ?? 'unknown' });
        unqueued.push(...Failed.map((entry) => Number(entry.Id)));
      } catch (error) {
        // No answer after the SDK's retries: each later batch would wait as long, past the API's 29 s, so none is sent.
        logger.error('the import queue did not answer, the rows of the chunks not sent reported failed', { jobId, unsent: chunkCount - start, error: error instanceof Error ? error.name : 'unknown' });
        return [...unqueued, ...indexesFrom(start, chunkCount)];
      }
    }
    return unqueued;
  }
}
