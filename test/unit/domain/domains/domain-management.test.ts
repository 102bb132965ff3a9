import type { ApiKeyCaller } from '../../../../functions/shared/domain/accounts/caller';
import { DomainCheckedRecently, DomainDisabled, DomainInUse, DomainNotFound, InvalidRequest, PlanRequired } from '../../../../functions/shared/domain/errors';
import { addDomain, editDomain, HOLD_AFTER_REMOVAL_MS, listDomains, removeDomain, verifyDomain, viewDomain, type DomainContext } from '../../../../functions/shared/domain/domains/domain-management';
import { disableDomain, releaseDomain } from '../../../../functions/shared/domain/domains/domain-takedown';
import { claimableDomain } from '../../../../functions/shared/domain/domains/domain-name';
import { runDomainWork } from '../../../../functions/shared/domain/domains/domain-work';
import { GIVE_UP_AFTER_MS, FIRST_DAY_MS, nextCheckAt } from '../../../../functions/shared/domain/domains/verification-schedule';
import { SAFE_DEFAULT_FLAGS } from '../../../../functions/shared/domain/limits/flags';
import type { Plan } from '../../../../functions/shared/domain/limits/plans';
import { OwnMessages } from '../../../../functions/shared/domain/messages';
import type { ManagedLinkStore } from '../../../../functions/shared/domain/ports';
import { FixedAttachments, ListSafetyChecker, MemoryDomainStore, PublishedTxtRecords } from '../../../support/in-memory-ports';
import { keyCaller } from '../../../support/callers';

const nowMs = Date.parse('2026-11-22T10:00:00.000Z');
const callerOn = (plan: Plan, account = 'a'): ApiKeyCaller => keyCaller({ keyId: `key_${account}`, accountId: account, owner: `acct:${account}`, plan });

const noLinks = { keysOnDomain: async () => ({ keys: [], examined: 0 }), clearOfRemovedDomain: async () => false } as unknown as ManagedLinkStore;

function setup() {
  const domains = new MemoryDomainStore();
  const attachments = new FixedAttachments();
  const txt = new PublishedTxtRecords();
  const deps = { domains, attachments, txt, safety: new ListSafetyChecker(['https://malware.example.com/']), claimable: () => Promise.resolve(claimableDomain) };
  const context = (plan: Plan = 'PRO', account = 'a', at = nowMs): DomainContext => ({ caller: callerOn(plan, account), author: { actor: { kind: 'key', keyId: `key_${account}` }, requestId: 'req-1' }, flags: SAFE_DEFAULT_FLAGS, nowMs: at, ownHosts: ['sho.rt'] });
  /** The owner publishes the TXT record their claim asks for. */
  const prove = async (domain: string) => {
    const challenge = (await domains.find(domain))?.dnsRecords.find((record) => record.type === 'TXT');
    if (challenge) txt.publish(challenge.name, challenge.value);
  };
  const workFailures: string[] = [];
  const work = (at: number, links: ManagedLinkStore = noLinks) => runDomainWork(at, { domains, attachments, txt, links, workFailed: (domain) => workFailures.push(domain) });
  return { domains, attachments, txt, deps, context, prove, work, workFailures };
}

