import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { getRecordsPage, lambdaRecord, type WireStreamRecord } from '../../bin/local/stream-source';
import { DynamoAuditLog } from '../../functions/shared/adapters/dynamo-audit-log';
import { DynamoDomainStore } from '../../functions/shared/adapters/dynamo-domain-store';
import { DynamoLinkStore } from '../../functions/shared/adapters/dynamo-link-store';
import { DynamoWebhookStore } from '../../functions/shared/adapters/dynamo-webhook-store';
import { linkTableChange } from '../../functions/shared/adapters/link-table-changes';
import { auditRecord, type AuditRecord } from '../../functions/shared/domain/audit/audit-record';
import { auditStamp, OPERATOR } from '../../functions/shared/domain/audit/audit-stamp';
import { linkAuditRecord } from '../../functions/shared/domain/audit/link-audit';
import { appendLinkRecords } from '../../functions/shared/domain/audit/link-audit-stream';
import type { DomainRecord } from '../../functions/shared/domain/domains/custom-domain';
import { StackOutputs } from '../../lib/stack-outputs';
import { webhookRecord } from '../support/in-memory-webhooks';
import { dynamo, freshTables } from '../support/local-stack';

/**
 * The audit log against DynamoDB Local: a change and its record are written together or not at all (domains and
 * webhooks: one transaction), links' records come from the table's real stream and a redelivered batch writes
 * nothing twice, and the reader pages newest first with its filters.
 */
const run = Date.now().toString(36);
const nowMs = Date.now();
const byKey = { actor: { kind: 'key' as const, keyId: 'key_audit' }, requestId: 'req-it' };
let tables: Record<string, string>;
let log: DynamoAuditLog;

beforeAll(async () => {
  tables = await freshTables();
  log = new DynamoAuditLog(dynamo(), tables[StackOutputs.auditTable] as string);
});

const table = (name: StackOutputs) => tables[name] as string;

async function recordsOf(workspaceId: string): Promise<AuditRecord[]> {
  const { Items = [] } = await dynamo().send(
    new QueryCommand({ TableName: table(StackOutputs.auditTable), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `ws#${workspaceId}` }, ConsistentRead: true }),
  );
  return Items as AuditRecord[];
}

const recordFor = (workspaceId: string, action: string, id: string, at = nowMs) =>
  auditRecord({ workspaceId, actor: byKey.actor, requestId: byKey.requestId, action, target: { type: 'webhook', id }, changes: { url: { after: 'https://hooks.example.org/in' } }, nowMs: at });

