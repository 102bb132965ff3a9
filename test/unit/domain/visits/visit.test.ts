import { SAFE_DEFAULT_FLAGS } from '../../../../functions/shared/domain/limits/flags';
import { keyOf, type LinkRecord } from '../../../../functions/shared/domain/links/link';
import type { DomainRecord } from '../../../../functions/shared/domain/domains/custom-domain';
import { hashPassword } from '../../../../functions/shared/domain/links/password';
import { isLinkPreviewBot } from '../../../../functions/shared/domain/visits/preview-bots';
import { admitPasswordAttempt } from '../../../../functions/shared/domain/limits/rate-limits';
import { resolveVisit, type Visit } from '../../../../functions/shared/domain/visits/visit';
import { CachedLinkStore } from '../../../../functions/shared/adapters/cached-link-store';
import { FixedFlags, MemoryDomainStore, MemoryLinkStore, MemoryUsageCounter } from '../../../support/in-memory-ports';

const nowMs = Date.parse('2026-11-22T10:00:00.000Z');

function setup(link?: Partial<LinkRecord>) {
  const links = new MemoryLinkStore();
  if (link) links.links.set('abc123', { code: 'abc123', url: 'https://example.com/', isAlias: false, createdAt: '2026-11-22T09:00:00.000Z', clicks: 0, owner: 'key:k', ...link });
  const deps = { links, domains: new MemoryDomainStore(), flags: new FixedFlags(), usage: new MemoryUsageCounter() };
  const visit = (fields: Partial<Visit> = {}, at = nowMs) => resolveVisit({ code: 'abc123', method: 'GET', client: '1.2.3.4', previewBot: false, signals: { query: [] }, ...fields }, deps, at);
  return { links, deps, visit };
}

