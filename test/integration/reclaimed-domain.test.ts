import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDomainStore } from '../../functions/shared/adapters/dynamo-domain-store';
import { DynamoLinkStore } from '../../functions/shared/adapters/dynamo-link-store';
import type { DomainRecord } from '../../functions/shared/domain/domains/custom-domain';
import { LINKS_EXAMINED_PER_RUN, runDomainWork } from '../../functions/shared/domain/domains/domain-work';
import { LinkNotFound } from '../../functions/shared/domain/errors';
import { SAFE_DEFAULT_FLAGS } from '../../functions/shared/domain/limits/flags';
import type { LinkRecord } from '../../functions/shared/domain/links/link';
import { deleteLink, editLink } from '../../functions/shared/domain/links/link-management';
import { viewLink, type ManagementContext } from '../../functions/shared/domain/links/link-viewing';
import { resolveVisit } from '../../functions/shared/domain/visits/visit';
import { StackOutputs } from '../../lib/stack-outputs';
import { FixedAttachments, FixedFlags, ListSafetyChecker, MemoryUsageCounter, PublishedTxtRecords, smartFields } from '../support/in-memory-ports';
import { dynamo, freshTables } from '../support/local-stack';
import { keyCaller } from '../support/callers';

/**
 * Issue 27, finding 2, against DynamoDB Local: a domain of 5,000 links is removed by its owner and claimed by
 * another account. Its cleanup takes several bounded runs, each going on from the cursor the last one stored; the
 * new owner's links are served throughout, none of the former owner's, before the cleanup or after it.
 */
const nowMs = Date.now();
const MINUTE = 60_000;
const LINKS = 5_000;
const name = `reclaimed.acme${nowMs.toString(36)}.com`;
let domains: DynamoDomainStore;
let links: DynamoLinkStore;
let linksTable: string;

beforeAll(async () => {
  const tables = await freshTables();
  domains = new DynamoDomainStore(dynamo(), tables[StackOutputs.domainsTable] as string);
  linksTable = tables[StackOutputs.linksTable] as string;
  links = new DynamoLinkStore(dynamo(), linksTable);
});

const claimOf = (owner: string, claimId: string): DomainRecord => ({
  domain: name,
  owner,
  claimId,
  status: 'active',
  isDefault: false,
  dnsRecords: [],
  createdAt: new Date(nowMs).toISOString(),
  history: [],
  expiredUrl: `https://${owner.slice(5)}.example.com/over`,
  notFoundUrl: `https://${owner.slice(5)}.example.com/404`,
});

/** The former owner's links, as stored: a few kinds among them (ended with an expiredUrl, used up, taken down). */
function formerLink(index: number): Record<string, unknown> {
  const code = `a${String(index).padStart(5, '0')}`;
  const base = { code: `${name}/${code}`, domain: name, claimId: 'claim-a', isAlias: true, createdAt: new Date(nowMs - LINKS + index).toISOString(), clicks: 0, owner: 'acct:a' };
  if (index % 1000 === 1) return { ...base, deleted: true, expiredUrl: 'https://a.example.com/tombstone' };
  if (index % 1000 === 2) return { ...base, retired: true, maxClicks: 1, clicks: 1, expiredUrl: 'https://a.example.com/used' };
  if (index === 3) return { ...base, url: 'https://a.example.com/banned', disabled: true, disabledReason: 'phishing' };
  return { ...base, url: `https://a.example.com/${code}`, expiredUrl: 'https://a.example.com/ended', ttl: Math.floor(nowMs / 1000) + 86_400 };
}

async function seed(items: Array<Record<string, unknown>>): Promise<void> {
  for (let start = 0; start < items.length; start += 25) {
    let pending: Record<string, unknown> | undefined = { [linksTable]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) };
    while (pending && Object.keys(pending).length > 0) {
      const { UnprocessedItems } = await dynamo().send(new BatchWriteCommand({ RequestItems: pending as never }));
      pending = UnprocessedItems as Record<string, unknown> | undefined;
    }
  }
}

