import { AliasTaken, InvalidRequest, PlanRequired, SafetyCheckUnavailable } from '../../../../functions/shared/domain/errors';
import { SAFE_DEFAULT_FLAGS, type Flags } from '../../../../functions/shared/domain/limits/flags';
import { createLinks, type CreationContext, type CreationOutcome } from '../../../../functions/shared/domain/links/link-creation';
import { Messages, OwnMessages } from '../../../../functions/shared/domain/messages';
import { verifyPassword } from '../../../../functions/shared/domain/links/password';
import type { Caller } from '../../../../functions/shared/domain/accounts/caller';
import { ListSafetyChecker, MemoryAliasOverrides, MemoryDomainStore, MemoryLinkStore, smartFields } from '../../../support/in-memory-ports';
import { keyCaller } from '../../../support/callers';

const nowMs = Date.parse('2026-11-22T10:00:00.000Z');
const pro: Caller = keyCaller({ keyId: 'key_pro', accountId: 'acct_pro', owner: 'acct:acct_pro', plan: 'PRO' });
const free: Caller = keyCaller({ keyId: 'key_free', accountId: 'acct_free', owner: 'acct:acct_free', plan: 'FREE' });

function setup(options: { caller?: Caller; flags?: Partial<Flags>; unsafe?: string[]; overrides?: Array<[string, string]> } = {}) {
  const links = new MemoryLinkStore();
  const safety = new ListSafetyChecker(options.unsafe);
  const context: CreationContext = {
    caller: options.caller ?? pro,
    flags: { ...SAFE_DEFAULT_FLAGS, ...options.flags },
    nowMs,
    shortBaseUrl: 'https://sho.rt/',
  };
  const domains = new MemoryDomainStore();
  const create = (...items: unknown[]) => createLinks(items, context, { links, safety, aliasOverrides: new MemoryAliasOverrides(options.overrides), domains, smartFields });
  return { links, safety, create, domains };
}

function failure(outcome: CreationOutcome | undefined): Error {
  if (!outcome || outcome.ok) throw new Error('expected a failure');
  return outcome.error;
}

