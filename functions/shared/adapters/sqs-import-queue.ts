import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ImportQueue } from '../domain/imports/import-management';

const BATCH = 10;

/** The import chunk's message: which job, which chunk. The chunk itself waits in the imports table. */
export interface ImportChunkMessage {
  jobId: string;
  index: number;
}

/** The import queue on SQS; a refused send throws (the API answers 503 and the client sends the file again). */
export class SqsImportQueue implements ImportQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async sendChunks(jobId: string, chunkCount: number): Promise<void> {
    for (let start = 0; start < chunkCount; start += BATCH) {
      const indexes = Array.from({ length: Math.min(BATCH, chunkCount - start) }, (_, offset) => start + offset);
      const { Failed = [] } = await this.client.send(
        new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: indexes.map((index) => ({ Id: String(index), MessageBody: JSON.stringify({ jobId, index } satisfies ImportChunkMessage) })) }),
      );
      if (Failed.length > 0) throw new Error(`the import queue refused ${Failed.length} of ${indexes.length} chunks: ${Failed[0]?.Code ?? 'unknown'}`);
    }
  }
}