const visitor = () => ({ links, domains, flags: new FixedFlags(), usage: new MemoryUsageCounter() });
const visit = (code: string) => resolveVisit({ code, host: name, method: 'GET', client: '', previewBot: false, signals: { query: [] } }, visitor(), nowMs + 10 * MINUTE);

/** A sample of the former owner's codes: every kind, the first and the last. */
const formerSample = ['a00000', 'a00001', 'a00002', 'a00003', 'a02500', 'a04999'];
const newCodes = ['b00001', 'b00002', 'b00003'];

describe('a domain of 5,000 links removed and claimed by another account', () => {
  beforeAll(async () => {
    const former = claimOf('acct:a', 'claim-a');
    const done: unknown[] = [await domains.claim(former, null)];
    await seed(Array.from({ length: LINKS }, (_, index) => formerLink(index)));
    done.push(await domains.remove(former, nowMs), await domains.claim(claimOf('acct:b', 'claim-b'), null));
    for (const code of newCodes) {
      const link: LinkRecord = { code, domain: name, claimId: 'claim-b', url: `https://b.example.com/${code}`, isAlias: true, createdAt: new Date(nowMs + MINUTE).toISOString(), clicks: 0, owner: 'acct:b' };
      done.push(await links.createIfAbsent(link));
    }
    if (JSON.stringify(done) !== JSON.stringify(['claimed', true, 'claimed', true, true, true])) throw new Error(`setup went wrong: ${JSON.stringify(done)}`);
  }, 300_000);

  it('serves the new owner\'s links and none of the former owner\'s, from the moment the name is claimed again', async () => {
    for (const code of newCodes) expect(await visit(code)).toMatchObject({ kind: 'redirect', url: `https://b.example.com/${code}` });
    // Unknown codes to the new owner: its notFoundUrl, never its expiredUrl nor the former owner's.
    for (const code of formerSample) expect(await visit(code)).toEqual({ kind: 'fallback', url: 'https://b.example.com/404' });
  });

  it('lets the former owner manage none of them through the name, and the new owner none of the former\'s', async () => {
    const context = (owner: string): ManagementContext => ({
      caller: keyCaller({ keyId: `key_${owner}`, accountId: owner, owner: `acct:${owner}`, plan: 'PRO' }),
      author: { actor: { kind: 'key', keyId: `key_${owner}` } },
      flags: SAFE_DEFAULT_FLAGS,
      nowMs,
      shortBaseUrl: 'https://sho.rt',
      domain: name,
      holder: { owner: 'acct:b', claimId: 'claim-b' },
    });
    const deps = { links, safety: new ListSafetyChecker(), smartFields };
    for (const caller of ['a', 'b']) {
      await expect(viewLink('a02500', context(caller), deps)).rejects.toBeInstanceOf(LinkNotFound);
      await expect(editLink('a02500', { url: 'https://evil.example.com/' }, context(caller), deps)).rejects.toBeInstanceOf(LinkNotFound);
      await expect(deleteLink('a02500', context(caller), deps)).rejects.toBeInstanceOf(LinkNotFound);
    }
    // DynamoDB's own condition refuses a write under another claim, whoever asks.
    expect(await links.update(`${name}/a02500`, 'acct:a', { url: 'https://evil.example.com/' }, nowMs, { claimId: 'claim-b' })).toMatchObject({ done: false, current: { claimId: 'claim-a' } });
    expect(await links.markDeleted(`${name}/a02500`, 'acct:a', nowMs, { claimId: undefined })).toMatchObject({ done: false });
    await expect(viewLink('b00001', context('b'), deps)).resolves.toMatchObject({ url: 'https://b.example.com/b00001' });
    expect(await links.find(`${name}/a02500`)).toMatchObject({ url: `https://a.example.com/a02500` });
  });

  it('is cleaned up over bounded runs, each from the cursor the last stored, leaving bare tombstones and the new links', async () => {
    const attachments = new FixedAttachments();
    const failures: unknown[] = [];
    const deps = { domains, attachments, txt: new PublishedTxtRecords(), links, workFailed: (_domain: string, error: unknown) => failures.push(error) };
    const runs = [];
    const cursors: Array<string | undefined> = [];
    for (let run = 1; run <= 4; run += 1) {
      runs.push(await runDomainWork(nowMs + run * MINUTE, deps));
      cursors.push((await domains.dueCleanups(nowMs + (run + 1) * MINUTE, 10)).find((cleanup) => cleanup.domain === name)?.cursor);
    }
    expect(runs.map(({ linksExamined, cleanupsFinished }) => ({ linksExamined, cleanupsFinished }))).toEqual([
      { linksExamined: LINKS_EXAMINED_PER_RUN, cleanupsFinished: 0 },
      { linksExamined: LINKS_EXAMINED_PER_RUN, cleanupsFinished: 0 },
      { linksExamined: 1_000, cleanupsFinished: 1 },
      { linksExamined: 0, cleanupsFinished: 0 },
    ]);
    expect(failures).toEqual([]);
    // Everything but the operator's takedown was cleared, each link once.
    expect(runs.reduce((sum, done) => sum + done.linksDeleted, 0)).toBe(LINKS - 1);
    expect(cursors[0]).toEqual(expect.any(String));
    expect(cursors[1]).toEqual(expect.any(String));
    expect(cursors[1]).not.toBe(cursors[0]);
    expect(cursors.slice(2)).toEqual([undefined, undefined]);
    // The former claim's tenant goes; the new claim has one of its own.
    expect(attachments.detached).toEqual([`${name} claim-a`]);

    for (const code of ['a00000', 'a00001', 'a00002', 'a02500', 'a04999']) {
      const { Item: cleared } = await dynamo().send(new GetCommand({ TableName: linksTable, Key: { code: `${name}/${code}` } }));
      expect(cleared).toMatchObject({ deleted: true, owner: 'acct:a' });
      // Nothing for a visitor, nor a TTL that would free the code: a bare tombstone.
      for (const field of ['url', 'expiredUrl', 'ttl']) expect(cleared).not.toHaveProperty(field);
    }
    expect(await links.find(`${name}/a00003`)).toMatchObject({ disabled: true, url: 'https://a.example.com/banned' });
    for (const code of newCodes) expect(await links.find(`${name}/${code}`)).toMatchObject({ url: `https://b.example.com/${code}`, claimId: 'claim-b' });
    for (const code of newCodes) expect(await visit(code)).toMatchObject({ kind: 'redirect' });
    for (const code of formerSample) expect(await visit(code)).toEqual({ kind: 'fallback', url: 'https://b.example.com/404' });
  }, 300_000);
});

