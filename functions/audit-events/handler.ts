import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { DynamoAuditLog } from '../shared/adapters/dynamo-audit-log';
import { dynamo } from '../shared/adapters/clients';
import { config } from '../shared/config';
import { linkAuditRecord } from '../shared/domain/audit/link-audit';
import { appendLinkRecords } from '../shared/domain/audit/link-audit-stream';
import { logger } from '../shared/observability';

const log = new DynamoAuditLog(dynamo(), config.table('auditTable'));

type Image = Record<string, AttributeValue> | undefined;
const read = (image: Image) => (image ? unmarshall(image as Parameters<typeof unmarshall>[0]) : undefined);

function recordOf(record: DynamoDBRecord) {
  const before = read(record.dynamodb?.OldImage as Image);
  const after = read(record.dynamodb?.NewImage as Image);
  return linkAuditRecord({
    eventId: record.eventID ?? '',
    kind: record.eventName ?? 'MODIFY',
    ...(before ? { before } : {}),
    ...(after ? { after } : {}),
  });
}

/**
 * The links table's stream: each committed change that carries a new audit stamp (a workspace's creation, edit or
 * delete, an operator's takedown) becomes its record, named by the stream record's id. A failure throws, so the
 * batch is retried (then split, then dead-lettered for replay); a redelivered record finds its own and writes nothing.
 */
async function record(event: DynamoDBStreamEvent): Promise<void> {
  const written = await appendLinkRecords(event.Records.map(recordOf), log);
  if (written > 0) logger.debug('audit records written', { written });
}

export const handler = middy(record).use(injectLambdaContext(logger, { resetKeys: true }));
