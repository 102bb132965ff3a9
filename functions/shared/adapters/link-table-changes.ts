import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { LinkTableChange } from '../domain/audit/link-audit';

type Image = Record<string, AttributeValue> | undefined;
const read = (image: Image) => (image ? unmarshall(image as Parameters<typeof unmarshall>[0]) : undefined);

/** A links-table stream record as the change it carries: its id, kind, and the items before and after, as stored. */
export function linkTableChange(record: DynamoDBRecord): LinkTableChange {
  const before = read(record.dynamodb?.OldImage as Image);
  const after = read(record.dynamodb?.NewImage as Image);
  return { eventId: record.eventID ?? '', kind: record.eventName ?? 'MODIFY', ...(before ? { before } : {}), ...(after ? { after } : {}) };
}
