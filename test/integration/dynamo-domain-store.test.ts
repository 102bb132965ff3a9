import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDomainStore } from '../../functions/shared/adapters/dynamo-domain-store';
import { DynamoLinkStore } from '../../functions/shared/adapters/dynamo-link-store';
import type { DomainRecord } from '../../functions/shared/domain/domains/custom-domain';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, freshTables } from '../support/local-stack';

/** The domain store's transactions and the links' per-domain keys against DynamoDB Local. */
const nowMs = Date.now();
let domains: DynamoDomainStore;
let links: DynamoLinkStore;
let linksTable: string;

beforeAll(async () => {
  const tables = await freshTables();
  domains = new DynamoDomainStore(dynamo(), tables[StackOutputs.domainsTable] as string);
  linksTable = tables[StackOutputs.linksTable] as string;
  links = new DynamoLinkStore(dynamo(), linksTable);
});

let counter = 0;
function domainRecord(owner: string, fields: Partial<DomainRecord> = {}): DomainRecord {
  counter += 1;
  const createdAt = new Date(nowMs + counter).toISOString();
  return { domain: `d${counter}.acme${nowMs.toString(36)}.com`, owner, status: 'pending', isDefault: false, dnsRecords: [], createdAt, history: [{ status: 'pending', at: createdAt }], nextCheckAt: nowMs, ...fields };
}

describe('claiming a name', () => {
  it('lets exactly one of many concurrent claims win, whatever the accounts', async () => {
    const name = `race.acme${nowMs.toString(36)}.com`;
    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => domains.claim(domainRecord(`acct:racer${index}`, { domain: name }), 10)));
    expect(results.filter((result) => result === 'claimed')).toHaveLength(1);
    expect(results.filter((result) => result === 'taken')).toHaveLength(19);
  });

  it('counts an account\'s domains exactly under concurrency, and a removal gives one back', async () => {
    const owner = `acct:counted${nowMs}`;
    const results = await Promise.all(Array.from({ length: 12 }, () => domains.claim(domainRecord(owner), 10)));
    expect(results.filter((result) => result === 'claimed')).toHaveLength(10);
    expect(results.filter((result) => result === 'overLimit')).toHaveLength(2);
    const [first] = await domains.listByOwner(owner);
    expect(await domains.remove({ ...(first as DomainRecord), owner: 'acct:intruder' }, nowMs)).toBe(false);
    expect(await domains.remove(first as DomainRecord, nowMs)).toBe(true);
    expect(await domains.claim(domainRecord(owner), 10)).toBe('claimed');
    expect(await domains.claim(domainRecord(owner), 10)).toBe('overLimit');
    expect(await domains.claim(domainRecord(owner), null)).toBe('claimed');
  });
});