describe('resolving a visit', () => {
  it('redirects a plain link, cacheable by browsers only while its cache lease outlasts their copy', async () => {
    expect(await setup({ cacheLeaseUntil: nowMs + 60_000 }).visit()).toEqual({ kind: 'redirect', url: 'https://example.com/', cacheable: true, counted: false, destination: 'default', perVisitor: false });
    expect(await setup({ cacheLeaseUntil: nowMs + 29_000 }).visit()).toEqual({ kind: 'redirect', url: 'https://example.com/', cacheable: false, counted: false, destination: 'default', perVisitor: false });
    expect(await setup({}).visit()).toEqual({ kind: 'redirect', url: 'https://example.com/', cacheable: false, counted: false, destination: 'default', perVisitor: false });
  });

  it('answers 404 for unknown codes and codes that cannot exist, without asking storage for the latter', async () => {
    const { visit, links } = setup();
    expect(await visit()).toEqual({ kind: 'notFound' });
    links.find = () => Promise.reject(new Error('should not be asked'));
    expect(await visit({ code: '../etc' })).toEqual({ kind: 'notFound' });
  });

  it('answers 404 from the moment a link expires', async () => {
    expect(await setup({ expiresAt: '2026-11-22T10:00:00.001Z' }).visit()).toMatchObject({ kind: 'redirect', cacheable: false });
    expect(await setup({ expiresAt: '2026-11-22T10:00:00.000Z' }).visit()).toEqual({ kind: 'notFound', expired: true });
  });

  it('answers 503 in maintenance before anything else', async () => {
    const { visit, deps } = setup({});
    deps.flags.flags = { ...SAFE_DEFAULT_FLAGS, maintenance: true };
    expect(await visit()).toEqual({ kind: 'maintenance' });
  });

  it('counts clicks, retires the link on the last one and answers 410 after', async () => {
    const { visit, links } = setup({ maxClicks: 2 });
    expect(await visit()).toMatchObject({ kind: 'redirect', cacheable: false });
    expect(links.links.get('abc123')?.retired).toBeUndefined();
    expect(await visit()).toMatchObject({ kind: 'redirect' });
    expect(links.links.get('abc123')).toMatchObject({ retired: true });
    expect(links.links.get('abc123')?.url).toBeUndefined();
    expect(await visit()).toEqual({ kind: 'gone', reason: 'usedUp' });
  });

  it('shows preview bots a card for guarded links without counting, and redirects them for plain ones', async () => {
    const limited = setup({ maxClicks: 1 });
    expect(await limited.visit({ previewBot: true })).toEqual({ kind: 'preview' });
    expect(limited.links.links.get('abc123')?.clicks).toBe(0);
    expect(await setup({}).visit({ previewBot: true })).toMatchObject({ kind: 'redirect' });
  });

  it('redirects a bot isbot knows from a plain link, as a person', async () => {
    expect(await setup({}).visit({ bot: true })).toMatchObject({ kind: 'redirect', url: 'https://example.com/', counted: false });
  });

  it('shows a bot a maxClicks link\'s card, never its redirect (one past the spec\'s maximum), spends no click, and answers 410 once people used them', async () => {
    const { visit, links } = setup({ maxClicks: 1 });
    expect(await visit({ bot: true })).toEqual({ kind: 'preview' });
    expect(await visit({ bot: true })).toEqual({ kind: 'preview' });
    expect(links.links.get('abc123')?.clicks).toBe(0);
    expect(await visit()).toMatchObject({ kind: 'redirect', counted: true });
    expect(await visit({ bot: true })).toEqual({ kind: 'gone', reason: 'usedUp' });
  });

  it('never counts a HEAD request', async () => {
    const { visit, links } = setup({ maxClicks: 1 });
    expect(await visit({ method: 'HEAD' })).toEqual({ kind: 'preview' });
    expect(links.links.get('abc123')?.clicks).toBe(0);
  });

  it('asks for the password, refuses a wrong one, redirects on the right one', async () => {
    const { visit } = setup({ passwordHash: await hashPassword('s3cret') });
    expect(await visit()).toEqual({ kind: 'passwordRequired', wrongPassword: false });
    expect(await visit({ method: 'POST' })).toEqual({ kind: 'passwordRequired', wrongPassword: false });
    expect(await visit({ method: 'POST', submittedPassword: 'nope' })).toEqual({ kind: 'passwordRequired', wrongPassword: true });
    expect(await visit({ method: 'POST', submittedPassword: 's3cret' })).toEqual({ kind: 'redirect', url: 'https://example.com/', cacheable: false, counted: false, destination: 'default', perVisitor: false });
  });

  it('stops password guesses after 10 per client IP in 15 minutes', async () => {
    const { visit } = setup({ passwordHash: await hashPassword('s3cret') });
    for (let i = 0; i < 10; i += 1) await visit({ method: 'POST', submittedPassword: `guess${i}` });
    expect(await visit({ method: 'POST', submittedPassword: 's3cret' })).toEqual({ kind: 'tooManyAttempts', retryAfterSeconds: 900 });
    expect(await visit({ method: 'POST', submittedPassword: 's3cret', client: '5.6.7.8' })).toMatchObject({ kind: 'redirect' });
  });

  it('stops every address once the link had 100 wrong passwords in 15 minutes, from however many addresses', async () => {
    const { visit, deps } = setup({ passwordHash: await hashPassword('s3cret') });
    // 99 wrong attempts from 99 addresses (counted as the visits would count them, without 99 scrypt hashes)...
    for (let i = 0; i < 99; i += 1) expect(await admitPasswordAttempt('abc123', `10.0.0.${i}`, deps.usage, nowMs)).toBeUndefined();
    // ...then the 100th, a real wrong visit from a fresh address, uses the cap up.
    expect(await visit({ method: 'POST', submittedPassword: 'nope', client: '10.0.1.1' })).toEqual({ kind: 'passwordRequired', wrongPassword: true });
    expect(await visit({ method: 'POST', submittedPassword: 's3cret', client: '10.0.1.2' })).toEqual({ kind: 'tooManyAttempts', retryAfterSeconds: 900 });
    expect(await visit({ method: 'POST', submittedPassword: 's3cret', client: '10.0.1.2' }, nowMs + 900_000)).toMatchObject({ kind: 'redirect' });
  });

  it('does not count right passwords against the link-wide cap', async () => {
    const { visit, deps } = setup({ passwordHash: await hashPassword('s3cret') });
    for (let i = 0; i < 99; i += 1) await admitPasswordAttempt('abc123', `10.0.0.${i}`, deps.usage, nowMs);
    for (let i = 0; i < 3; i += 1) expect(await visit({ method: 'POST', submittedPassword: 's3cret', client: `10.0.2.${i}` })).toMatchObject({ kind: 'redirect' });
    expect(await visit({ method: 'POST', submittedPassword: 'nope', client: '10.0.3.1' })).toEqual({ kind: 'passwordRequired', wrongPassword: true });
    expect(await visit({ method: 'POST', submittedPassword: 's3cret', client: '10.0.3.2' })).toMatchObject({ kind: 'tooManyAttempts' });
  });
});

