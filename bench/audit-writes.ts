import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { DynamoDbLocal } from '../bin/local/dynamodb-local';
import { auditPut } from '../functions/shared/adapters/audit-items';
import { auditRecord, fieldChanges } from '../functions/shared/domain/audit/audit-record';
import { auditStamp } from '../functions/shared/domain/audit/audit-stamp';
import { median, round } from './support';

/**
 * Issue 29: what a link's audit record costs its creation, the measured path (issue 28), on DynamoDB Local. Three
 * ways to write a created link: the plain put (before issue 29), the put with the audit stamp on the item (what
 * creation does: the record is written off the stream), and one transaction of the link and its record (the
 * convention for every other change). Each round runs the three in turn, so a loaded machine weighs on each alike:
 * SINGLES sequential creations (POST /v2/shorten), then a 50-link batch at 25 writes in flight (link-creation.ts).
 */
const ROUNDS = Number(process.env.BENCH_RUNS ?? 20);
const SINGLES = 30;
const PORT = Number(process.env.BENCH_DYNAMODB_PORT ?? 8791);

const author = { actor: { kind: 'key' as const, keyId: 'key_0123456789abcdef', name: 'CI' }, requestId: randomUUID() };
const link = () => ({ code: randomUUID().slice(0, 7), url: 'https://example.com/some/path?q=1', isAlias: false, createdAt: new Date().toISOString(), clicks: 0, owner: 'acct:acct_0123456789abcdef' });

async function main(): Promise<void> {
  const local = new DynamoDbLocal({ port: PORT });
  await local.start();
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: `http://127.0.0.1:${PORT}`, region: 'us-east-1', credentials }));
  await client.send(
    new CreateTableCommand({
      TableName: 'links',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'code', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'code', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }),
  );
  await client.send(
    new CreateTableCommand({
      TableName: 'audit',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
    }),
  );
  const absent = { ConditionExpression: 'attribute_not_exists(code)' };
  const ways: Record<string, () => Promise<unknown>> = {
    'put (before)': () => client.send(new PutCommand({ TableName: 'links', Item: link(), ...absent })),
    'put + stamp (creation now)': () => client.send(new PutCommand({ TableName: 'links', Item: { ...link(), auditStamp: auditStamp('link.created', author, Date.now()) }, ...absent })),
    'transaction (link + record)': () => {
      const item = link();
      const record = auditRecord({ workspaceId: 'acct_0123456789abcdef', actor: author.actor, requestId: author.requestId, action: 'link.created', target: { type: 'link', id: item.code }, changes: fieldChanges(undefined, { url: item.url }), nowMs: Date.now() });
      return client.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 'links', Item: item, ...absent } }, auditPut('audit', record)] }));
    },
  };
  const single: Record<string, number[]> = {};
  const batch: Record<string, number[]> = {};
  // The first two rounds warm the JVM and the sockets and are not counted.
  for (let round = 0; round < ROUNDS + 2; round += 1) {
    for (const [name, write] of Object.entries(ways)) {
      const started = performance.now();
      for (let index = 0; index < SINGLES; index += 1) await write();
      const singleMs = (performance.now() - started) / SINGLES;
      const batchStarted = performance.now();
      let left = 50;
      await Promise.all(Array.from({ length: 25 }, async () => {
        while (left > 0) {
          left -= 1;
          await write();
        }
      }));
      if (round >= 2) {
        (single[name] ??= []).push(singleMs);
        (batch[name] ??= []).push(performance.now() - batchStarted);
      }
    }
  }
  for (const name of Object.keys(ways)) {
    console.log(`${name}: one creation ${round(median(single[name] ?? []))} ms, a 50-link batch ${round(median(batch[name] ?? []), 1)} ms (medians of ${ROUNDS} rounds)`);
  }
  await local.stop();
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
