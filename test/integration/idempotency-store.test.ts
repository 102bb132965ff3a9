import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import { localAwsEnvironment } from '../../bin/local/stack';
import type * as StoreModule from '../../functions/shared/adapters/idempotency-store';
import { IDEMPOTENCY_TTL_SECONDS } from '../../functions/shared/http/idempotency-terms';
import type { HttpResponse } from '../../functions/shared/http/responses';
import { StackOutputs } from '../../lib/stack-outputs';
import { freshTables } from '../support/local-stack';

/**
 * The idempotency bundle (Powertools on its DynamoDB layer) against DynamoDB Local, as the creation functions call
 * it: outcomes as plain values, failures of the work passed through, nothing but successes stored.
 */
type Store = typeof StoreModule;

const lambdaContext = { getRemainingTimeInMillis: () => 10_000 } as Context;
const answer = (statusCode: number, body: unknown): HttpResponse => ({ statusCode, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });

let store: Store;
let tableName: string;

beforeAll(async () => {
  // The functions' own client, pointed at DynamoDB Local as the local stack points the functions.
  Object.assign(process.env, localAwsEnvironment(Number(process.env.LOCAL_DYNAMODB_PORT), Number(process.env.LOCAL_SSM_PORT)));
  store = await import('../../functions/shared/adapters/idempotency-store');
  tableName = (await freshTables())[StackOutputs.idempotencyTable] as string;
});

describe('idempotencyStore against DynamoDB Local', () => {
  it('runs the work once, then answers the same key and body with the stored answer, marked', async () => {
    const run = store.idempotencyStore(tableName);
    let runs = 0;
    const work = async () => answer(201, { run: ++runs });
    expect(await run('account:a k1', { url: 'x' }, lambdaContext, work)).toEqual({ kind: 'answered', response: answer(201, { run: 1 }) });
    const repeat = await run('account:a k1', { url: 'x' }, lambdaContext, work);
    expect(repeat).toEqual({ kind: 'answered', response: { ...answer(201, { run: 1 }), headers: { ...answer(201, {}).headers, 'idempotent-replayed': 'true' } } });
    expect(runs).toBe(1);
    // Another scope is another key.
    expect(await run('account:b k1', { url: 'x' }, lambdaContext, work)).toEqual({ kind: 'answered', response: answer(201, { run: 2 }) });
  });

  it('keeps a record 24 hours', async () => {
    const run = store.idempotencyStore(tableName);
    const before = Math.floor(Date.now() / 1000);
    await run('account:a ttl', {}, lambdaContext, async () => answer(200, {}));
    const { Items } = await new DynamoDBClient({}).send(new ScanCommand({ TableName: tableName }));
    const expirations = (Items ?? []).map((item) => Number(item.expiration?.N));
    expect(expirations.some((expiration) => expiration >= before + IDEMPOTENCY_TTL_SECONDS && expiration <= before + IDEMPOTENCY_TTL_SECONDS + 5)).toBe(true);
  });

  it('says reused for the same key with another body, and in progress while the first runs', async () => {
    const run = store.idempotencyStore(tableName);
    await run('account:a k2', { url: 'one' }, lambdaContext, async () => answer(201, {}));
    expect(await run('account:a k2', { url: 'two' }, lambdaContext, async () => answer(201, {}))).toEqual({ kind: 'reused' });

    let finish: () => void = () => undefined;
    const first = run('account:a k3', {}, lambdaContext, () => new Promise<HttpResponse>((resolve) => (finish = () => resolve(answer(201, { first: true })))));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await run('account:a k3', {}, lambdaContext, async () => answer(201, { second: true }))).toEqual({ kind: 'in-progress' });
    finish();
    expect(await first).toEqual({ kind: 'answered', response: answer(201, { first: true }) });
  });

  it('stores no failure: a non-2xx answer or a thrown error leaves the key free for the next try', async () => {
    const run = store.idempotencyStore(tableName);
    expect(await run('account:a k4', {}, lambdaContext, async () => answer(400, { message: 'bad' }))).toEqual({ kind: 'answered', response: answer(400, { message: 'bad' }) });
    const thrown = new Error('refused by the domain');
    await expect(run('account:a k4', {}, lambdaContext, async () => Promise.reject(thrown))).rejects.toBe(thrown);
    expect(await run('account:a k4', {}, lambdaContext, async () => answer(201, { at: 'last' }))).toEqual({ kind: 'answered', response: answer(201, { at: 'last' }) });
  });

  it('says the store is unavailable when its table cannot be used', async () => {
    const run = store.idempotencyStore('no-such-table');
    const outcome = await run('account:a k5', {}, lambdaContext, async () => answer(201, {}));
    expect(outcome.kind).toBe('store-unavailable');
  });
});

