import type { Caller } from '../../../../functions/shared/domain/accounts/caller';
import { InvalidRequest, PlanRequired } from '../../../../functions/shared/domain/errors';
import { SAFE_DEFAULT_FLAGS, type Flags } from '../../../../functions/shared/domain/limits/flags';
import { toLinkView, type LinkRecord } from '../../../../functions/shared/domain/links/link';
import { createLinks } from '../../../../functions/shared/domain/links/link-creation';
import { Messages, OwnMessages } from '../../../../functions/shared/domain/messages';
import { hashPassword } from '../../../../functions/shared/domain/links/password';
import { resolveVisit, type Visit } from '../../../../functions/shared/domain/visits/visit';
import { FixedFlags, ListSafetyChecker, MemoryAliasOverrides, MemoryDomainStore, MemoryLinkStore, MemoryUsageCounter, smartFields } from '../../../support/in-memory-ports';
import { keyCaller } from '../../../support/callers';

const nowMs = Date.parse('2026-11-22T10:00:00.000Z');
const caller = (plan: 'FREE' | 'INDIE' | 'PRO' | 'ENTERPRISE'): Caller => (keyCaller({ keyId: 'k', accountId: 'a', owner: 'acct:a', plan }));
const rules = [{ url: 'https://example.com/de', when: { country: ['DE'] } }];
const variants = [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 50 }];

async function create(item: object, options: { plan?: 'FREE' | 'INDIE' | 'PRO'; flags?: Partial<Flags>; unsafe?: string[] } = {}) {
  const links = new MemoryLinkStore();
  const context = { caller: caller(options.plan ?? 'PRO'), flags: { ...SAFE_DEFAULT_FLAGS, ...options.flags }, nowMs, shortBaseUrl: 'https://sho.rt' };
  const deps = { links, safety: new ListSafetyChecker(options.unsafe), aliasOverrides: new MemoryAliasOverrides(), domains: new MemoryDomainStore(), smartFields };
  const [outcome] = await createLinks([{ url: 'https://example.com/', ...item }], context, deps);
  return { outcome, links, safety: deps.safety };
}

describe('creating a smart link', () => {
  it('stores every field and the view shows them as stored', async () => {
    const { outcome, links } = await create({ rules, variants, forwardQuery: true, utm: { source: 'news' }, expiredUrl: 'https://example.com/over' });
    expect(outcome?.ok).toBe(true);
    const [stored] = [...links.links.values()];
    expect(toLinkView(stored as LinkRecord, 'https://sho.rt', nowMs)).toMatchObject({ rules, variants, forwardQuery: true, utm: { source: 'news' }, expiredUrl: 'https://example.com/over' });
  });

  it('sells rules and variants from PRO up, and the other fields on every plan', async () => {
    for (const fields of [{ rules }, { variants }]) {
      const { outcome } = await create(fields, { plan: 'INDIE' });
      expect(outcome).toEqual({ ok: false, error: expect.any(PlanRequired) });
      expect(outcome?.ok === false && outcome.error.message).toBe('Smart links (rules and variants) require the PRO plan or higher.');
    }
    expect((await create({ forwardQuery: true, utm: { medium: 'email' }, expiredUrl: 'https://example.com/over' }, { plan: 'FREE' })).outcome?.ok).toBe(true);
  });

  it('follows the smartLinks flag: off refuses rules and variants (400) before the plan is asked', async () => {
    const { outcome } = await create({ variants }, { plan: 'INDIE', flags: { smartLinks: false } });
    expect(outcome).toEqual({ ok: false, error: new InvalidRequest(OwnMessages.smartLinksDisabled) });
  });

  it('checks every destination in one safety call and names the field of the flagged one', async () => {
    const unsafe = ['https://bad.example.com/'];
    const { outcome, safety } = await create({ rules: [...rules, { url: unsafe[0], when: { os: ['ios'] } }], variants, expiredUrl: 'https://example.com/over' }, { unsafe });
    expect(outcome).toEqual({ ok: false, error: new InvalidRequest(`rules[1].url: ${Messages.unsafeUrl}`) });
    expect(safety.calls).toEqual([['https://example.com/', 'https://example.com/de', 'https://bad.example.com/', 'https://example.com/a', 'https://example.com/b', 'https://example.com/over']]);
    expect((await create({ url: unsafe[0], expiredUrl: unsafe[0] }, { unsafe })).outcome).toEqual({ ok: false, error: new InvalidRequest(Messages.unsafeUrl) });
    expect((await create({ expiredUrl: 'https://xn--pple-43d.com/' })).outcome).toEqual({ ok: false, error: new InvalidRequest(`expiredUrl: ${Messages.unsafeUrl}`) });
  });
});