describe('creating a link', () => {
  it('answers with the spec 2.2 fields, optional ones only when requested', async () => {
    const { create } = setup();
    const [plain] = await create({ url: 'https://example.com/a' });
    expect(plain).toEqual({
      ok: true,
      link: { shortUrl: expect.stringMatching(/^https:\/\/sho\.rt\/[A-Za-z0-9]{7}$/), shortCode: expect.any(String), url: 'https://example.com/a', createdAt: '2026-11-22T10:00:00.000Z' },
    });
    const [full] = await create({ url: 'https://example.com/b', alias: 'my-alias', expiresIn: 90, maxClicks: 3 });
    expect(full).toEqual({
      ok: true,
      link: {
        shortUrl: 'https://sho.rt/my-alias',
        shortCode: 'my-alias',
        url: 'https://example.com/b',
        alias: 'my-alias',
        expiresAt: '2026-11-22T10:01:30.000Z',
        maxClicks: 3,
        createdAt: '2026-11-22T10:00:00.000Z',
      },
    });
  });

  it('stores the password only as a salted scrypt hash', async () => {
    const { create, links } = setup();
    await create({ url: 'https://example.com', alias: 'secret-link', password: 'hunter22' });
    const stored = links.links.get('secret-link');
    expect(stored?.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(stored)).not.toContain('hunter22');
    expect(await verifyPassword('hunter22', stored?.passwordHash ?? '')).toBe(true);
    expect(await verifyPassword('hunter23', stored?.passwordHash ?? '')).toBe(false);
  });

  it('refuses a taken alias', async () => {
    const { create } = setup();
    await create({ url: 'https://example.com', alias: 'taken' });
    const error = failure((await create({ url: 'https://example.com', alias: 'taken' }))[0]);
    expect(error).toBeInstanceOf(AliasTaken);
    expect(error.message).toBe(Messages.aliasTaken);
  });

  it('retries a generated code that collides instead of overwriting', async () => {
    const { create, links } = setup();
    const realCreate = links.createIfAbsent.bind(links);
    let collisions = 2;
    links.createIfAbsent = async (link) => (collisions-- > 0 ? false : realCreate(link));
    const [outcome] = await create({ url: 'https://example.com' });
    expect(outcome?.ok).toBe(true);
    expect(links.writes).toBe(1);
  });

  it('refuses reserved aliases in any case, unless an operator allowed them for this key', async () => {
    const { create } = setup({ overrides: [['Admin', 'key_pro']] });
    for (const alias of ['api', 'HEALTH', 'App', 'login-now', 'verify-account', 'PayPal-refund']) {
      expect(failure((await create({ url: 'https://example.com', alias }))[0]).message).toBe(Messages.aliasReserved);
    }
    expect((await create({ url: 'https://example.com', alias: 'admin' }))[0]?.ok).toBe(true);
  });

  it('refuses URLs the safety check flags, checking all URLs of a call in one lookup', async () => {
    const { create, safety } = setup({ unsafe: ['https://bad.example.com.com/'] });
    const outcomes = await create({ url: 'https://bad.example.com.com/' }, { url: 'https://good.example.com.com/' }, { url: 'https://good.example.com.com/' });
    expect(failure(outcomes[0]).message).toBe(Messages.unsafeUrl);
    expect(outcomes[1]?.ok).toBe(true);
    expect(safety.calls).toEqual([['https://bad.example.com.com/', 'https://good.example.com.com/']]);
  });

  it('refuses a look-alike host as unsafe without asking the safety check, and stores Unicode destinations as ASCII', async () => {
    const { create, safety, links } = setup();
    const [homograph, german] = await create({ url: 'https://аpple.com/' }, { url: 'https://münchen.de/über' });
    expect(failure(homograph).message).toBe(Messages.unsafeUrl);
    expect(safety.calls).toEqual([['https://xn--mnchen-3ya.de/%C3%BCber']]);
    expect(german).toMatchObject({ ok: true, link: { url: 'https://xn--mnchen-3ya.de/%C3%BCber' } });
    expect([...links.links.values()].map((link) => link.url)).toEqual(['https://xn--mnchen-3ya.de/%C3%BCber']);
  });

  it('lets an unavailable safety check fail the whole call, so the handler answers 503', async () => {
    const { create, safety } = setup();
    safety.findUnsafe = () => Promise.reject(new SafetyCheckUnavailable(OwnMessages.safetyUnavailable));
    await expect(create({ url: 'https://example.com/' })).rejects.toBeInstanceOf(SafetyCheckUnavailable);
  });

  it.each([
    ['customAliases', { alias: 'abc' }, Messages.aliasesDisabled],
    ['passwordProtection', { password: 'abcd' }, Messages.passwordsDisabled],
    ['expiration', { expiresIn: 60 }, Messages.expirationDisabled],
  ] as const)('refuses a feature whose flag %s is off with its spec message', async (flag, fields, message) => {
    const { create } = setup({ flags: { [flag]: false } });
    const error = failure((await create({ url: 'https://example.com', ...fields }))[0]);
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error.message).toBe(message);
  });

  it('refuses everything when shortening is off, before reading any item', async () => {
    const { create } = setup({ flags: { shortening: false } });
    await expect(create({ url: 'nope' })).rejects.toThrow(Messages.shorteningDisabled);
  });

  it.each([
    [{ alias: 'abc' }, 'customAliases'],
    [{ password: 'abcd' }, 'passwordProtection'],
    [{ maxClicks: 5 }, 'clickLimits'],
  ])('refuses %j on the FREE plan as %s', async (fields, feature) => {
    const { create } = setup({ caller: free });
    const error = failure((await create({ url: 'https://example.com', ...fields }))[0]);
    expect(error).toBeInstanceOf(PlanRequired);
    expect(error).toMatchObject({ feature, currentPlan: 'FREE' });
  });

  it('lets FREE set an expiry, and anonymous v1 callers are FREE', async () => {
    expect((await setup({ caller: free }).create({ url: 'https://example.com', expiresIn: 60 }))[0]?.ok).toBe(true);
    const anonymous = setup({ caller: { kind: 'anonymous', client: '1.2.3.4' } });
    expect(failure((await anonymous.create({ url: 'https://example.com', alias: 'abc' }))[0])).toBeInstanceOf(PlanRequired);
  });

  it('checks in spec order: validation, flags, plan, safety, alias', async () => {
    const { create } = setup({ caller: free, flags: { customAliases: false }, unsafe: ['https://bad.example.com.com/'] });
    expect(failure((await create({ url: 'https://bad.example.com.com/', alias: 'x' }))[0]).message).toBe(Messages.aliasLength);
    expect(failure((await create({ url: 'https://bad.example.com.com/', alias: 'api' }))[0]).message).toBe(Messages.aliasesDisabled);
    expect(failure((await create({ url: 'https://bad.example.com.com/', password: 'abcd' }))[0])).toBeInstanceOf(PlanRequired);
    expect(failure((await create({ url: 'https://bad.example.com.com/', expiresIn: 60 }))[0]).message).toBe(Messages.unsafeUrl);
  });

  it('gives the first of two items asking for one alias the alias, and the second "taken"', async () => {
    const { create } = setup();
    const [first, second] = await create({ url: 'https://example.com/1', alias: 'twice' }, { url: 'https://example.com/2', alias: 'twice' });
    expect(first?.ok).toBe(true);
    expect(failure(second).message).toBe(Messages.aliasTaken);
  });
});