describe('preview bots', () => {
  it.each([
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    'TelegramBot (like TwitterBot)',
    'WhatsApp/2.23.20.0',
    'facebookexternalhit/1.1 Facebot Twitterbot/1.0',
    'LinkedInBot/1.0 (compatible; Mozilla/5.0)',
  ])('recognises %s', (userAgent) => {
    expect(isLinkPreviewBot(userAgent)).toBe(true);
  });

  it.each([undefined, 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36', 'curl/8.5.0'])('leaves %s alone', (userAgent) => {
    expect(isLinkPreviewBot(userAgent)).toBe(false);
  });
});

describe('visiting a custom domain', () => {
  const domain: DomainRecord = {
    domain: 'go.acme.com',
    owner: 'acct:a',
    status: 'active',
    isDefault: false,
    dnsRecords: [],
    createdAt: '2026-11-22T08:00:00.000Z',
    history: [],
  };

  function onDomain(settings: Partial<DomainRecord> = {}, links: Array<Partial<LinkRecord> & { code: string }> = []) {
    const store = new MemoryLinkStore();
    for (const link of links) {
      const record = { url: 'https://example.com/', isAlias: true, createdAt: '2026-11-22T09:00:00.000Z', clicks: 0, owner: 'acct:a', ...link };
      store.links.set(keyOf(record), record);
    }
    const domains = new MemoryDomainStore();
    domains.domains.set('go.acme.com', { ...domain, ...settings });
    const deps = { links: store, domains, flags: new FixedFlags(), usage: new MemoryUsageCounter() };
    return (code: string, host = 'go.acme.com') => resolveVisit({ code, host, method: 'GET', client: '', previewBot: false, signals: { query: [] } }, deps, nowMs);
  }

  it('finds only links made on that domain: a code of the shared domain or of another domain is 404 there', async () => {
    const visit = onDomain({}, [
      { code: 'promo', domain: 'go.acme.com', url: 'https://acme.com/promo' },
      { code: 'shared', url: 'https://example.com/shared' },
      { code: 'other', domain: 'go.other.com' },
    ]);
    expect(await visit('promo')).toMatchObject({ kind: 'redirect', url: 'https://acme.com/promo' });
    expect(await visit('shared')).toEqual({ kind: 'notFound' });
    expect(await visit('other')).toEqual({ kind: 'notFound' });
  });

  it('sends its root, unknown codes and links that ran out to the owner\'s URLs, never counting them as clicks', async () => {
    const visit = onDomain({ rootUrl: 'https://acme.com/', notFoundUrl: 'https://acme.com/404', expiredUrl: 'https://acme.com/over' }, [
      { code: 'old', domain: 'go.acme.com', expiresAt: '2026-11-22T09:30:00.000Z' },
      { code: 'used', domain: 'go.acme.com', retired: true },
      { code: 'gone', domain: 'go.acme.com', deleted: true },
      { code: 'banned', domain: 'go.acme.com', disabled: true },
    ]);
    expect(await visit('')).toEqual({ kind: 'fallback', url: 'https://acme.com/' });
    expect(await visit('nothing')).toEqual({ kind: 'fallback', url: 'https://acme.com/404' });
    for (const code of ['old', 'used', 'gone']) expect(await visit(code)).toEqual({ kind: 'fallback', url: 'https://acme.com/over' });
    // An operator's takedown is not the owner's to redirect.
    expect(await visit('banned')).toEqual({ kind: 'gone', reason: 'disabled' });
  });

  it('answers as the shared domain does when the owner set no URLs', async () => {
    const visit = onDomain({}, [{ code: 'used', domain: 'go.acme.com', retired: true }]);
    expect(await visit('')).toEqual({ kind: 'notFound' });
    expect(await visit('nothing')).toEqual({ kind: 'notFound' });
    expect(await visit('used')).toEqual({ kind: 'gone', reason: 'usedUp' });
  });

  it('serves on a name claimed again only the links of its current claim: an earlier claim\'s are unknown, tombstones and guards included', async () => {
    const settings = { owner: 'acct:b', claimId: 'claim-2', notFoundUrl: 'https://b.example.com/404', expiredUrl: 'https://b.example.com/over' };
    const visit = onDomain(settings, [
      { code: 'theirs', domain: 'go.acme.com', owner: 'acct:b', claimId: 'claim-2', url: 'https://b.example.com/' },
      { code: 'before', domain: 'go.acme.com', claimId: 'claim-1', url: 'https://a.example.com/' },
      { code: 'legacy', domain: 'go.acme.com', url: 'https://a.example.com/legacy' },
      { code: 'tomb', domain: 'go.acme.com', claimId: 'claim-1', deleted: true, expiredUrl: 'https://a.example.com/over' },
      { code: 'guarded', domain: 'go.acme.com', claimId: 'claim-1', passwordHash: 'x', maxClicks: 5 },
    ]);
    expect(await visit('theirs')).toMatchObject({ kind: 'redirect', url: 'https://b.example.com/' });
    // The former owner's links, whatever their state, are codes the new owner never made: its notFoundUrl, not its expiredUrl.
    for (const code of ['before', 'legacy', 'tomb', 'guarded']) expect(await visit(code)).toEqual({ kind: 'fallback', url: 'https://b.example.com/404' });
  });

  it('reads links and claims from before claim ids by owner', async () => {
    const legacy = { code: 'legacy', domain: 'go.acme.com', url: 'https://a.example.com/legacy' };
    expect(await onDomain({}, [legacy])('legacy')).toMatchObject({ kind: 'redirect' });
    expect(await onDomain({ claimId: 'claim-2' }, [legacy])('legacy')).toMatchObject({ kind: 'redirect' });
    expect(await onDomain({}, [{ ...legacy, claimId: 'claim-1' }])('legacy')).toEqual({ kind: 'notFound' });
  });

  it('answers 410 for everything on a disabled domain, and 404 on a pending, unknown or unreadable host', async () => {
    expect(await onDomain({ status: 'disabled' }, [{ code: 'promo', domain: 'go.acme.com' }])('promo')).toEqual({ kind: 'gone', reason: 'disabled' });
    expect(await onDomain({ status: 'pending' }, [{ code: 'promo', domain: 'go.acme.com' }])('promo')).toEqual({ kind: 'notFound' });
    expect(await onDomain()('promo', 'unknown.example.com')).toEqual({ kind: 'notFound' });
    expect(await onDomain()('promo', '')).toEqual({ kind: 'notFound' });
  });
});

