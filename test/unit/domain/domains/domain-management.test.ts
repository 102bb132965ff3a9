import type { ApiKeyCaller } from '../../../../functions/shared/domain/accounts/caller';
import { DomainInUse, DomainNotFound, InvalidRequest, PlanRequired } from '../../../../functions/shared/domain/errors';
import { addDomain, editDomain, listDomains, removeDomain, verifyDomain, viewDomain, type DomainContext } from '../../../../functions/shared/domain/domains/domain-management';
import { claimableDomain } from '../../../../functions/shared/domain/domains/domain-name';
import { runDomainWork } from '../../../../functions/shared/domain/domains/domain-work';
import { GIVE_UP_AFTER_MS, FIRST_DAY_MS, nextCheckAt } from '../../../../functions/shared/domain/domains/verification-schedule';
import { SAFE_DEFAULT_FLAGS } from '../../../../functions/shared/domain/limits/flags';
import type { Plan } from '../../../../functions/shared/domain/limits/plans';
import { OwnMessages } from '../../../../functions/shared/domain/messages';
import type { ManagedLinkStore } from '../../../../functions/shared/domain/ports';
import { FixedAttachments, ListSafetyChecker, MemoryDomainStore } from '../../../support/in-memory-ports';

const nowMs = Date.parse('2026-11-22T10:00:00.000Z');
const callerOn = (plan: Plan, account = 'a'): ApiKeyCaller => ({ kind: 'apiKey', keyId: `key_${account}`, accountId: account, owner: `acct:${account}`, plan });

function setup() {
  const domains = new MemoryDomainStore();
  const attachments = new FixedAttachments();
  const deps = { domains, attachments, safety: new ListSafetyChecker(['https://malware.example.com/']), claimable: () => Promise.resolve(claimableDomain) };
  const context = (plan: Plan = 'PRO', account = 'a', at = nowMs): DomainContext => ({ caller: callerOn(plan, account), flags: SAFE_DEFAULT_FLAGS, nowMs: at, ownHosts: ['sho.rt'] });
  return { domains, attachments, deps, context };
}

describe('adding a domain', () => {
  it('claims it pending, with the DNS record to create, and schedules its first check at once', async () => {
    const { deps, context, domains } = setup();
    expect(await addDomain({ domain: 'Go.Acme.com' }, context(), deps)).toEqual({
      domain: 'go.acme.com',
      status: 'pending',
      isDefault: false,
      dnsRecords: [{ type: 'CNAME', name: 'go.acme.com', value: 'edge.example.net' }],
      rootUrl: null,
      notFoundUrl: null,
      expiredUrl: null,
      createdAt: '2026-11-22T10:00:00.000Z',
      verifiedAt: null,
      statusReason: 'Waiting for the first check of its DNS record',
    });
    expect((await domains.find('go.acme.com'))?.nextCheckAt).toBe(nowMs);
  });

  it('gives a name to one account: another account, or the same one again, gets 409 without learning whose it is', async () => {
    const { deps, context } = setup();
    await addDomain({ domain: 'go.acme.com' }, context('PRO', 'a'), deps);
    await expect(addDomain({ domain: 'go.acme.com' }, context('PRO', 'b'), deps)).rejects.toThrow(new DomainInUse(OwnMessages.domainInUse));
    await expect(addDomain({ domain: 'GO.acme.com' }, context('PRO', 'a'), deps)).rejects.toThrow(new DomainInUse(OwnMessages.domainInUse));
  });

  it('follows the plans: none on FREE, one on INDIE, ten on PRO, any number on ENTERPRISE', async () => {
    const { deps, context } = setup();
    await expect(addDomain({ domain: 'go.free.com' }, context('FREE', 'f'), deps)).rejects.toMatchObject({ feature: 'customDomains', currentPlan: 'FREE', requiredPlan: 'INDIE' });
    await addDomain({ domain: 'go.indie.com' }, context('INDIE', 'i'), deps);
    const over = addDomain({ domain: 'links.indie.com' }, context('INDIE', 'i'), deps);
    await expect(over).rejects.toBeInstanceOf(PlanRequired);
    await expect(over).rejects.toThrow('The INDIE plan allows 1 custom domain; more require the PRO plan or higher.');
    for (let index = 0; index < 10; index += 1) await addDomain({ domain: `d${index}.pro.com` }, context('PRO', 'p'), deps);
    await expect(addDomain({ domain: 'd10.pro.com' }, context('PRO', 'p'), deps)).rejects.toMatchObject({ requiredPlan: 'ENTERPRISE' });
    for (let index = 0; index < 12; index += 1) await addDomain({ domain: `d${index}.big.com` }, context('ENTERPRISE', 'e'), deps);
  });

  it('is refused while the customDomains flag is off, as every domain route is', async () => {
    const { deps, context } = setup();
    const off = { ...context(), flags: { ...SAFE_DEFAULT_FLAGS, customDomains: false } };
    await expect(addDomain({ domain: 'go.acme.com' }, off, deps)).rejects.toThrow(new InvalidRequest(OwnMessages.domainsDisabled));
    await expect(listDomains(off, deps)).rejects.toThrow(OwnMessages.domainsDisabled);
  });
});

