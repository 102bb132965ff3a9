import fc from 'fast-check';
import { creationOf, draftOf, editOf, emptyDraft, emptyRule, type LinkDraft } from '../../../web/dashboard/links/link-draft';
import type { Link } from '../../../web/dashboard/links/link-types';
import { anyText } from '../../support/unicode-arbitraries';

const link: Link = {
  shortUrl: 'https://sho.rt/spring',
  shortCode: 'spring',
  domain: 'sho.rt',
  url: 'https://example.com/spring',
  alias: 'spring',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  maxClicks: 100,
  clicks: 3,
  passwordProtected: true,
  status: 'active',
  tags: ['promo', 'spring'],
  rules: [{ url: 'https://example.com/de', when: { country: ['DE', 'AT'], query: { ref: 'mail', beta: true } } }],
  variants: [
    { url: 'https://example.com/a', weight: 70 },
    { url: 'https://example.com/b', weight: 30 },
  ],
  forwardQuery: true,
  utm: { source: 'newsletter' },
  expiredUrl: 'https://example.com/over',
};

describe('the link form\'s requests (issue 20)', () => {
  it('creates with only what was filled in: numbers as numbers, words as typed for the API to judge', () => {
    expect(creationOf({ ...emptyDraft(), url: ' https://example.com ' })).toEqual({ url: 'https://example.com' });
    const draft: LinkDraft = { ...emptyDraft(), url: 'https://example.com', expiresAmount: '2', expiresUnit: 'hours', maxClicks: 'ten', tags: 'a, b  c', forwardQuery: true };
    expect(creationOf(draft)).toEqual({ url: 'https://example.com', expiresIn: 7200, maxClicks: 'ten', tags: ['a', 'b', 'c'], forwardQuery: true });
    const rule = { ...emptyRule(), url: 'https://example.com/x', country: 'de fr', query: 'ref=mail, beta', after: '2026-12-01T10:00' };
    expect(creationOf({ ...emptyDraft(), url: 'https://example.com', rules: [rule] }).rules).toEqual([
      { url: 'https://example.com/x', when: { country: ['de', 'fr'], query: { ref: 'mail', beta: true }, after: new Date('2026-12-01T10:00').toISOString() } },
    ]);
  });

  it('loads a link into the form and back to the same request', () => {
    const draft = draftOf(link);
    expect(draft).toMatchObject({ url: link.url, tags: 'promo, spring', maxClicks: '100', forwardQuery: true, password: '' });
    expect(creationOf(draft)).toMatchObject({ url: link.url, tags: link.tags, maxClicks: 100, rules: link.rules, variants: link.variants, utm: link.utm, expiredUrl: link.expiredUrl, forwardQuery: true });
  });

  it('edits only what changed; a cleared field is null (removed), a kept password is not sent', () => {
    const before = draftOf(link);
    expect(editOf(before, before)).toEqual({});
    expect(editOf(before, { ...before, url: 'https://example.com/new', tags: '', variants: [] })).toEqual({ url: 'https://example.com/new', tags: null, variants: null });
    expect(editOf(before, { ...before, forwardQuery: false, removePassword: true, removeExpiry: true })).toEqual({ forwardQuery: null, password: null, expiresIn: null });
    expect(editOf(before, { ...before, password: 'new secret', expiresAmount: '1' })).toEqual({ password: 'new secret', expiresIn: 86_400 });
  });

  it('never throws on any text of the whole of Unicode, and an untouched form sends nothing', () => {
    fc.assert(
      fc.property(anyText(), anyText(), anyText(), anyText(), anyText(), (url, tags, maxClicks, country, weight) => {
        const draft: LinkDraft = { ...emptyDraft(), url, tags, maxClicks, rules: [{ ...emptyRule(), url, country, after: country }], variants: [{ url, weight }] };
        const request = creationOf(draft);
        expect(JSON.parse(JSON.stringify(request))).toEqual(request);
        expect(request.url).toBe(url.trim());
        expect(editOf(draft, draft)).toEqual({});
      }),
    );
  });
});