describe('password attempts on the same code on several domains (issue 27)', () => {
  async function threeLinks() {
    const links = new MemoryLinkStore();
    const domains = new MemoryDomainStore();
    const passwordHash = await hashPassword('s3cret');
    for (const domain of [undefined, 'go.acme.com', 'go.other.com']) {
      const record: LinkRecord = { code: 'abc123', ...(domain ? { domain } : {}), url: `https://example.com/${domain ?? 'shared'}`, isAlias: true, createdAt: '2026-11-22T09:00:00.000Z', clicks: 0, owner: 'acct:a', passwordHash };
      links.links.set(keyOf(record), record);
      if (domain) domains.domains.set(domain, { domain, owner: 'acct:a', status: 'active', isDefault: false, dnsRecords: [], createdAt: '2026-11-22T08:00:00.000Z', history: [] });
    }
    const deps = { links, domains, flags: new FixedFlags(), usage: new MemoryUsageCounter() };
    const attempt = (host: string | undefined, submittedPassword: string, client = '1.2.3.4') =>
      resolveVisit({ code: 'abc123', ...(host ? { host } : {}), method: 'POST', client, previewBot: false, submittedPassword, signals: { query: [] } }, deps, nowMs);
    return { deps, attempt };
  }

  it('counts a visitor\'s guesses per link: used up on one domain, the same code elsewhere still asks', async () => {
    const { attempt } = await threeLinks();
    for (let i = 0; i < 10; i += 1) expect(await attempt('go.acme.com', `guess${i}`)).toEqual({ kind: 'passwordRequired', wrongPassword: true });
    expect(await attempt('go.acme.com', 's3cret')).toMatchObject({ kind: 'tooManyAttempts' });
    expect(await attempt('go.other.com', 'nope')).toEqual({ kind: 'passwordRequired', wrongPassword: true });
    expect(await attempt('go.other.com', 's3cret')).toMatchObject({ kind: 'redirect', url: 'https://example.com/go.other.com' });
    expect(await attempt(undefined, 's3cret')).toMatchObject({ kind: 'redirect', url: 'https://example.com/shared' });
  });

  it('counts the link-wide cap of wrong guesses per link too', async () => {
    const { attempt, deps } = await threeLinks();
    for (let i = 0; i < 100; i += 1) await admitPasswordAttempt('go.acme.com/abc123', `10.0.0.${i}`, deps.usage, nowMs);
    expect(await attempt('go.acme.com', 's3cret', '10.0.1.1')).toMatchObject({ kind: 'tooManyAttempts' });
    expect(await attempt('go.other.com', 's3cret', '10.0.1.1')).toMatchObject({ kind: 'redirect' });
    expect(await attempt(undefined, 's3cret', '10.0.1.1')).toMatchObject({ kind: 'redirect' });
  });
});

