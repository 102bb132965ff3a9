import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { ImportChunkMessage } from '../shared/adapters/sqs-import-queue';
import { IMPORT_CHUNK_RECEIVES, importChunk } from '../shared/domain/imports/import-job';
import { generateShortCode } from '../shared/domain/links/short-code';
import { importStore } from '../shared/import-wiring';
import { logger, publishMetrics } from '../shared/observability';
import { domainStore } from '../shared/wiring';

const store = importStore();
const domains = domainStore();

function messageOf(record: SQSRecord): ImportChunkMessage | undefined {
  try {
    const message = JSON.parse(record.body) as Partial<ImportChunkMessage>;
    return typeof message.jobId === 'string' && Number.isInteger(message.index) ? (message as ImportChunkMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** The queue's last offer of the chunk: SQS counts the offers, and moves the chunk aside when this one fails. */
const isLastOffer = (record: SQSRecord) => Number(record.attributes.ApproximateReceiveCount) >= IMPORT_CHUNK_RECEIVES;

/** One chunk of one job: its rows settled (each link with its marker, in one transaction) and their results stored. */
async function importOne(message: ImportChunkMessage, lastOffer: boolean): Promise<void> {
  const [job, chunk] = await Promise.all([store.job(message.jobId), store.chunk(message.jobId, message.index)]);
  if (!job || !chunk) {
    logger.warn('import chunk without its job (expired?), dropped', { jobId: message.jobId, index: message.index });
    return;
  }
  const claims = new Map((await domains.listByOwner(job.owner)).map((domain) => [domain.domain, domain.claimId]));
  const onLastOfferFailure = (error: unknown) => logger.error('import chunk failed on its last offer, its rows from there reported failed', { jobId: job.id, index: chunk.index, error: error instanceof Error ? error.name : 'unknown' });
  const results = await importChunk(job, chunk, { writer: store, generateCode: generateShortCode, claimOf: (name) => claims.get(name), nowMs: Date.now, ...(lastOffer ? { onLastOfferFailure } : {}) });
  await store.saveChunkResults(job.id, chunk.index, results, Date.now());
}

/**
 * The import queue's messages, one chunk each. A chunk that fails here (DynamoDB down, the function stopped midway)
 * is reported and offered again: settled again from the markers, it makes no link twice. On its last offer a row that
 * fails ends the chunk with its remaining rows failed, so its job ends too (import-job.ts importChunk).
 */
async function importChunks(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const message = messageOf(record);
    try {
      if (!message) throw new Error('not an import chunk message');
      await importOne(message, isLastOffer(record));
    } catch (error) {
      logger.error('import chunk failed, left on the queue', { messageId: record.messageId, error: error instanceof Error ? error.name : 'unknown' });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
}

export const handler = middy(importChunks).use(injectLambdaContext(logger, { resetKeys: true })).use(publishMetrics());