describe('adding a domain', () => {
  it('claims it pending, with its own TXT challenge beside the CNAME, and schedules its first check at once', async () => {
    const { deps, context, domains } = setup();
    const view = await addDomain({ domain: 'Go.Acme.com' }, context(), deps);
    const claimId = (await domains.find('go.acme.com'))?.claimId;
    expect(claimId).toMatch(/^[0-9a-f]{32}$/);
    expect(view).toEqual({
      domain: 'go.acme.com',
      status: 'pending',
      isDefault: false,
      dnsRecords: [
        { type: 'TXT', name: '_shortener-challenge.go.acme.com', value: `shortener-verification=${claimId}` },
        { type: 'CNAME', name: 'go.acme.com', value: 'edge.example.net' },
      ],
      rootUrl: null,
      notFoundUrl: null,
      expiredUrl: null,
      createdAt: '2026-11-22T10:00:00.000Z',
      verifiedAt: null,
      statusReason: 'Waiting for the first check of its DNS records',
    });
    expect((await domains.find('go.acme.com'))?.nextCheckAt).toBe(nowMs);
    // Every claim gets a value of its own: nobody can publish it before the claim exists.
    await addDomain({ domain: 'two.acme.com' }, context(), deps);
    expect((await domains.find('two.acme.com'))?.claimId).not.toBe(claimId);
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
    const { deps, context, attachments, prove } = setup();
    for (const domain of ['one.acme.com', 'two.acme.com']) {
      await addDomain({ domain }, context(), deps);
      await prove(domain);
    }
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
    const { deps, context, attachments, domains, prove } = setup();
    await addDomain({ domain: 'go.acme.com' }, context(), deps);
    await prove('go.acme.com');
    expect(await verifyDomain('go.acme.com', context('PRO', 'a', nowMs + 1000), deps)).toMatchObject({ status: 'pending', statusReason: 'go.acme.com does not resolve yet' });
    attachments.serving.add('go.acme.com');
    expect(await verifyDomain('go.acme.com', context('PRO', 'a', nowMs + 61_000), deps)).toMatchObject({ status: 'active', verifiedAt: '2026-11-22T10:01:01.000Z', statusReason: null });
    const record = await domains.find('go.acme.com');
    expect(record?.history.map((change) => [change.status, change.at])).toEqual([
      ['pending', '2026-11-22T10:00:00.000Z'],
      ['active', '2026-11-22T10:01:01.000Z'],
    ]);
    expect(record?.nextCheckAt).toBeUndefined();
  });

  it('makes no tenant and no active domain until the claim\'s own TXT record is published', async () => {
    const { deps, context, attachments, domains, txt, work } = setup();
    await addDomain({ domain: 'go.acme.com' }, context(), deps);
    // The CNAME alone (a former customer's dangling one) serves: it proves nothing.
    attachments.serving.add('go.acme.com');
    txt.publish('_shortener-challenge.go.acme.com', 'shortener-verification=0123456789abcdef0123456789abcdef');
    txt.publish('_shortener-challenge.go.acme.com', 'something else');
    await work(nowMs);
    const record = await domains.find('go.acme.com');
    expect(record).toMatchObject({ status: 'pending', statusReason: `The TXT record _shortener-challenge.go.acme.com does not hold shortener-verification=${record?.claimId} yet` });
    expect(attachments.checks).toBe(0);
    txt.publish('_shortener-challenge.go.acme.com', `"shortener-verification=${record?.claimId}"`);
    await work(nowMs + 5 * 60_000);
    expect(await domains.find('go.acme.com')).toMatchObject({ status: 'active' });
    expect(attachments.checked).toEqual([`go.acme.com ${record?.claimId}`]);
  });

  it('leaves a claim made before challenges pending, saying how to get one, with no tenant made', async () => {
    const { deps, context, attachments, domains } = setup();
    await addDomain({ domain: 'old.acme.com' }, context(), deps);
    delete domains.domains.get('old.acme.com')?.claimId;
    attachments.serving.add('old.acme.com');
    expect(await verifyDomain('old.acme.com', context(), deps)).toMatchObject({ status: 'pending', statusReason: expect.stringContaining('remove the domain and add it again') });
    expect(attachments.checks).toBe(0);
  });

  it('checks on request at most once a minute per domain: more is refused with the seconds to wait', async () => {
    const { deps, context, attachments, prove } = setup();
    for (const domain of ['go.acme.com', 'two.acme.com']) {
      await addDomain({ domain }, context(), deps);
      await prove(domain);
    }
    await verifyDomain('go.acme.com', context('PRO', 'a', nowMs), deps);
    await expect(verifyDomain('go.acme.com', context('PRO', 'a', nowMs + 15_000), deps)).rejects.toEqual(new DomainCheckedRecently(45));
    await expect(verifyDomain('go.acme.com', context('PRO', 'a', nowMs + 59_001), deps)).rejects.toMatchObject({ retryAfterSeconds: 1 });
    // Another domain has its own minute; the refused calls reached no CloudFront.
    await verifyDomain('two.acme.com', context('PRO', 'a', nowMs + 15_000), deps);
    expect(attachments.checks).toBe(2);
    await verifyDomain('go.acme.com', context('PRO', 'a', nowMs + 60_000), deps);
    expect(attachments.checks).toBe(3);
  });

  it('catches one domain\'s failing check: the run goes on, the domain says why and waits for its schedule', async () => {
    const { deps, context, attachments, domains, prove, work, workFailures } = setup();
    for (const domain of ['bad.acme.com', 'good.acme.com']) {
      await addDomain({ domain }, context(), deps);
      await prove(domain);
    }
    attachments.failing.add('bad.acme.com');
    attachments.serving.add('good.acme.com');
    expect(await work(nowMs)).toMatchObject({ checked: 2 });
    expect(await domains.find('good.acme.com')).toMatchObject({ status: 'active' });
    expect(await domains.find('bad.acme.com')).toMatchObject({ status: 'pending', statusReason: 'The check could not finish; it is tried again later', nextCheckAt: nowMs + 5 * 60_000 });
    expect(workFailures).toEqual(['bad.acme.com']);
    expect(await work(nowMs + 60_000)).toMatchObject({ checked: 0 });
  });

  it('checks a pending domain every 5 minutes for a day, then hourly, and gives up after 7 days until re-verified', async () => {
    expect(nextCheckAt(nowMs, nowMs + 60_000)).toBe(nowMs + 60_000 + 5 * 60_000);
    expect(nextCheckAt(nowMs, nowMs + FIRST_DAY_MS)).toBe(nowMs + FIRST_DAY_MS + 60 * 60_000);

    const { deps, context, attachments, domains, prove, work } = setup();
    await addDomain({ domain: 'go.acme.com' }, context(), deps);
    await prove('go.acme.com');
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
    const { deps, context, attachments, domains, prove } = setup();
    await addDomain({ domain: 'go.acme.com' }, context(), deps);
    await prove('go.acme.com');
    await domains.transition('go.acme.com', { from: ['pending'], change: { status: 'disabled', at: '2026-11-22T10:00:01.000Z', reason: 'abuse' }, nextCheckAt: null });
    attachments.serving.add('go.acme.com');
    expect(await verifyDomain('go.acme.com', context(), deps)).toMatchObject({ status: 'disabled', statusReason: 'abuse' });
    expect(attachments.checks).toBe(0);
  });
});

