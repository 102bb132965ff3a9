import { DynamoImportStore } from '../../functions/shared/adapters/dynamo-import-store';
import { DynamoLinkStore } from '../../functions/shared/adapters/dynamo-link-store';
import { importChunk, summaryOf, type ImportedLinkRecord, type ImportMarker } from '../../functions/shared/domain/imports/import-job';
import { prepareImport } from '../../functions/shared/domain/imports/import-planning';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { auditStamp } from '../../functions/shared/domain/audit/audit-stamp';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, freshTables } from '../support/local-stack';

/** The import store against DynamoDB Local: the link and its marker in one transaction, jobs stored and read whole. */
let store: DynamoImportStore;
let links: DynamoLinkStore;
let linksTable: string;
const nowMs = Date.now();
const unique = nowMs.toString(36);

beforeAll(async () => {
  const tables = await freshTables();
  store = new DynamoImportStore(dynamo(), tables[StackOutputs.importsTable] as string, tables[StackOutputs.linksTable] as string);
  linksTable = tables[StackOutputs.linksTable] as string;
  links = new DynamoLinkStore(dynamo(), linksTable);
});

const link = (code: string, fields: Partial<ImportedLinkRecord> = {}): ImportedLinkRecord => ({
  code, url: 'https://example.com/', isAlias: true, createdAt: '2020-01-01T00:00:00.000Z', clicks: 0, owner: `acct_${unique}`, title: 'Été 😀', importedClicks: 42, importedFrom: { source: 'kutt', sourceId: code, importId: 'imp_a' }, ...fields,
});
const marker = (code: string, fields: Partial<ImportMarker> = {}): ImportMarker => ({ owner: `acct_${unique}`, idempotencyKey: `kutt#${code}`, jobId: 'imp_a', row: 1, code, ...fields });

describe('createImported', () => {
  it('writes the link with its history and its marker together', async () => {
    expect(await store.createImported(link(`one${unique}`), marker(`one${unique}`))).toEqual({ outcome: 'created' });
    expect(await links.find(`one${unique}`)).toMatchObject({ title: 'Été 😀', importedClicks: 42, importedFrom: { source: 'kutt', sourceId: `one${unique}` } });
  });

  it('puts the audit stamp on the link\'s item for the links stream\'s recorder, and the link reads without it', async () => {
    const stamp = auditStamp('link.created', { actor: { kind: 'key', keyId: 'key_1' }, requestId: 'req-1' }, nowMs);
    await store.createImported(link(`stamped${unique}`), marker(`stamped${unique}`), stamp);
    const { Item } = await dynamo().send(new GetCommand({ TableName: linksTable, Key: { code: `stamped${unique}` } }));
    expect(Item?.auditStamp).toEqual(stamp);
    expect(await links.find(`stamped${unique}`)).not.toHaveProperty('auditStamp');
  });

  it('refuses a second link for the same marker and hands back the first one\'s, making nothing', async () => {
    await store.createImported(link(`two${unique}`), marker(`two${unique}`, { renamed: 'why' }));
    const again = await store.createImported(link(`other${unique}`), marker(`two${unique}`, { code: `other${unique}`, jobId: 'imp_b' }));
    expect(again).toEqual({ outcome: 'imported', marker: marker(`two${unique}`, { renamed: 'why' }) });
    expect(await links.find(`other${unique}`)).toBeUndefined();
  });

  it('says the code is taken when another link has it, writing no marker', async () => {
    await store.createImported(link(`three${unique}`), marker(`three${unique}`));
    expect(await store.createImported(link(`three${unique}`), marker(`fresh${unique}`, { code: `three${unique}` }))).toEqual({ outcome: 'codeTaken' });
    expect(await store.createImported(link(`fresh${unique}`), marker(`fresh${unique}`))).toEqual({ outcome: 'created' });
  });

  it('keys a custom domain\'s link by domain and code, with the TTL of its expiry', async () => {
    await store.createImported(link(`dom${unique}`, { domain: 'k.example-shop.com', expiresAt: '2030-01-01T00:00:00.000Z' }), marker(`dom${unique}`));
    expect(await links.find(`k.example-shop.com/dom${unique}`)).toMatchObject({ code: `dom${unique}`, domain: 'k.example-shop.com', expiresAt: '2030-01-01T00:00:00.000Z' });
  });
});

describe('jobs', () => {
  it('stores a job of many chunks and problems and reads it back whole; its summary follows the chunks\' results', async () => {
    const rows = Array.from({ length: 120 }, (_, index) => `https://example.com/${index},j${index}x${unique}`);
    const content = `url,alias\n${rows.join('\n')}\n${Array.from({ length: 1500 }, () => 'https://example.com/x,a,b').join('\n')}\n`;
    const id = `imp_${unique}`;
    const author = { actor: { kind: 'key', keyId: 'key_1', name: 'ci 日本' }, requestId: 'req-1' } as const;
    const { job, chunks } = prepareImport({ id, owner: `acct_${unique}`, source: 'csv', onConflict: 'skip', content, author }, { nowMs, workspaceDomains: new Set() });
    await store.saveJob(job, chunks, nowMs);
    expect(await store.job(id)).toEqual(job);
    expect(await store.chunk(id, 2)).toEqual(chunks[2]);
    expect(await store.jobIds(`acct_${unique}`, 10)).toEqual([id]);

    for (const chunk of chunks) {
      const stored = await store.chunk(id, chunk.index);
      await store.saveChunkResults(id, chunk.index, await importChunk(job, stored!, { writer: store, generateCode: () => 'unused', claimOf: () => undefined, nowMs: () => nowMs }), nowMs);
    }
    const summary = summaryOf(job, await store.chunkResults(id));
    expect(summary).toMatchObject({ status: 'done', read: 1620, created: 120, failed: 1500 });
  });

  it('stores the results of chunks the queue did not take only where no worker has stored its own', async () => {
    const id = `imp_missing${unique}`;
    const worker = [{ row: 1, outcome: 'created' as const, code: 'w1' }];
    const unfinished = (row: number) => [{ row, outcome: 'failed' as const, reason: 'unfinished' }];
    await store.saveChunkResults(id, 0, worker, nowMs);
    await store.saveMissingResults(id, [{ index: 0, results: unfinished(1) }, { index: 1, results: unfinished(51) }], nowMs);
    expect(await store.chunkResults(id)).toEqual([worker, unfinished(51)]);
    // A worker that settles the chunk afterwards replaces them.
    await store.saveChunkResults(id, 1, [{ row: 51, outcome: 'created', code: 'w51' }], nowMs);
    expect(await store.chunkResults(id)).toEqual([worker, [{ row: 51, outcome: 'created', code: 'w51' }]]);
  });
});