describe('a change and its record', () => {
  it('are written together: a webhook added, changed and removed leaves one record each', async () => {
    const workspaceId = `acct_wh${run}`;
    const store = new DynamoWebhookStore(dynamo(), table(StackOutputs.webhooksTable), table(StackOutputs.auditTable));
    const hook = webhookRecord({ owner: `acct:${workspaceId}`, id: `wh_${run}a` });
    expect(await store.add(hook, 10, recordFor(workspaceId, 'webhook.created', hook.id))).toBe('added');
    expect(await store.update(hook.owner, hook.id, { description: 'CRM' }, recordFor(workspaceId, 'webhook.updated', hook.id))).toMatchObject({ description: 'CRM' });
    expect(await store.remove(hook.owner, hook.id, recordFor(workspaceId, 'webhook.deleted', hook.id))).toBe(true);
    expect((await recordsOf(workspaceId)).map((record) => record.action).sort()).toEqual(['webhook.created', 'webhook.deleted', 'webhook.updated']);
  });

  it('are not written at all when the change is refused: no record of a change that did not happen', async () => {
    const workspaceId = `acct_refused${run}`;
    const webhooks = new DynamoWebhookStore(dynamo(), table(StackOutputs.webhooksTable), table(StackOutputs.auditTable));
    expect(await webhooks.update(`acct:${workspaceId}`, `wh_${run}none`, { description: 'x' }, recordFor(workspaceId, 'webhook.updated', 'none'))).toBeUndefined();
    expect(await webhooks.remove(`acct:${workspaceId}`, `wh_${run}none`, recordFor(workspaceId, 'webhook.deleted', 'none'))).toBe(false);
    const full = `acct:${workspaceId}`;
    await webhooks.add(webhookRecord({ owner: full, id: `wh_${run}f1` }), 1);
    expect(await webhooks.add(webhookRecord({ owner: full, id: `wh_${run}f2` }), 1, recordFor(workspaceId, 'webhook.created', 'f2'))).toBe('overLimit');

    const domains = new DynamoDomainStore(dynamo(), table(StackOutputs.domainsTable), table(StackOutputs.auditTable));
    const domain: DomainRecord = { domain: `taken-${run}.example.com`, owner: 'acct:acct_first', status: 'pending', isDefault: false, dnsRecords: [], createdAt: new Date(nowMs).toISOString(), history: [] };
    expect(await domains.claim(domain, null)).toBe('claimed');
    const audit = auditRecord({ workspaceId, actor: byKey.actor, action: 'domain.claimed', target: { type: 'domain', id: domain.domain }, changes: {}, nowMs });
    expect(await domains.claim({ ...domain, owner: full }, null, audit)).toBe('taken');
    expect(await domains.updateSettings(domain.domain, full, { rootUrl: 'https://evil.example.com/' }, audit)).toBeUndefined();
    expect(await recordsOf(workspaceId)).toEqual([]);
  });

  it('cannot leave a record without its change: a record that cannot be written stops the change too', async () => {
    const workspaceId = `acct_atomic${run}`;
    const webhooks = new DynamoWebhookStore(dynamo(), table(StackOutputs.webhooksTable), table(StackOutputs.auditTable));
    const hook = webhookRecord({ owner: `acct:${workspaceId}`, id: `wh_${run}atomic` });
    const record = recordFor(workspaceId, 'webhook.created', hook.id);
    // A record with that position is there already (records are never overwritten): the whole transaction fails.
    await log.append(record);
    await expect(webhooks.add(hook, 10, record)).rejects.toThrow();
    expect(await webhooks.find(hook.owner, hook.id)).toBeUndefined();
    const domains = new DynamoDomainStore(dynamo(), table(StackOutputs.domainsTable), table(StackOutputs.auditTable));
    const domain: DomainRecord = { domain: `atomic-${run}.example.com`, owner: `acct:${workspaceId}`, status: 'pending', isDefault: false, dnsRecords: [], createdAt: new Date(nowMs).toISOString(), history: [] };
    await expect(domains.claim(domain, null, record)).rejects.toThrow();
    expect(await domains.find(domain.domain)).toBeUndefined();
    expect(await recordsOf(workspaceId)).toHaveLength(1);
  });

  it('are an operator\'s too: a domain takedown is recorded in its transaction', async () => {
    const workspaceId = `acct_op${run}`;
    const domains = new DynamoDomainStore(dynamo(), table(StackOutputs.domainsTable), table(StackOutputs.auditTable));
    const domain: DomainRecord = { domain: `op-${run}.example.com`, owner: `acct:${workspaceId}`, status: 'active', isDefault: false, dnsRecords: [], createdAt: new Date(nowMs).toISOString(), history: [] };
    await domains.claim(domain, null);
    const audit = auditRecord({ workspaceId, actor: OPERATOR.actor, action: 'domain.disabled', target: { type: 'domain', id: domain.domain }, changes: { status: { before: 'active', after: 'disabled' } }, nowMs });
    const moved = await domains.transition(domain.domain, { from: ['active'], change: { status: 'disabled', at: new Date(nowMs).toISOString(), reason: 'phishing' }, nextCheckAt: null }, audit);
    expect(moved).toMatchObject({ status: 'disabled', statusReason: 'phishing' });
    expect(await recordsOf(workspaceId)).toEqual([expect.objectContaining({ actor: { kind: 'operator' }, action: 'domain.disabled' })]);
  });
});

/** Every record of the links table's stream since the test began, as Lambda hands them over. */
async function streamRecords(tableName: string): Promise<DynamoDBRecord[]> {
  const { Table } = await dynamo().send(new DescribeTableCommand({ TableName: tableName }));
  const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB ?? `http://localhost:${process.env.LOCAL_DYNAMODB_PORT}`;
  const streams = new DynamoDBStreamsClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: Table?.LatestStreamArn }));
  const records: WireStreamRecord[] = [];
  for (const shard of StreamDescription?.Shards ?? []) {
    let { ShardIterator } = await streams.send(new GetShardIteratorCommand({ StreamArn: Table?.LatestStreamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }));
    for (let page = 0; ShardIterator && page < 20; page += 1) {
      const answer = await getRecordsPage(endpoint, 'us-east-1', ShardIterator);
      records.push(...answer.Records);
      if (answer.Records.length === 0) break;
      ShardIterator = answer.NextShardIterator;
    }
  }
  return records.map((record) => lambdaRecord(record, tableName, 'us-east-1') as unknown as DynamoDBRecord);
}