/** A domain of account `a` made active: claimed, proven, checked. */
async function activeDomain(env: ReturnType<typeof setup>, domain = 'go.acme.com', account = 'a') {
  await addDomain({ domain }, env.context('PRO', account), env.deps);
  await env.prove(domain);
  env.attachments.serving.add(domain);
  await env.work(nowMs);
  expect(await env.domains.find(domain)).toMatchObject({ status: 'active' });
}

describe('removing a domain', () => {
  it('deletes the former owner\'s links made before, and removes that claim\'s tenant', async () => {
    const env = setup();
    const { deps, context, attachments, domains } = env;
    await activeDomain(env);
    const claimId = (await domains.find('go.acme.com'))?.claimId;
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
    expect(await env.work(nowMs + 1000, links)).toEqual({ checked: 0, linksExamined: 3, linksDeleted: 1, cleanupsFinished: 1 });
    expect(asked).toEqual([['go.acme.com', 'acct:a', '2026-11-22T10:00:00.000Z']]);
    expect(deleted).toEqual(['go.acme.com/a', 'go.acme.com/b']);
    expect(attachments.detached).toEqual([`go.acme.com ${claimId}`]);
    expect(await env.work(nowMs + 2000, links)).toEqual({ checked: 0, linksExamined: 0, linksDeleted: 0, cleanupsFinished: 0 });
  });

  it('holds a verified name for its former owner for 7 days: another account gets 409, the owner claims it again', async () => {
    const env = setup();
    const { deps, context, domains } = env;
    await activeDomain(env);
    const formerClaim = (await domains.find('go.acme.com'))?.claimId;
    await removeDomain('go.acme.com', context(), deps);
    const someoneElse = context('PRO', 'b', nowMs + HOLD_AFTER_REMOVAL_MS - 1);
    await expect(addDomain({ domain: 'go.acme.com' }, someoneElse, deps)).rejects.toThrow(new DomainInUse(OwnMessages.domainInUse));
    // The former owner's new claim is a new claim: a new TXT value, a new tenant, nothing of the old one.
    const again = await addDomain({ domain: 'go.acme.com' }, context('PRO', 'a', nowMs + 1000), deps);
    const claimId = (await domains.find('go.acme.com'))?.claimId;
    expect(claimId).not.toBe(formerClaim);
    expect(again.dnsRecords[0]).toEqual({ type: 'TXT', name: '_shortener-challenge.go.acme.com', value: `shortener-verification=${claimId}` });
    expect(again.status).toBe('pending');
  });

  it('frees a held name for everyone after 7 days, or at once when an operator releases it', async () => {
    const env = setup();
    await activeDomain(env);
    await removeDomain('go.acme.com', env.context(), env.deps);
    await addDomain({ domain: 'go.acme.com' }, env.context('PRO', 'b', nowMs + HOLD_AFTER_REMOVAL_MS), env.deps);

    await activeDomain(env, 'two.acme.com');
    await removeDomain('two.acme.com', env.context(), env.deps);
    expect(await releaseDomain('two.acme.com', nowMs, env.domains)).toBe('holdEnded');
    await addDomain({ domain: 'two.acme.com' }, env.context('PRO', 'b', nowMs + 1000), env.deps);
    expect(await releaseDomain('nothing.acme.com', nowMs, env.domains)).toBe('nothing');
  });

  it('frees a name never verified at once: a squatter\'s removed claim holds nothing', async () => {
    const { deps, context, domains } = setup();
    await addDomain({ domain: 'go.acme.com' }, context('PRO', 'squatter'), deps);
    await removeDomain('go.acme.com', context('PRO', 'squatter'), deps);
    expect(await domains.holdOf('go.acme.com')).toBeUndefined();
    await addDomain({ domain: 'go.acme.com' }, context('PRO', 'brand'), deps);
    expect(await domains.find('go.acme.com')).toMatchObject({ owner: 'acct:brand' });
  });

  it('goes on with the other cleanups when one cannot remove its tenant, which waits a turn', async () => {
    const env = setup();
    for (const domain of ['bad.acme.com', 'good.acme.com']) await activeDomain(env, domain);
    for (const domain of ['bad.acme.com', 'good.acme.com']) await removeDomain(domain, env.context(), env.deps);
    const detach = env.attachments.detach.bind(env.attachments);
    env.attachments.detach = async (domain, claimId) => {
      if (domain === 'bad.acme.com') throw new Error('PreconditionFailed');
      return detach(domain, claimId);
    };
    expect(await env.work(nowMs + 1000)).toMatchObject({ cleanupsFinished: 1 });
    expect(env.workFailures).toEqual(['bad.acme.com']);
    expect(env.domains.cleanups.map((cleanup) => cleanup.domain)).toEqual(['bad.acme.com']);
  });

  it('removes the former claim\'s tenant even when the name is claimed again before the cleanup runs', async () => {
    const env = setup();
    await activeDomain(env);
    const formerClaim = (await env.domains.find('go.acme.com'))?.claimId;
    await removeDomain('go.acme.com', env.context('PRO', 'a'), env.deps);
    await addDomain({ domain: 'go.acme.com' }, env.context('PRO', 'a'), env.deps);
    await env.work(nowMs + 1000);
    expect(env.attachments.detached).toEqual([`go.acme.com ${formerClaim}`]);
  });
});

