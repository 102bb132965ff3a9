import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoHealthLinks } from '../../functions/shared/adapters/dynamo-health-links';
import { DynamoHostSlots, DynamoUrlChecks } from '../../functions/shared/adapters/dynamo-url-checks';
import { healthShardOf, nextHealth } from '../../functions/shared/domain/health/link-health';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, freshTables } from '../support/local-stack';

/** Issue 31: link health's stores against DynamoDB Local, many workers at once. */
let healthTable: string;
let linksTable: string;
beforeAll(async () => {
  const tables = await freshTables();
  healthTable = tables[StackOutputs.linkHealthTable] as string;
  linksTable = tables[StackOutputs.linksTable] as string;
});

describe('the host-second limiter', () => {
  it('gives each second of a host to one worker only, however many ask at once', async () => {
    const second = Math.floor(Date.now() / 1000);
    // A hundred workers (each its own adapter, as containers are) book the same host from the same second.
    const booked = await Promise.all(Array.from({ length: 100 }, () => new DynamoHostSlots(dynamo(), healthTable).reserve('busy.example.com', second, 10)));
    const seconds = booked.filter((slot): slot is number => slot !== undefined);
    expect(seconds.sort()).toEqual(Array.from({ length: 10 }, (_, index) => second + index));
    expect(booked.filter((slot) => slot === undefined)).toHaveLength(90);
    // Another host is not held up by this one.
    expect(await new DynamoHostSlots(dynamo(), healthTable).reserve('quiet.example.com', second, 10)).toBe(second);
    const { Item } = await dynamo().send(new GetCommand({ TableName: healthTable, Key: { pk: `slot#busy.example.com#${second}` } }));
    expect(Item).toEqual({ pk: `slot#busy.example.com#${second}`, ttl: second + 60 });
  });
});

describe('each URL\'s check of the day', () => {
  it('is claimed by one worker of twenty; once recorded it is fresh for a day, then claimable again', async () => {
    const url = 'https://shop.example.com/spring?ü=1';
    const nowMs = Date.now();
    const day = 86_400_000;
    const claims = await Promise.all(Array.from({ length: 20 }, () => new DynamoUrlChecks(dynamo(), healthTable).claim(url, nowMs, nowMs - day, 60_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const checks = new DynamoUrlChecks(dynamo(), healthTable);
    const observation = { status: 'ok' as const, statusCode: 200, checkedAt: new Date(nowMs).toISOString() };
    await checks.record(url, observation);
    expect(await checks.latest(url)).toEqual(observation);
    expect(await checks.claim(url, nowMs + 1000, nowMs + 1000 - day, 60_000)).toBe(false);
    expect(await checks.claim(url, nowMs + day, nowMs, 60_000)).toBe(true);
  });

  it('a released claim (the check failed) lets the next worker check at once', async () => {
    const checks = new DynamoUrlChecks(dynamo(), healthTable);
    const nowMs = Date.now();
    expect(await checks.claim('https://released.example.com/', nowMs, nowMs - 1, 60_000)).toBe(true);
    expect(await checks.claim('https://released.example.com/', nowMs, nowMs - 1, 60_000)).toBe(false);
    await checks.release('https://released.example.com/');
    expect(await checks.claim('https://released.example.com/', nowMs, nowMs - 1, 60_000)).toBe(true);
  });
});

describe('the links\' side', () => {
  it('writes health and the due index, finds due links by shard, leases each once, and never makes a link', async () => {
    const links = new DynamoHealthLinks(dynamo(), linksTable);
    const key = `hl${Date.now().toString(36)}`;
    await dynamo().send(new PutCommand({ TableName: linksTable, Item: { code: key, url: 'https://shop.example.com/', isAlias: false, createdAt: new Date().toISOString(), clicks: 0, owner: 'acct:h' } }));
    const health = nextHealth(undefined, { status: 'server-error', statusCode: 503, checkedAt: new Date().toISOString() });
    await links.saveHealth(key, health, 1_000);
    expect(await links.find(key)).toMatchObject({ code: key, health });
    expect(await links.find(key)).not.toHaveProperty('healthDueAt');
    const due = await links.due(healthShardOf(key), 2_000, 50);
    expect(due).toContainEqual({ key, dueAtMs: 1_000 });
    expect(await Promise.all([links.lease(key, 1_000, 5_000), links.lease(key, 1_000, 5_000)])).toEqual(expect.arrayContaining([true, false]));
    await links.stopChecking(key);
    expect(await links.due(healthShardOf(key), 10_000, 50)).not.toContainEqual(expect.objectContaining({ key }));
    await links.saveHealth('no-such-link', health, 1_000);
    expect(await links.find('no-such-link')).toBeUndefined();
  });
});