describe('what frees a name (issue 27)', () => {
  const DAY = 24 * 60 * 60_000;
  const at = (ms: number) => ({ createdAt: new Date(ms).toISOString() });

  it('holds a removed name for its former owner: of many racing claims by others none wins, the owner\'s does', async () => {
    const owner = `acct:holder${nowMs}`;
    const record = domainRecord(owner, { status: 'active', verifiedAt: new Date(nowMs).toISOString(), claimId: 'a'.repeat(32) });
    await domains.claim(record, null);
    expect(await domains.remove(record, nowMs, nowMs + 7 * DAY)).toBe(true);
    expect(await domains.find(record.domain)).toBeUndefined();
    expect(await domains.holdOf(record.domain)).toEqual({ domain: record.domain, heldFor: owner, heldUntilMs: nowMs + 7 * DAY });
    expect(await domains.listAll()).not.toContainEqual(expect.objectContaining({ domain: record.domain }));
    const others = await Promise.all(Array.from({ length: 10 }, (_, index) => domains.claim({ ...domainRecord(`acct:other${index}`), domain: record.domain, ...at(nowMs + 1000) }, 10)));
    expect(new Set(others)).toEqual(new Set(['taken']));
    expect(await domains.claim({ ...domainRecord(owner), domain: record.domain, ...at(nowMs + 1000) }, 10)).toBe('claimed');
    expect(await domains.holdOf(record.domain)).toBeUndefined();
  });

  it('frees a hold for anyone once it ends, exactly one of racing claims winning, or at once when ended by an operator', async () => {
    const record = domainRecord(`acct:ended${nowMs}`, { status: 'active' });
    await domains.claim(record, null);
    await domains.remove(record, nowMs, nowMs + 7 * DAY);
    const racing = await Promise.all(Array.from({ length: 10 }, (_, index) => domains.claim({ ...domainRecord(`acct:late${index}`), domain: record.domain, ...at(nowMs + 7 * DAY) }, 10)));
    expect(racing.filter((result) => result === 'claimed')).toHaveLength(1);

    const released = domainRecord(`acct:released${nowMs}`, { status: 'active' });
    await domains.claim(released, null);
    await domains.remove(released, nowMs, nowMs + 7 * DAY);
    expect(await domains.endHold(released.domain)).toBe(true);
    expect(await domains.endHold(released.domain)).toBe(false);
    expect(await domains.claim({ ...domainRecord('acct:next'), domain: released.domain, ...at(nowMs + 1000) }, 10)).toBe('claimed');
  });

  it('frees a failed claim: exactly one racing claim wins, the failed owner gets its count back and its tenant goes', async () => {
    const squatter = `acct:squatter${nowMs}`;
    const failed = domainRecord(squatter, { status: 'failed', claimId: 'b'.repeat(32) });
    delete failed.nextCheckAt;
    expect(await domains.claim(failed, 1)).toBe('claimed');
    expect(await domains.claim(domainRecord(squatter), 1)).toBe('overLimit');
    const racing = await Promise.all(Array.from({ length: 10 }, (_, index) => domains.claim({ ...domainRecord(`acct:brand${index}${nowMs}`), domain: failed.domain, ...at(nowMs + 1000) }, 10)));
    expect(racing.filter((result) => result === 'claimed')).toHaveLength(1);
    expect(await domains.find(failed.domain)).toMatchObject({ status: 'pending', owner: expect.stringMatching(/^acct:brand/) });
    expect(await domains.claim(domainRecord(squatter), 1)).toBe('claimed');
    expect((await domains.dueCleanups(nowMs + 2000, 1000)).find((cleanup) => cleanup.domain === failed.domain)).toMatchObject({ formerOwner: squatter, claimId: 'b'.repeat(32) });
  });

  it('never frees a pending, active or disabled claim, and removes a domain only as it was read', async () => {
    for (const status of ['pending', 'active', 'disabled'] as const) {
      const record = domainRecord(`acct:keeper${status}${nowMs}`, { status });
      await domains.claim(record, null);
      expect(await domains.claim({ ...domainRecord('acct:thief'), domain: record.domain }, 10)).toBe('taken');
      expect(await domains.claim({ ...domainRecord(record.owner), domain: record.domain }, 10)).toBe('taken');
    }
    const taken = domainRecord(`acct:takedown${nowMs}`, { status: 'active' });
    await domains.claim(taken, null);
    await domains.transition(taken.domain, { from: ['active'], change: { status: 'disabled', at: new Date(nowMs).toISOString(), reason: 'abuse' }, nextCheckAt: null });
    // Read as active before the takedown: the removal loses.
    expect(await domains.remove(taken, nowMs)).toBe(false);
    expect(await domains.find(taken.domain)).toMatchObject({ status: 'disabled' });
  });

  it('records an on-request check once a minute: of concurrent requests one goes, the rest learn how long to wait', async () => {
    const record = domainRecord(`acct:verify${nowMs}`);
    await domains.claim(record, null);
    const answers = await Promise.all(Array.from({ length: 5 }, () => domains.reserveManualCheck(record.domain, record.owner, nowMs, 60_000)));
    expect(answers.filter((answer) => answer === undefined)).toHaveLength(1);
    expect(answers.filter((answer) => answer === 60_000)).toHaveLength(4);
    expect(await domains.reserveManualCheck(record.domain, record.owner, nowMs + 20_000, 60_000)).toBe(40_000);
    expect(await domains.reserveManualCheck(record.domain, 'acct:intruder', nowMs + 60_000, 60_000)).toBeUndefined();
    expect(await domains.reserveManualCheck(record.domain, record.owner, nowMs + 60_000, 60_000)).toBeUndefined();
    expect(await domains.find(record.domain)).not.toHaveProperty('manualCheckAt');
  });
});