describe("an account's domains", () => {
  it('are its own: another account\'s domain and no domain answer the same 404', async () => {
    const { deps, context } = setup();
    await addDomain({ domain: 'go.acme.com' }, context('PRO', 'a'), deps);
    for (const attempt of [
      viewDomain('go.acme.com', context('PRO', 'b'), deps),
      editDomain('go.acme.com', { rootUrl: 'https://evil.example.com/' }, context('PRO', 'b'), deps),
      removeDomain('go.acme.com', context('PRO', 'b'), deps),
      verifyDomain('go.acme.com', context('PRO', 'b'), deps),
      viewDomain('nothing.example.com', context('PRO', 'a'), deps),
      viewDomain('not a name', context('PRO', 'a'), deps),
    ]) {
      await expect(attempt).rejects.toThrow(new DomainNotFound(OwnMessages.domainNotFound));
    }
    expect((await listDomains(context('PRO', 'b'), deps)).domains).toEqual([]);
  });

  it('take URLs under the destination rules and the safety check, and null removes one', async () => {
    const { deps, context } = setup();
    await addDomain({ domain: 'go.acme.com' }, context(), deps);
    expect(await editDomain('go.acme.com', { rootUrl: 'https://acme.com/', notFoundUrl: 'https://acme.com/404' }, context(), deps)).toMatchObject({ rootUrl: 'https://acme.com/', notFoundUrl: 'https://acme.com/404' });
    expect(await editDomain('go.acme.com', { rootUrl: null }, context(), deps)).toMatchObject({ rootUrl: null, notFoundUrl: 'https://acme.com/404' });
    await expect(editDomain('go.acme.com', { expiredUrl: 'http://127.0.0.1/' }, context(), deps)).rejects.toThrow(OwnMessages.domainUrl('expiredUrl'));
    await expect(editDomain('go.acme.com', { rootUrl: 'https://malware.example.com/' }, context(), deps)).rejects.toThrow(OwnMessages.domainUrlUnsafe('rootUrl'));
    await expect(editDomain('go.acme.com', {}, context(), deps)).rejects.toThrow(OwnMessages.domainPatchEmpty);
    await expect(editDomain('go.acme.com', { isDefault: 'yes' }, context(), deps)).rejects.toThrow(OwnMessages.domainFieldType('isDefault'));
  });

  it('has at most one default, and only an active domain can be it', async () => {
    const { deps, context, attachments } = setup();
    for (const domain of ['one.acme.com', 'two.acme.com']) await addDomain({ domain }, context(), deps);
    await expect(editDomain('one.acme.com', { isDefault: true }, context(), deps)).rejects.toThrow(OwnMessages.domainNotUsable('one.acme.com'));
    attachments.serving.add('one.acme.com').add('two.acme.com');
    await verifyDomain('one.acme.com', context(), deps);
    await verifyDomain('two.acme.com', context(), deps);
    await editDomain('one.acme.com', { isDefault: true }, context(), deps);
    await editDomain('two.acme.com', { isDefault: true }, context(), deps);
    expect((await listDomains(context(), deps)).domains.map((domain) => [domain.domain, domain.isDefault])).toEqual([
      ['one.acme.com', false],
      ['two.acme.com', true],
    ]);
    expect(await deps.domains.defaultOf('acct:a')).toBe('two.acme.com');
  });
});