describe('a maxClicks link a container has read before', () => {
  function remembered(link: Partial<LinkRecord>) {
    const { links, deps } = setup({ maxClicks: 3, ...link });
    let reads = 0;
    const find = links.find.bind(links);
    links.find = (code) => {
      reads += 1;
      return find(code);
    };
    const cached = { ...deps, links: new CachedLinkStore(links, { maxEntries: 10 }) };
    const visit = (fields: Partial<Visit> = {}) => resolveVisit({ code: 'abc123', method: 'GET', client: '', previewBot: false, signals: { query: [] }, ...fields }, cached, nowMs);
    return { links, visit, reads: () => reads };
  }

  it('is counted by its one conditional write, with no read before it, and retired on its last click', async () => {
    const { links, visit, reads } = remembered({});
    expect(await visit()).toMatchObject({ kind: 'redirect', counted: true });
    expect([reads(), links.clickWrites]).toEqual([1, 1]);
    expect(await visit()).toMatchObject({ kind: 'redirect', counted: true });
    expect(await visit()).toMatchObject({ kind: 'redirect', counted: true });
    expect([reads(), links.clickWrites]).toEqual([1, 3]);
    expect(links.links.get('abc123')).toMatchObject({ retired: true, clicks: 3 });
    expect(await visit()).toEqual({ kind: 'gone', reason: 'usedUp' });
  });

  it('is never counted for a bot: the bot reads the link and gets its card', async () => {
    const { links, visit } = remembered({});
    await visit();
    expect(await visit({ bot: true })).toEqual({ kind: 'preview' });
    expect([links.clickWrites, links.links.get('abc123')?.clicks]).toEqual([1, 1]);
  });

  it("answers a link another container used up from its refused write alone, its expiredUrl included", async () => {
    const { links, deps } = setup({ maxClicks: 1, expiredUrl: 'https://example.com/over' });
    const containers = [1, 2].map(() => ({ ...deps, links: new CachedLinkStore(links, { maxEntries: 10 }) }));
    const visitIn = (container: (typeof containers)[number]) => resolveVisit({ code: 'abc123', method: 'GET', client: '', previewBot: false, signals: { query: [] } }, container, nowMs);
    // Both read the link (HEAD: no click), then the first uses its one click and retires it.
    for (const container of containers) expect(await resolveVisit({ code: 'abc123', method: 'HEAD', client: '', previewBot: false, signals: { query: [] } }, container, nowMs)).toEqual({ kind: 'preview' });
    expect(await visitIn(containers[0] as (typeof containers)[number])).toMatchObject({ kind: 'redirect', url: 'https://example.com/', counted: true });
    links.find = () => Promise.reject(new Error('should not be read'));
    expect(await visitIn(containers[1] as (typeof containers)[number])).toMatchObject({ kind: 'redirect', url: 'https://example.com/over', destination: 'expiredUrl' });
  });

  it('is read first on a custom domain, so a link of an earlier claim spends no click when the name is claimed again', async () => {
    const links = new MemoryLinkStore();
    const record: LinkRecord = { code: 'promo', domain: 'go.acme.com', url: 'https://acme.com/', isAlias: true, createdAt: '2026-11-22T09:00:00.000Z', clicks: 0, owner: 'acct:a', claimId: 'claim-1', maxClicks: 5 };
    links.links.set(keyOf(record), record);
    const domains = new MemoryDomainStore();
    const active: DomainRecord = { domain: 'go.acme.com', owner: 'acct:a', claimId: 'claim-1', status: 'active', isDefault: false, dnsRecords: [], createdAt: '2026-11-22T08:00:00.000Z', history: [] };
    domains.domains.set('go.acme.com', active);
    const deps = { links: new CachedLinkStore(links, { maxEntries: 10 }), domains, flags: new FixedFlags(), usage: new MemoryUsageCounter() };
    const visit = () => resolveVisit({ code: 'promo', host: 'go.acme.com', method: 'GET', client: '', previewBot: false, signals: { query: [] } }, deps, nowMs);
    expect(await visit()).toMatchObject({ kind: 'redirect', counted: true });
    domains.domains.set('go.acme.com', { ...active, owner: 'acct:b', claimId: 'claim-2' });
    expect(await visit()).toEqual({ kind: 'notFound' });
    expect(links.links.get(keyOf(record))?.clicks).toBe(1);
  });

  it('asks for the password its owner added since, without counting the click', async () => {
    const { links, visit } = remembered({});
    await visit();
    (links.links.get('abc123') as LinkRecord).passwordHash = await hashPassword('open sesame');
    expect(await visit()).toEqual({ kind: 'passwordRequired', wrongPassword: false });
    expect(links.links.get('abc123')?.clicks).toBe(1);
  });

  it('is redirected without counting once its owner removed the limit', async () => {
    const { links, visit } = remembered({});
    await visit();
    delete (links.links.get('abc123') as LinkRecord).maxClicks;
    expect(await visit()).toMatchObject({ kind: 'redirect', counted: false });
    expect(links.links.get('abc123')?.clicks).toBe(1);
  });

  it('is read first again for HEAD requests and preview bots, which use up no click', async () => {
    const { links, visit } = remembered({});
    await visit();
    expect(await visit({ method: 'HEAD' })).toEqual({ kind: 'preview' });
    expect(await visit({ previewBot: true })).toEqual({ kind: 'preview' });
    expect(links.links.get('abc123')?.clicks).toBe(1);
  });
});