describe('an account\'s domains', () => {
  it('have one default at a time, which goes with its domain', async () => {
    const owner = `acct:defaults${nowMs}`;
    const [one, two] = [domainRecord(owner, { status: 'active' }), domainRecord(owner, { status: 'active' })];
    for (const record of [one, two]) await domains.claim(record, null);
    await domains.setDefault(one.domain, owner, true);
    expect(await domains.setDefault(two.domain, owner, true)).toMatchObject({ isDefault: true });
    expect(await domains.find(one.domain)).toMatchObject({ isDefault: false });
    expect(await domains.defaultOf(owner)).toBe(two.domain);
    expect(await domains.setDefault(two.domain, 'acct:intruder', true)).toBeUndefined();
    await domains.remove((await domains.find(two.domain)) as DomainRecord, nowMs);
    expect(await domains.defaultOf(owner)).toBeUndefined();
  });

  it('change status only from the status read, recording each change once', async () => {
    const record = domainRecord(`acct:status${nowMs}`);
    await domains.claim(record, null);
    const at = new Date(nowMs + 5000).toISOString();
    expect(await domains.transition(record.domain, { from: ['pending'], change: { status: 'pending', at, reason: 'no DNS yet' }, nextCheckAt: nowMs + 300_000 })).toMatchObject({
      status: 'pending',
      statusReason: 'no DNS yet',
      nextCheckAt: nowMs + 300_000,
    });
    const active = await domains.transition(record.domain, { from: ['pending'], change: { status: 'active', at }, verifiedAt: at, nextCheckAt: null });
    expect(active).toMatchObject({ status: 'active', verifiedAt: at });
    expect(active?.statusReason).toBeUndefined();
    expect(active?.nextCheckAt).toBeUndefined();
    expect(active?.history.map((change) => change.status)).toEqual(['pending', 'active']);
    expect(await domains.transition(record.domain, { from: ['pending'], change: { status: 'failed', at }, nextCheckAt: null })).toBeUndefined();
  });

  it('come up for checks and cleanups when due, through the work index', async () => {
    const owner = `acct:work${nowMs}`;
    const due = domainRecord(owner, { nextCheckAt: nowMs - 1 });
    const later = domainRecord(owner, { nextCheckAt: nowMs + 3_600_000 });
    for (const record of [due, later]) await domains.claim(record, null);
    const checks = await domains.dueChecks(nowMs, 1000);
    expect(checks).toContain(due.domain);
    expect(checks).not.toContain(later.domain);
    await domains.remove(due, nowMs);
    const cleanup = (await domains.dueCleanups(nowMs, 1000)).find((entry) => entry.domain === due.domain);
    expect(cleanup).toMatchObject({ formerOwner: owner, deletedAt: new Date(nowMs).toISOString() });
    await domains.postponeCleanup(cleanup?.id ?? '', nowMs + 60_000);
    expect((await domains.dueCleanups(nowMs, 1000)).map((entry) => entry.domain)).not.toContain(due.domain);
    await domains.finishCleanup(cleanup?.id ?? '');
    expect((await domains.dueCleanups(nowMs + 120_000, 1000)).map((entry) => entry.domain)).not.toContain(due.domain);
    expect(await domains.listAll()).not.toContainEqual(expect.objectContaining({ domain: expect.stringContaining('#') }));
  });
});

describe('links on custom domains', () => {
  it('are keyed per domain: one alias on two domains and the shared one is three links', async () => {
    const base = { url: 'https://example.com/', isAlias: true, createdAt: new Date(nowMs).toISOString(), clicks: 0, owner: 'acct:a' };
    const alias = `promo${nowMs.toString(36)}`;
    expect(await links.createIfAbsent({ ...base, code: alias, domain: 'go.acme.com' })).toBe(true);
    expect(await links.createIfAbsent({ ...base, code: alias, domain: 'go.other.com', url: 'https://example.org/' })).toBe(true);
    expect(await links.createIfAbsent({ ...base, code: alias })).toBe(true);
    expect(await links.createIfAbsent({ ...base, code: alias, domain: 'go.acme.com', owner: 'acct:b' })).toBe(false);
    expect(await links.find(`go.other.com/${alias}`)).toMatchObject({ code: alias, domain: 'go.other.com', url: 'https://example.org/' });
    expect(await links.find(alias)).not.toHaveProperty('domain');
  });

  it('are found for a removed domain\'s cleanup: the former owner\'s, made before the removal', async () => {
    const domain = `cleanup.acme${nowMs.toString(36)}.com`;
    const made = (code: string, owner: string, at: number) => links.createIfAbsent({ code, domain, url: 'https://example.com/', isAlias: true, createdAt: new Date(at).toISOString(), clicks: 0, owner });
    await made('before1', 'acct:old', nowMs - 2000);
    await made('before2', 'acct:old', nowMs - 1000);
    await made('other', 'acct:new', nowMs - 500);
    await made('after', 'acct:old', nowMs + 1000);
    const { keys, examined } = await links.keysOnDomain(domain, 'acct:old', new Date(nowMs).toISOString(), { limit: 100 });
    expect(keys.sort()).toEqual([`${domain}/before1`, `${domain}/before2`]);
    expect(examined).toBe(3);
    expect(await links.clearOfRemovedDomain(`${domain}/before1`, 'acct:old', nowMs)).toBe(true);
    expect(await links.find(`${domain}/before1`)).toMatchObject({ code: 'before1', domain, deleted: true });
    expect(await links.clearOfRemovedDomain(`${domain}/before1`, 'acct:old', nowMs)).toBe(false);
  });

  it('leave links written before domains existed readable as they were: a bare code, no domain', async () => {
    const code = `old${nowMs.toString(36)}`;
    await dynamo().send(new PutCommand({ TableName: linksTable, Item: { code, url: 'https://example.com/old', isAlias: false, createdAt: '2026-01-01T00:00:00.000Z', clicks: 3, owner: 'acct:a' } }));
    const found = await links.find(code);
    expect(found).toEqual({ code, url: 'https://example.com/old', isAlias: false, createdAt: '2026-01-01T00:00:00.000Z', clicks: 3, owner: 'acct:a' });
    expect(await links.update(code, 'acct:a', { url: 'https://example.com/new' }, nowMs)).toMatchObject({ done: true, link: { code, url: 'https://example.com/new' } });
  });
});