describe('visiting a smart link', () => {
  function setup(link: Partial<LinkRecord>, flags: Partial<Flags> = {}) {
    const links = new MemoryLinkStore();
    links.links.set('abc123', { code: 'abc123', url: 'https://example.com/', isAlias: false, createdAt: '2026-11-22T09:00:00.000Z', clicks: 0, owner: 'acct:a', ...link });
    const deps = { links, domains: new MemoryDomainStore(), flags: new FixedFlags({ ...SAFE_DEFAULT_FLAGS, ...flags }), usage: new MemoryUsageCounter() };
    const visit = (fields: Partial<Visit> = {}, signals: Partial<Visit['signals']> = {}) =>
      resolveVisit({ code: 'abc123', method: 'GET', client: 'c', previewBot: false, ...fields, signals: { query: [], ...signals } }, deps, nowMs);
    return { links, visit };
  }

  it('answers per visitor, never cacheable, and labels the destination', async () => {
    const { visit } = setup({ rules, cacheLeaseUntil: nowMs + 120_000 });
    expect(await visit({}, { country: 'DE' })).toEqual({ kind: 'redirect', url: 'https://example.com/de', cacheable: false, counted: false, destination: 'rules[0]', perVisitor: true });
    expect(await visit({}, { country: 'FR' })).toMatchObject({ url: 'https://example.com/', destination: 'default', perVisitor: true });
  });

  it('keeps a plain link with only UTM tags cacheable: its answer is the same for everyone', async () => {
    const { visit } = setup({ utm: { source: 'x' }, cacheLeaseUntil: nowMs + 120_000 });
    expect(await visit()).toMatchObject({ url: 'https://example.com/?utm_source=x', cacheable: true, perVisitor: false });
  });

  it('asks for the password first, then applies the rules', async () => {
    const { visit } = setup({ rules, passwordHash: await hashPassword('open sesame') });
    expect(await visit({}, { country: 'DE' })).toEqual({ kind: 'passwordRequired', wrongPassword: false });
    expect(await visit({ method: 'POST', submittedPassword: 'open sesame' }, { country: 'DE' })).toMatchObject({ kind: 'redirect', url: 'https://example.com/de' });
  });

  it('counts every redirect against maxClicks whichever destination it goes to, then sends visitors to expiredUrl', async () => {
    const { visit, links } = setup({ variants, maxClicks: 2, expiredUrl: 'https://example.com/over' });
    expect(await visit({}, { variant: 0 })).toMatchObject({ url: 'https://example.com/a', counted: true, destination: 'variants[0]' });
    expect(await visit({}, { variant: 1 })).toMatchObject({ url: 'https://example.com/b', counted: true, destination: 'variants[1]' });
    expect(links.links.get('abc123')?.retired).toBe(true);
    expect(await visit({}, { variant: 1 })).toEqual({ kind: 'redirect', url: 'https://example.com/over', cacheable: false, counted: true, destination: 'expiredUrl', perVisitor: false });
  });

  it('sends visitors of an expired or deleted link to its expiredUrl, but not of a link taken down', async () => {
    const over = 'https://example.com/over';
    expect(await setup({ expiresAt: '2026-11-22T09:59:59.999Z', expiredUrl: over }).visit()).toMatchObject({ kind: 'redirect', url: over, destination: 'expiredUrl' });
    expect(await setup({ deleted: true, url: undefined, expiredUrl: over }).visit()).toMatchObject({ kind: 'redirect', url: over, destination: 'expiredUrl' });
    expect(await setup({ disabled: true, expiredUrl: over }).visit()).toEqual({ kind: 'gone', reason: 'disabled' });
    expect(await setup({ expiresAt: '2026-11-22T09:59:59.999Z' }).visit()).toEqual({ kind: 'notFound', expired: true });
  });

  it('goes to the link\'s url while the smartLinks flag is off, keeping UTM tags and query forwarding', async () => {
    const { visit } = setup({ rules, variants, utm: { source: 'x' } }, { smartLinks: false });
    expect(await visit({}, { country: 'DE' })).toMatchObject({ url: 'https://example.com/?utm_source=x', destination: 'default', perVisitor: false });
  });

  it('gives preview bots of a plain smart link their redirect, as today, and never a click limit\'s click', async () => {
    expect(await setup({ rules }).visit({ previewBot: true }, { country: 'DE' })).toMatchObject({ kind: 'redirect', url: 'https://example.com/de' });
    expect(await setup({ rules, maxClicks: 1 }).visit({ previewBot: true }, { country: 'DE' })).toEqual({ kind: 'preview' });
  });
});