describe('verification', () => {
  it('makes a domain active once it serves, recording each status change with its time', async () => {
    const { deps, context, attachments, domains } = setup();
    await addDomain({ domain: 'go.acme.com' }, context(), deps);
    expect(await verifyDomain('go.acme.com', context('PRO', 'a', nowMs + 1000), deps)).toMatchObject({ status: 'pending', statusReason: 'go.acme.com does not resolve yet' });
    attachments.serving.add('go.acme.com');
    expect(await verifyDomain('go.acme.com', context('PRO', 'a', nowMs + 2000), deps)).toMatchObject({ status: 'active', verifiedAt: '2026-11-22T10:00:02.000Z', statusReason: null });
    const record = await domains.find('go.acme.com');
    expect(record?.history.map((change) => [change.status, change.at])).toEqual([
      ['pending', '2026-11-22T10:00:00.000Z'],
      ['active', '2026-11-22T10:00:02.000Z'],
    ]);
    expect(record?.nextCheckAt).toBeUndefined();
  });

  it('checks a pending domain every 5 minutes for a day, then hourly, and gives up after 7 days until re-verified', async () => {
    expect(nextCheckAt(nowMs, nowMs + 60_000)).toBe(nowMs + 60_000 + 5 * 60_000);
    expect(nextCheckAt(nowMs, nowMs + FIRST_DAY_MS)).toBe(nowMs + FIRST_DAY_MS + 60 * 60_000);

    const { deps, context, attachments, domains } = setup();
    await addDomain({ domain: 'go.acme.com' }, context(), deps);
    const links = { keysOnDomain: async () => ({ keys: [], examined: 0 }), clearOfRemovedDomain: async () => false } as unknown as ManagedLinkStore;
    const work = (at: number) => runDomainWork(at, { domains, attachments, links });
    expect(await work(nowMs)).toMatchObject({ checked: 1 });
    expect(await work(nowMs + 60_000)).toMatchObject({ checked: 0 });
    expect((await domains.find('go.acme.com'))?.nextCheckAt).toBe(nowMs + 5 * 60_000);
    expect(await work(nowMs + GIVE_UP_AFTER_MS)).toMatchObject({ checked: 1 });
    const failed = await domains.find('go.acme.com');
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed?.statusReason).toMatch(/^Not verified after 7 days of checks/);
    expect(failed?.nextCheckAt).toBeUndefined();

    // Re-verifying starts a new round: still not resolving, it is pending again with a fresh schedule.
    const later = nowMs + GIVE_UP_AFTER_MS + 1000;
    expect(await verifyDomain('go.acme.com', context('PRO', 'a', later), deps)).toMatchObject({ status: 'pending' });
    expect((await domains.find('go.acme.com'))?.nextCheckAt).toBe(later + 5 * 60_000);
    attachments.serving.add('go.acme.com');
    expect(await work(later + 5 * 60_000)).toMatchObject({ checked: 1 });
    expect(await domains.find('go.acme.com')).toMatchObject({ status: 'active' });
  });

  it('leaves a disabled domain as the operator left it', async () => {
    const { deps, context, attachments, domains } = setup();
    await addDomain({ domain: 'go.acme.com' }, context(), deps);
    await domains.transition('go.acme.com', { from: ['pending'], change: { status: 'disabled', at: '2026-11-22T10:00:01.000Z', reason: 'abuse' }, nextCheckAt: null });
    attachments.serving.add('go.acme.com');
    expect(await verifyDomain('go.acme.com', context(), deps)).toMatchObject({ status: 'disabled', statusReason: 'abuse' });
    expect(attachments.checks).toBe(0);
  });
});

describe('removing a domain', () => {
  it('frees the name at once, then deletes the former owner\'s links made before, and detaches it', async () => {
    const { deps, context, attachments, domains } = setup();
    await addDomain({ domain: 'go.acme.com' }, context(), deps);
    await removeDomain('go.acme.com', context(), deps);
    await expect(viewDomain('go.acme.com', context(), deps)).rejects.toBeInstanceOf(DomainNotFound);
    const asked: Array<[string, string, string]> = [];
    const deleted: string[] = [];
    const links = {
      keysOnDomain: async (domain: string, owner: string, upTo: string) => {
        asked.push([domain, owner, upTo]);
        return { keys: ['go.acme.com/a', 'go.acme.com/b'], examined: 3 };
      },
      clearOfRemovedDomain: async (key: string) => {
        deleted.push(key);
        return key.endsWith('/a');
      },
    } as unknown as ManagedLinkStore;
    expect(await runDomainWork(nowMs + 1000, { domains, attachments, links })).toEqual({ checked: 0, linksExamined: 3, linksDeleted: 1, cleanupsFinished: 1, cleanupsFailed: [] });
    expect(asked).toEqual([['go.acme.com', 'acct:a', '2026-11-22T10:00:00.000Z']]);
    expect(deleted).toEqual(['go.acme.com/a', 'go.acme.com/b']);
    expect(attachments.detached).toEqual(['go.acme.com']);
    expect(await runDomainWork(nowMs + 2000, { domains, attachments, links })).toEqual({ checked: 0, linksExamined: 0, linksDeleted: 0, cleanupsFinished: 0, cleanupsFailed: [] });
    // Claimed again at once by anyone.
    await addDomain({ domain: 'go.acme.com' }, context('PRO', 'b'), deps);
  });

  it('keeps the tenant when the name was claimed again before the cleanup ran', async () => {
    const { deps, context, attachments, domains } = setup();
    await addDomain({ domain: 'go.acme.com' }, context('PRO', 'a'), deps);
    await removeDomain('go.acme.com', context('PRO', 'a'), deps);
    await addDomain({ domain: 'go.acme.com' }, context('PRO', 'b'), deps);
    const links = { keysOnDomain: async () => ({ keys: [], examined: 0 }), clearOfRemovedDomain: async () => true } as unknown as ManagedLinkStore;
    await runDomainWork(nowMs + 1000, { domains, attachments, links });
    expect(attachments.detached).toEqual([]);
  });
});