describe('claims that never verify', () => {
  it('fail after 7 days, and a failed claim is free: another account takes it, the first gets its count back', async () => {
    const env = setup();
    await addDomain({ domain: 'go.acme.com' }, env.context('INDIE', 'squatter'), env.deps);
    await env.work(nowMs);
    await env.work(nowMs + GIVE_UP_AFTER_MS);
    expect(await env.domains.find('go.acme.com')).toMatchObject({ status: 'failed', owner: 'acct:squatter' });
    const later = nowMs + GIVE_UP_AFTER_MS + 1000;
    await addDomain({ domain: 'go.acme.com' }, env.context('PRO', 'brand', later), env.deps);
    expect(await env.domains.find('go.acme.com')).toMatchObject({ status: 'pending', owner: 'acct:brand' });
    expect(env.domains.cleanups.map((cleanup) => cleanup.formerOwner)).toEqual(['acct:squatter']);
    // The squatter's INDIE allowance of one is free again.
    await addDomain({ domain: 'other.squatter.com' }, env.context('INDIE', 'squatter', later), env.deps);
  });
});

describe("an operator's takedown", () => {
  it('cannot be undone by its owner: DELETE is refused (409) and the name stays blocked for everyone', async () => {
    const env = setup();
    await activeDomain(env);
    await disableDomain('go.acme.com', 'phishing', nowMs, env.domains);
    await expect(removeDomain('go.acme.com', env.context(), env.deps)).rejects.toThrow(new DomainDisabled(OwnMessages.domainDisabled));
    for (const account of ['a', 'b']) await expect(addDomain({ domain: 'go.acme.com' }, env.context('PRO', account), env.deps)).rejects.toBeInstanceOf(DomainInUse);
    expect(await env.domains.find('go.acme.com')).toMatchObject({ status: 'disabled' });
  });

  it('is lifted only by an operator\'s release, which frees the name with no hold', async () => {
    const env = setup();
    await activeDomain(env);
    await disableDomain('go.acme.com', 'phishing', nowMs, env.domains);
    expect(await releaseDomain('go.acme.com', nowMs, env.domains)).toBe('claimRemoved');
    await addDomain({ domain: 'go.acme.com' }, env.context('PRO', 'b'), env.deps);
  });
});
