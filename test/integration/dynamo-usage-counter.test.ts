import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoUsageCounter } from '../../functions/shared/adapters/dynamo-usage-counter';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, freshTables } from '../support/local-stack';

describe('DynamoUsageCounter against DynamoDB Local', () => {
  let counter: DynamoUsageCounter;
  let tableName: string;

  beforeAll(async () => {
    tableName = (await freshTables())[StackOutputs.usageTable] as string;
    counter = new DynamoUsageCounter(dynamo(), tableName);
  });

  it('admits exactly the limit out of 200 concurrent calls', async () => {
    const results = await Promise.all(Array.from({ length: 200 }, () => counter.tryConsume('window-a', 100, 2_000_000_000)));
    expect(results.filter((result) => result.consumed)).toHaveLength(100);
    expect(new Set(results.filter((result) => result.consumed).map((result) => result.count)).size).toBe(100);
    const { Item } = await dynamo().send(new GetCommand({ TableName: tableName, Key: { pk: 'window-a' } }));
    // The limit rides along, for the stream's quota events (issue 19).
    expect(Item).toEqual({ pk: 'window-a', count: 100, limit: 100, ttl: 2_000_000_000 });
  });

  it('keeps the first expiry it was given', async () => {
    await counter.tryConsume('window-b', 5, 1_000);
    await counter.tryConsume('window-b', 5, 9_999);
    const { Item } = await dynamo().send(new GetCommand({ TableName: tableName, Key: { pk: 'window-b' } }));
    expect(Item?.ttl).toBe(1_000);
  });
});