describe('a cleanup\'s progress as stored', () => {
  it('is kept between runs and replaced as a whole: a cursor, links cleared, failures', async () => {
    const record = { ...claimOf('acct:c', 'claim-c'), domain: `progress.acme${nowMs.toString(36)}.com` };
    await domains.claim(record, null);
    await domains.remove(record, nowMs);
    const stored = async () => (await domains.dueCleanups(nowMs + 10 * MINUTE, 100)).find((cleanup) => cleanup.domain === record.domain);
    const id = (await stored())?.id as string;
    await domains.postponeCleanup(id, nowMs + MINUTE, { cursor: '{"code":"x"}', failures: 2 });
    expect(await stored()).toMatchObject({ cursor: '{"code":"x"}', failures: 2 });
    expect((await domains.dueCleanups(nowMs, 100)).map((cleanup) => cleanup.domain)).not.toContain(record.domain);
    await domains.postponeCleanup(id, nowMs + MINUTE, { linksCleared: true });
    const cleared = await stored();
    expect(cleared).toMatchObject({ linksCleared: true });
    expect(cleared).not.toHaveProperty('cursor');
    expect(cleared).not.toHaveProperty('failures');
    // Postponed without progress, it keeps what it had.
    await domains.postponeCleanup(id, nowMs + 2 * MINUTE);
    expect(await stored()).toMatchObject({ linksCleared: true });
  });
});