describe('links\' records, from the table\'s stream', () => {
  it('are written once per stamped change, however often the stream hands a record over', async () => {
    const workspaceId = `acct_ln${run}`;
    const owner = `acct:${workspaceId}`;
    const links = new DynamoLinkStore(dynamo(), table(StackOutputs.linksTable));
    const link = { code: `au${run}`.slice(0, 12), url: 'https://example.com/a', isAlias: true, createdAt: new Date(nowMs).toISOString(), clicks: 0, owner, maxClicks: 5, passwordHash: 'scrypt$s$h' };
    expect(await links.createIfAbsent(link, auditStamp('link.created', byKey, nowMs))).toBe(true);
    expect(await links.update(link.code, owner, { url: 'https://example.com/b' }, nowMs + 1_000, undefined, auditStamp('link.updated', byKey, nowMs + 1_000))).toMatchObject({ done: true });
    // A visit's click and a refused edit are no audited change: nothing committed, or no new stamp.
    await links.consumeClick(link.code, nowMs + 2_000);
    expect(await links.update(link.code, 'acct:someone-else', { url: 'https://evil.example.com/' }, nowMs + 2_500, undefined, auditStamp('link.updated', byKey, nowMs + 2_500))).toMatchObject({ done: false });
    expect(await links.setDisabled(link.code, 'phishing', nowMs + 3_000, auditStamp('link.disabled', OPERATOR, nowMs + 3_000))).toBe(true);
    // The stamp is the audit log's: the link as read does not carry it.
    expect(await links.find(link.code)).not.toHaveProperty('auditStamp');

    const batch = (await streamRecords(table(StackOutputs.linksTable))).filter((record) => JSON.stringify(record.dynamodb).includes(link.code));
    const records = batch.map((record) => linkAuditRecord(linkTableChange(record)));
    expect(await appendLinkRecords(records, log)).toBe(3);
    // Redelivered (a retried or split batch): the records find their own and nothing is written twice.
    expect(await appendLinkRecords(records, log)).toBe(0);
    const stored = await recordsOf(workspaceId);
    expect(stored.map((record) => record.action).sort()).toEqual(['link.created', 'link.disabled', 'link.updated']);
    expect(stored.find((record) => record.action === 'link.updated')?.changes).toEqual({ url: { before: 'https://example.com/a', after: 'https://example.com/b' } });
    expect(JSON.stringify(stored)).not.toContain('scrypt');
    expect(stored.every((record) => record.id === batch.find((event) => event.eventID === record.id)?.eventID)).toBe(true);
  });
});

describe('reading a workspace\'s log', () => {
  const workspaceId = `acct_read${run}`;
  const at = (second: number) => Date.parse('2026-11-25T10:00:00.000Z') + second * 1000;

  beforeAll(async () => {
    const records = Array.from({ length: 12 }, (_, index) =>
      auditRecord({
        workspaceId,
        actor: index % 3 === 0 ? { kind: 'operator' } : { kind: 'key', keyId: `key_${index % 2}` },
        action: index % 2 === 0 ? 'link.updated' : 'domain.updated',
        target: { type: index % 2 === 0 ? 'link' : 'domain', id: `t${index % 4}` },
        changes: {},
        nowMs: at(index),
      }),
    );
    for (const record of records) await log.append(record);
    // Another workspace's record never shows.
    await log.append(auditRecord({ workspaceId: `${workspaceId}x`, actor: { kind: 'operator' }, action: 'link.updated', target: { type: 'link', id: 't0' }, changes: {}, nowMs: at(5) }));
  });

  const seconds = (records: AuditRecord[]) => records.map((record) => (Date.parse(record.at) - at(0)) / 1000);

  it('pages newest first, each page starting after the last one shown', async () => {
    const first = await log.page(workspaceId, {}, { limit: 5, maxExamined: 1000 });
    expect(seconds(first.records)).toEqual([11, 10, 9, 8, 7]);
    const second = await log.page(workspaceId, {}, { limit: 5, maxExamined: 1000, after: first.next as string });
    expect(seconds(second.records)).toEqual([6, 5, 4, 3, 2]);
    const last = await log.page(workspaceId, {}, { limit: 5, maxExamined: 1000, after: second.next as string });
    expect(seconds(last.records)).toEqual([1, 0]);
    expect(last.next).toBeUndefined();
  });

  it('filters by actor, action, target and time, both ends included', async () => {
    expect(seconds((await log.page(workspaceId, { actor: 'operator' }, { limit: 20, maxExamined: 1000 })).records)).toEqual([9, 6, 3, 0]);
    expect(seconds((await log.page(workspaceId, { actor: 'key_1' }, { limit: 20, maxExamined: 1000 })).records)).toEqual([11, 7, 5, 1]);
    expect(seconds((await log.page(workspaceId, { action: 'domain.updated', target: 't1' }, { limit: 20, maxExamined: 1000 })).records)).toEqual([9, 5, 1]);
    const range = { from: new Date(at(3)).toISOString(), to: new Date(at(6)).toISOString() };
    expect(seconds((await log.page(workspaceId, range, { limit: 20, maxExamined: 1000 })).records)).toEqual([6, 5, 4, 3]);
  });

  it('examines a bounded number of records per page, and says where to go on', async () => {
    const page = await log.page(workspaceId, { target: 't0' }, { limit: 20, maxExamined: 4 });
    expect(seconds(page.records)).toEqual([8]);
    expect(page.next).toBeDefined();
    const rest = await log.page(workspaceId, { target: 't0' }, { limit: 20, maxExamined: 1000, after: page.next as string });
    expect(seconds(rest.records)).toEqual([4, 0]);
  });

  it('never overwrites a record: appending one again is refused', async () => {
    const record = auditRecord({ workspaceId, actor: { kind: 'operator' }, action: 'link.updated', target: { type: 'link', id: 'again' }, changes: {}, nowMs: at(30) });
    expect(await log.append(record)).toBe(true);
    expect(await log.append({ ...record, action: 'link.deleted' })).toBe(false);
    expect((await log.page(workspaceId, { target: 'again' }, { limit: 5, maxExamined: 1000 })).records).toEqual([record]);
  });
});