describe("a password link's form", () => {
  it('is answered from a copy read seconds ago, while a posted password always reads the link as it is', async () => {
    const { links, deps } = setup({ passwordHash: await hashPassword('open sesame') });
    let reads = 0;
    const find = links.find.bind(links);
    links.find = (code) => {
      reads += 1;
      return find(code);
    };
    let clock = nowMs;
    const cached = { ...deps, links: new CachedLinkStore(links, { maxEntries: 10, now: () => clock }) };
    const visit = (fields: Partial<Visit> = {}) => resolveVisit({ code: 'abc123', method: 'GET', client: 'c', previewBot: false, signals: { query: [] }, ...fields }, cached, clock);
    expect(await visit()).toEqual({ kind: 'passwordRequired', wrongPassword: false });
    expect(await visit({ method: 'HEAD' })).toEqual({ kind: 'passwordRequired', wrongPassword: false });
    expect(await visit({ previewBot: true })).toEqual({ kind: 'preview' });
    expect(reads).toBe(1);
    // The owner removes the password: the form may show for 5 s more, but a posted password reads the link now.
    const { passwordHash: _removed, ...withoutPassword } = links.links.get('abc123') as LinkRecord;
    links.links.set('abc123', withoutPassword);
    expect(await visit()).toEqual({ kind: 'passwordRequired', wrongPassword: false });
    expect(await visit({ method: 'POST', submittedPassword: 'anything' })).toMatchObject({ kind: 'redirect' });
    expect(reads).toBe(2);
    clock += 5_000;
    expect(await visit()).toMatchObject({ kind: 'redirect' });
  });
});
