import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { mapWithConcurrency } from '../domain/concurrency';
import type { ImportChunk, ImportedLinkRecord, ImportedLinkWriter, ImportJob, ImportMarker, ImportWrite, RowResult } from '../domain/imports/import-job';
import type { RowProblem } from '../domain/imports/import-record';
import { keyOf, removableAt } from '../domain/links/link';
import { TTL_ATTRIBUTE } from './dynamo-link-store';
import type { AuditStamp } from '../domain/audit/audit-stamp';
import { AUDIT_STAMP_ATTRIBUTE } from '../domain/audit/link-audit';

/** A job, its chunks and their results go 90 days after the import; the links and their markers stay. */
const JOB_TTL_SECONDS = 90 * 24 * 3600;
/** Problems per item: a thousand reasons of a few hundred bytes each, far under DynamoDB's 400 KB. */
const PROBLEMS_PER_ITEM = 1000;
const WRITE_CONCURRENCY = 25;

const jobPk = (jobId: string) => `job#${jobId}`;
const place = (index: number) => String(index).padStart(6, '0');
const markerKey = (owner: string, idempotencyKey: string) => ({ pk: `mark#${owner}`, sk: idempotencyKey });

type StoredJob = Omit<ImportJob, 'problems'> & { problemItems: number };

/**
 * The imports table (data-tables.ts) and the one write an import makes in the links table: the link and its marker
 * together, so a worker that dies between the two cannot exist.
 */
export class DynamoImportStore implements ImportedLinkWriter {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly linksTableName: string,
  ) {}

  /** The job, its problems and its chunks, then its place in the workspace's list: once listed, everything is there. */
  async saveJob(job: ImportJob, chunks: readonly ImportChunk[], nowMs: number): Promise<void> {
    const ttl = Math.floor(nowMs / 1000) + JOB_TTL_SECONDS;
    const problemItems: RowProblem[][] = [];
    for (let start = 0; start < job.problems.length; start += PROBLEMS_PER_ITEM) problemItems.push(job.problems.slice(start, start + PROBLEMS_PER_ITEM));
    const { problems: _problems, ...fields } = job;
    const items: Array<Record<string, unknown>> = [
      ...problemItems.map((problems, index) => ({ pk: jobPk(job.id), sk: `problems#${place(index)}`, problems, ttl })),
      ...chunks.map((chunk) => ({ pk: jobPk(job.id), sk: `chunk#${place(chunk.index)}`, drafts: chunk.drafts, ttl })),
      { pk: jobPk(job.id), sk: 'job', ...fields, problemItems: problemItems.length, ttl },
    ];
    await mapWithConcurrency(items, WRITE_CONCURRENCY, (item) => this.client.send(new PutCommand({ TableName: this.tableName, Item: item })));
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: { pk: `ws#${job.owner}`, sk: `${job.createdAt}#${job.id}`, jobId: job.id, ttl } }));
  }

  async job(jobId: string): Promise<ImportJob | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: jobPk(jobId), sk: 'job' }, ConsistentRead: true }));
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, ttl: _ttl, problemItems, ...job } = Item as StoredJob & { pk: string; sk: string; ttl: number };
    const problems = problemItems === 0 ? [] : (await this.queryAll(jobPk(jobId), 'problems#')).flatMap((item) => item.problems as RowProblem[]);
    return { ...job, problems };
  }

  async chunk(jobId: string, index: number): Promise<ImportChunk | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: jobPk(jobId), sk: `chunk#${place(index)}` }, ConsistentRead: true }));
    return Item ? { jobId, index, drafts: Item.drafts as ImportChunk['drafts'] } : undefined;
  }

  /** A chunk's results, as settled (a retried chunk writes the same results again). */
  async saveChunkResults(jobId: string, index: number, results: readonly RowResult[], nowMs: number): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: { pk: jobPk(jobId), sk: `result#${place(index)}`, results, ttl: Math.floor(nowMs / 1000) + JOB_TTL_SECONDS } }));
  }

  /** Results the API settles for chunks the queue did not take: where a worker settled the chunk anyway, its results stay. */
  async saveMissingResults(jobId: string, chunks: ReadonlyArray<{ index: number; results: readonly RowResult[] }>, nowMs: number): Promise<void> {
    const ttl = Math.floor(nowMs / 1000) + JOB_TTL_SECONDS;
    await mapWithConcurrency(chunks, WRITE_CONCURRENCY, async ({ index, results }) => {
      try {
        await this.client.send(new PutCommand({ TableName: this.tableName, Item: { pk: jobPk(jobId), sk: `result#${place(index)}`, results, ttl }, ConditionExpression: 'attribute_not_exists(pk)' }));
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    });
  }

  async chunkResults(jobId: string): Promise<RowResult[][]> {
    return (await this.queryAll(jobPk(jobId), 'result#')).map((item) => item.results as RowResult[]);
  }

  /** A workspace's jobs, newest first. */
  async jobIds(owner: string, limit: number): Promise<string[]> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({ TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `ws#${owner}` }, ScanIndexForward: false, Limit: limit }),
    );
    return Items.map((item) => item.jobId as string);
  }

  async createImported(link: ImportedLinkRecord, marker: ImportMarker, stamp?: AuditStamp): Promise<ImportWrite> {
    const item = {
      ...link,
      code: keyOf(link),
      ...(link.expiresAt ? { [TTL_ATTRIBUTE]: removableAt(link.expiresAt) } : {}),
      // The links stream's audit recorder reads it (audit-stamp.ts): an imported link's `link.created` record.
      ...(stamp === undefined ? {} : { [AUDIT_STAMP_ATTRIBUTE]: stamp }),
    };
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: { ...markerKey(marker.owner, marker.idempotencyKey), ...marker },
                ConditionExpression: 'attribute_not_exists(pk)',
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
            { Put: { TableName: this.linksTableName, Item: item, ConditionExpression: 'attribute_not_exists(code)' } },
          ],
        }),
      );
      return { outcome: 'created' };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const [markerReason, linkReason] = error.CancellationReasons ?? [];
      if (markerReason?.Code === 'ConditionalCheckFailed' && markerReason.Item) {
        const { pk: _pk, sk: _sk, ...stored } = unmarshall(markerReason.Item);
        return { outcome: 'imported', marker: stored as ImportMarker };
      }
      if (linkReason?.Code === 'ConditionalCheckFailed') return { outcome: 'codeTaken' };
      throw error;
    }
  }

  private async queryAll(pk: string, prefix: string): Promise<Array<Record<string, unknown>>> {
    const items: Array<Record<string, unknown>> = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  }
}
