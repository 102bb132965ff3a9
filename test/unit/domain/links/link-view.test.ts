import { keyOf, linkKey, statusOf, toCreatedLinkView, toLinkView, type LinkRecord } from '../../../../functions/shared/domain/links/link';

const nowMs = Date.parse('2026-11-22T10:00:00.000Z');
const base: LinkRecord = { code: 'abc1234', url: 'https://example.com/', isAlias: false, createdAt: '2026-11-22T09:00:00.000Z', clicks: 2, owner: 'acct:a' };

describe('a link\'s status', () => {
  it.each([
    ['active', {}],
    ['expired', { expiresAt: '2026-11-22T10:00:00.000Z' }],
    ['used-up', { maxClicks: 2 }],
    ['used-up', { retired: true }],
    ['deleted', { deleted: true, maxClicks: 2 }],
    ['disabled', { disabled: true, deleted: true }],
  ] as const)('is %s for %j', (status, fields) => {
    expect(statusOf({ ...base, ...fields }, nowMs)).toBe(status);
  });
});

describe('the link view', () => {
  it('shows the destination of a live link, never a password, and falls back to createdAt for updatedAt', () => {
    expect(toLinkView({ ...base, passwordHash: 'scrypt$secret' }, 'https://sho.rt/', nowMs)).toEqual({
      shortUrl: 'https://sho.rt/abc1234',
      shortCode: 'abc1234',
      domain: 'sho.rt',
      url: 'https://example.com/',
      createdAt: base.createdAt,
      updatedAt: base.createdAt,
      clicks: 2,
      passwordProtected: true,
      status: 'active',
    });
  });

  it('shows an imported link\'s clicks before import and where it came from apart from its own clicks, and a link made here without either (issue 31)', () => {
    const imported = { ...base, importedClicks: 58, importedFrom: { source: 'shlink', sourceId: 'sho.rt#abc', importId: 'imp_1' } } as const;
    expect(toLinkView(imported, 'https://sho.rt', nowMs)).toMatchObject({ clicks: 2, importedClicks: 58, importedFrom: { source: 'shlink', sourceId: 'sho.rt#abc', importId: 'imp_1' } });
    // Clicks before import never use up a limited link: only this service's clicks do.
    expect(toLinkView({ ...imported, maxClicks: 3 }, 'https://sho.rt', nowMs).status).toBe('active');
    const made = toLinkView(base, 'https://sho.rt', nowMs);
    expect(made).not.toHaveProperty('importedClicks');
    expect(made).not.toHaveProperty('importedFrom');
  });

  it('hides the destination once used up or deleted, and shows the alias of a custom code', () => {
    expect(toLinkView({ ...base, maxClicks: 2 }, 'https://sho.rt', nowMs)).not.toHaveProperty('url');
    expect(toLinkView({ ...base, deleted: true, isAlias: true }, 'https://sho.rt', nowMs)).toMatchObject({ alias: 'abc1234', status: 'deleted' });
    expect(toLinkView({ ...base, deleted: true }, 'https://sho.rt', nowMs)).not.toHaveProperty('url');
  });
});

describe('a link on a custom domain', () => {
  const onDomain: LinkRecord = { ...base, domain: 'go.acme.com' };

  it('is stored under its domain, so the same code on two domains is two links', () => {
    expect(linkKey(undefined, 'promo')).toBe('promo');
    expect(linkKey('go.acme.com', 'promo')).toBe('go.acme.com/promo');
    expect(keyOf(onDomain)).not.toBe(keyOf(base));
  });

  it('shows its own domain in the view and the short URL; links on the shared domain show the shared host', () => {
    expect(toLinkView(onDomain, 'https://sho.rt', nowMs)).toMatchObject({ shortUrl: 'https://go.acme.com/abc1234', domain: 'go.acme.com' });
    expect(toLinkView(base, 'http://localhost:3000', nowMs)).toMatchObject({ shortUrl: 'http://localhost:3000/abc1234', domain: 'localhost:3000' });
    expect(toCreatedLinkView({ ...onDomain, url: 'https://example.com/' }, 'https://sho.rt').shortUrl).toBe('https://go.acme.com/abc1234');
  });
});
