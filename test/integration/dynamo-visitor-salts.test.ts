import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoVisitorSaltStore } from '../../functions/shared/adapters/dynamo-visitor-salts';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, freshTables } from '../support/local-stack';

/** Issue 30: the daily salt against DynamoDB Local. */
let table: string;
beforeAll(async () => {
  table = (await freshTables())[StackOutputs.visitorSaltsTable] as string;
});

describe('the visitor salts', () => {
  it('give every container of a day the same random salt, and each day its own', async () => {
    const [one, two] = [new DynamoVisitorSaltStore(dynamo(), table), new DynamoVisitorSaltStore(dynamo(), table)];
    const [a, b] = await Promise.all([one.saltOf('2026-11-23'), two.saltOf('2026-11-23')]);
    expect(a).toBe(b);
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(await one.saltOf('2026-11-24')).not.toBe(a);
  });

  it('are gone for good once forgotten, the item left only with its end-of-day TTL', async () => {
    const salts = new DynamoVisitorSaltStore(dynamo(), table);
    const salt = await salts.saltOf('2026-11-20');
    await salts.forget('2026-11-20');
    await salts.forget('2026-11-20');
    await salts.forget('2026-01-01');
    const { Item } = await dynamo().send(new GetCommand({ TableName: table, Key: { day: '2026-11-20' } }));
    expect(Item).toEqual({ day: '2026-11-20', ttl: Date.parse('2026-11-21T00:00:00.000Z') / 1000 });
    expect(JSON.stringify(Item)).not.toContain(salt);
  });
});