describe('creating links on custom domains', () => {
  function withDomains() {
    const made = setup();
    const active = (domain: string, owner = 'acct:acct_pro', status: 'active' | 'pending' = 'active') =>
      made.domains.domains.set(domain, { domain, owner, status, isDefault: false, dnsRecords: [], createdAt: '2026-11-22T09:00:00.000Z', history: [] });
    return { ...made, active };
  }

  it('puts a link on the domain asked for, with codes and aliases unique per domain', async () => {
    const { create, active, links } = withDomains();
    active('go.acme.com');
    const [onDomain, shared, twice] = await create({ url: 'https://example.com/a', alias: 'promo', domain: 'GO.acme.com' }, { url: 'https://example.com/b', alias: 'promo' }, { url: 'https://example.com/c', alias: 'promo', domain: 'go.acme.com' });
    expect(onDomain).toMatchObject({ ok: true, link: { shortUrl: 'https://go.acme.com/promo', url: 'https://example.com/a' } });
    expect(shared).toMatchObject({ ok: true, link: { shortUrl: 'https://sho.rt/promo' } });
    expect(failure(twice)).toEqual(new AliasTaken(Messages.aliasTaken));
    expect([...links.links.keys()].sort()).toEqual(['go.acme.com/promo', 'promo']);
    // Reserved aliases are reserved on every domain.
    expect(failure((await create({ url: 'https://example.com/', alias: 'admin', domain: 'go.acme.com' }))[0])).toEqual(new InvalidRequest(Messages.aliasReserved));
  });

  it('refuses, naming domain, a domain that is not the caller\'s or not active yet; the shared host means the shared domain', async () => {
    const { create, active } = withDomains();
    active('theirs.example.com', 'acct:someone_else');
    active('soon.acme.com', 'acct:acct_pro', 'pending');
    const outcomes = await create(
      { url: 'https://example.com/', domain: 'theirs.example.com' },
      { url: 'https://example.com/', domain: 'soon.acme.com' },
      { url: 'https://example.com/', domain: 'nowhere.example.com' },
      { url: 'https://example.com/', domain: 'sho.rt' },
    );
    expect(failure(outcomes[0]).message).toBe(OwnMessages.domainNotUsable('theirs.example.com'));
    expect(failure(outcomes[1]).message).toBe(OwnMessages.domainNotUsable('soon.acme.com'));
    expect(failure(outcomes[2]).message).toBe(OwnMessages.domainNotUsable('nowhere.example.com'));
    expect(outcomes[3]).toMatchObject({ ok: true, link: { shortUrl: expect.stringMatching(/^https:\/\/sho\.rt\//) } });
  });

  it('uses the account\'s default domain when the request names none', async () => {
    const { create, active, domains } = withDomains();
    active('go.acme.com');
    domains.defaults.set('acct:acct_pro', 'go.acme.com');
    const [outcome] = await create({ url: 'https://example.com/' });
    expect(outcome).toMatchObject({ ok: true, link: { shortUrl: expect.stringMatching(/^https:\/\/go\.acme\.com\/[A-Za-z0-9]{7}$/) } });
  });

  it('answers an item with an empty domain on its own, whatever comes before or after it in the batch', async () => {
    const { create } = withDomains();
    for (const items of [[{ url: 'https://example.com/a', domain: '' }, { url: 'https://example.com/b' }], [{ url: 'https://example.com/b' }, { url: 'https://example.com/a', domain: '' }]]) {
      const outcomes = await create(...items);
      const [empty, none] = items[0]?.domain === '' ? outcomes : [...outcomes].reverse();
      expect(failure(empty).message).toBe(OwnMessages.domainNotUsable(''));
      expect(none).toMatchObject({ ok: true, link: { shortUrl: expect.stringMatching(/^https:\/\/sho\.rt\//) } });
    }
  });

  it('stamps each link made on a custom domain with the domain\'s claim (single, batch, default), none on the shared domain', async () => {
    const { create, active, domains, links } = withDomains();
    active('go.acme.com');
    active('legacy.acme.com');
    const record = domains.domains.get('go.acme.com');
    if (record) record.claimId = 'claim-1';
    domains.defaults.set('acct:acct_pro', 'go.acme.com');
    await create({ url: 'https://example.com/a', alias: 'one', domain: 'go.acme.com' });
    await create({ url: 'https://example.com/b', alias: 'two', domain: 'go.acme.com' }, { url: 'https://example.com/c', alias: 'three' }, { url: 'https://example.com/d', alias: 'four', domain: 'sho.rt' });
    await create({ url: 'https://example.com/e', alias: 'five', domain: 'legacy.acme.com' });
    const claims = Object.fromEntries([...links.links.entries()].map(([key, link]) => [key, link.claimId ?? null]));
    expect(claims).toEqual({ 'go.acme.com/one': 'claim-1', 'go.acme.com/two': 'claim-1', 'go.acme.com/three': 'claim-1', four: null, 'legacy.acme.com/five': null });
  });

  it('refuses domain while custom domains are switched off, and anonymous callers have none', async () => {
    const offSetup = setup({ flags: { customDomains: false } });
    offSetup.domains.domains.set('go.acme.com', { domain: 'go.acme.com', owner: 'acct:acct_pro', status: 'active', isDefault: false, dnsRecords: [], createdAt: '2026-11-22T09:00:00.000Z', history: [] });
    expect(failure((await offSetup.create({ url: 'https://example.com/', domain: 'go.acme.com' }))[0]).message).toBe(OwnMessages.domainsDisabled);
    const anonymous = setup({ caller: { kind: 'anonymous', client: 'k' } });
    expect(failure((await anonymous.create({ url: 'https://example.com/', domain: 'go.acme.com' }))[0]).message).toBe(OwnMessages.domainNotUsable('go.acme.com'));
  });
});
