import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { IMPORT_PARSERS } from '../../../../functions/shared/domain/imports/import-parsers';
import type { ImportedRecord } from '../../../../functions/shared/domain/imports/import-record';
import { draftOf, firstPlacement, importIdempotencyKey, MAX_SLUG_LENGTH, MAX_SOURCE_ID_LENGTH, planImport, settleConflict, type MappingContext } from '../../../../functions/shared/domain/imports/link-mapping';
import { ALIAS_PATTERN } from '../../../../functions/shared/domain/links/aliases';
import { TAG_PATTERN } from '../../../../functions/shared/domain/links/link-request';
import { anyText } from '../../../support/unicode-arbitraries';

const NOW_MS = Date.parse('2026-01-01T00:00:00.000Z');
const context = (overrides: Partial<MappingContext> = {}): MappingContext => ({ source: 'bitly', workspaceDomains: new Set(), nowMs: NOW_MS, ...overrides });
const record = (overrides: Partial<ImportedRecord> = {}): ImportedRecord => ({ sourceId: 'bit.ly/spring', domain: 'bit.ly', slug: 'spring', url: 'https://example-shop.com/spring', tags: [], clicks: 0, ...overrides });
const drafted = (given: Partial<ImportedRecord>, overrides: Partial<MappingContext> = {}) => {
  const outcome = draftOf(record(given), context(overrides));
  if (!outcome.ok) throw new Error(`refused: ${outcome.reason}`);
  return outcome.draft;
};
const fixture = (file: string) => readFileSync(path.join(__dirname, '../../../fixtures/imports', file), 'utf8');

describe('a record becomes the creation request and the history it keeps', () => {
  test('the bitly sample: kept fields, the custom back-half on the workspace\'s domain of that name, clicks as importedClicks', () => {
    const plan = planImport(IMPORT_PARSERS.bitly(fixture('bitly.csv'), { nowMs: NOW_MS }), context({ workspaceDomains: new Set(['go.example-shop.com']) }));
    expect(plan.drafts[0]).toEqual({
      row: 1,
      draft: {
        request: { url: 'https://example-shop.com/spring?utm_source=bitly', alias: 'spring', domain: 'go.example-shop.com', tags: ['promo', 'spring'] },
        title: 'Spring sale, 2024',
        createdAt: '2024-03-07T10:15:00.000Z',
        importedClicks: 1234,
        importedFrom: { source: 'bitly', sourceId: 'bit.ly/3xYz9Ab' },
        idempotencyKey: importIdempotencyKey('bitly', 'bit.ly/3xYz9Ab'),
        notes: [],
      },
    });
    // café cannot be an alias here; its destination is stored in its ASCII form.
    expect(plan.drafts[1]?.draft.request).toEqual({ url: 'https://example.com/caf%C3%A9', alias: 'café' });
    expect(plan.drafts[1]?.draft).toMatchObject({ slugRefusal: 'the slug cannot be kept here: Alias may contain only letters, digits and hyphens', notes: ['1 of the tags not kept (up to 10, each 1 to 32 letters, digits, - or _)'] });
    expect(plan.problems.map(({ row }) => row)).toEqual([4, 5]);
  });

  test('a domain the workspace does not have (bit.ly) puts the link on the shared domain', () => {
    expect(drafted({ domain: 'bit.ly' }, { workspaceDomains: new Set(['go.example-shop.com']) }).request).not.toHaveProperty('domain');
  });

  test('the workspace\'s domain is matched whatever the case, a port or an IDN\'s Unicode form', () => {
    expect(drafted({ domain: 'Go.Example-Shop.COM:443' }, { workspaceDomains: new Set(['go.example-shop.com']) }).request.domain).toBe('go.example-shop.com');
    expect(drafted({ domain: 'bücher.example' }, { workspaceDomains: new Set(['xn--bcher-kva.example']) }).request.domain).toBe('xn--bcher-kva.example');
  });

  test('tags: blanks become hyphens, case folds, repeats merge, ten at most; what cannot fit is counted', () => {
    const draft = drafted({ tags: ['Spring Sale', 'spring-sale', '日本', 'a'.repeat(33), ...Array.from({ length: 11 }, (_, index) => `t${index}`)] });
    expect(draft.request.tags).toEqual(['spring-sale', 't0', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't8']);
    expect(draft.notes).toEqual(['4 of the tags not kept (up to 10, each 1 to 32 letters, digits, - or _)']);
  });

  test('a destination the creation path refuses makes the row a problem in its words', () => {
    expect(draftOf(record({ url: 'http://10.0.0.1/admin' }), context())).toEqual({ ok: false, reason: 'Please provide a valid URL' });
    expect(draftOf(record({ url: 'javascript:alert(1)' }), context())).toEqual({ ok: false, reason: 'Please provide a valid URL' });
  });

  test('a long title is cut at 500 characters (an emoji is one), and says so', () => {
    const draft = drafted({ title: '😀'.repeat(501) });
    expect([...(draft.title ?? '')]).toHaveLength(500);
    expect(draft.notes).toEqual(['the title was shortened to 500 characters']);
  });

  test('creation time: the peer\'s, the import\'s when absent, never in the future', () => {
    expect(drafted({ createdAt: '2019-05-01T00:00:00.000Z' }).createdAt).toBe('2019-05-01T00:00:00.000Z');
    expect(drafted({}).createdAt).toBe('2026-01-01T00:00:00.000Z');
    const future = drafted({ createdAt: '2030-01-01T00:00:00.000Z' });
    expect(future.createdAt).toBe('2026-01-01T00:00:00.000Z');
    expect(future.notes).toEqual(["the creation time is in the future: the import's time was kept"]);
  });

  test('expiry: kept when past (the link arrives expired) or within ten years; dropped beyond, with a note', () => {
    expect(drafted({ expiresAt: '2020-01-01T00:00:00.000Z' }).expiresAt).toBe('2020-01-01T00:00:00.000Z');
    expect(drafted({ expiresAt: '2035-01-01T00:00:00.000Z' }).expiresAt).toBe('2035-01-01T00:00:00.000Z');
    const far = drafted({ expiresAt: '2037-01-01T00:00:00.000Z' });
    expect(far).not.toHaveProperty('expiresAt');
    expect(far.notes).toEqual(['the expiry is more than 10 years away and was not kept']);
  });

  test('the click total is importedClicks: no maxClicks is made from it', () => {
    const draft = drafted({ clicks: 5000 });
    expect(draft.importedClicks).toBe(5000);
    expect(draft.request).not.toHaveProperty('maxClicks');
  });
});

describe('a slug, domain or id longer than a link can carry', () => {
  test('a slug past 255 characters or a domain past 253 is the row\'s problem, not a rename; counted in characters', () => {
    expect(draftOf(record({ slug: 'a'.repeat(256) }), context())).toEqual({ ok: false, reason: 'slug is longer than 255 characters' });
    expect(draftOf(record({ domain: `${'d'.repeat(250)}.com` }), context())).toEqual({ ok: false, reason: 'domain is longer than 253 characters' });
    // At the bounds (an emoji is one character, a port no part of the name), the row is a link, its slug renamed or skipped.
    expect(drafted({ slug: '😀'.repeat(MAX_SLUG_LENGTH), domain: `${'d'.repeat(249)}.com:8080` }).slugRefusal).toBe('the slug cannot be kept here: Alias must be between 3 and 50 characters');
  });

  test('the bitly row of a 250,000-character short link is refused before it reaches a chunk', () => {
    const parsed = IMPORT_PARSERS.bitly(`id,long_url\nbit.ly/${'a'.repeat(250_000)},https://example.com/x\n`, { nowMs: NOW_MS });
    expect(planImport(parsed, context())).toEqual({ drafts: [], problems: [{ row: 1, reason: 'slug is longer than 255 characters' }] });
  });

  test('a long original id is cut where the link shows it, and the key is made from the whole id', () => {
    const sourceId = `lnk_${'😀'.repeat(300)}`;
    const draft = drafted({ sourceId });
    expect([...draft.importedFrom.sourceId]).toHaveLength(MAX_SOURCE_ID_LENGTH);
    expect(draft.importedFrom.sourceId).toBe(`lnk_${'😀'.repeat(MAX_SOURCE_ID_LENGTH - 5)}…`);
    expect(draft.idempotencyKey).toBe(importIdempotencyKey('bitly', sourceId));
    expect(drafted({ sourceId: 'x'.repeat(MAX_SOURCE_ID_LENGTH) }).importedFrom.sourceId).toBe('x'.repeat(MAX_SOURCE_ID_LENGTH));
  });
});

describe('conflicts: skip leaves the row out, rename makes the link under a new code and says so', () => {
  const generate = () => 'Xy12345';

  test('a slug our rules refuse (characters, length, reserved) is settled like a taken one', () => {
    for (const [slug, why] of [['café', 'Alias may contain only letters, digits and hyphens'], ['ab', 'Alias must be between 3 and 50 characters'], ['docs', 'This alias is reserved and cannot be used']]) {
      const draft = drafted({ slug });
      expect(firstPlacement(draft, 'skip', generate)).toEqual({ kind: 'skip', reason: `the slug cannot be kept here: ${why}` });
      expect(firstPlacement(draft, 'rename', generate)).toEqual({ kind: 'create', code: 'Xy12345', isAlias: false, renamed: `the slug cannot be kept here: ${why}; created as Xy12345` });
    }
  });

  test('a slug that fits is tried as an alias first; a row without one gets a generated code with nothing to report', () => {
    expect(firstPlacement(drafted({ slug: 'spring' }), 'skip', generate)).toEqual({ kind: 'create', code: 'spring', isAlias: true });
    expect(firstPlacement(drafted({ slug: '' }), 'skip', generate)).toEqual({ kind: 'create', code: 'Xy12345', isAlias: false });
  });

  test('a taken slug', () => {
    expect(settleConflict('the slug is taken on this domain', 'skip', generate)).toEqual({ kind: 'skip', reason: 'the slug is taken on this domain' });
    expect(settleConflict('the slug is taken on this domain', 'rename', generate)).toEqual({ kind: 'create', code: 'Xy12345', isAlias: false, renamed: 'the slug is taken on this domain; created as Xy12345' });
  });
});

describe('idempotency: one link per source and original id', () => {
  test('the same file planned twice gives the same keys; the same id from two sources, two keys', () => {
    const plan = () => planImport(IMPORT_PARSERS.shlink(fixture('shlink.csv'), { nowMs: NOW_MS }), context({ source: 'shlink' })).drafts.map(({ draft }) => draft.idempotencyKey);
    expect(plan()).toEqual(plan());
    expect(new Set(plan()).size).toBe(plan().length);
    expect(importIdempotencyKey('bitly', 'x')).not.toBe(importIdempotencyKey('dub', 'x'));
  });

  test('a row repeating an earlier row\'s original id is imported once', () => {
    const plan = planImport({ records: [{ row: 1, record: record() }, { row: 2, record: record({ url: 'https://example.com/other' }) }], problems: [{ row: 3, reason: 'keyword is empty' }] }, context());
    expect(plan.drafts.map(({ row }) => row)).toEqual([1]);
    expect(plan.problems).toEqual([{ row: 2, reason: 'the same link as row 1: imported once' }, { row: 3, reason: 'keyword is empty' }]);
  });

  test('keys have one length whatever the id: any Unicode, any size', () => {
    fc.assert(fc.property(anyText(300), (sourceId) => {
      expect(importIdempotencyKey('kutt', sourceId)).toMatch(/^kutt#[A-Za-z0-9_-]{43}$/);
    }));
  });
});

test('any record of any Unicode maps without throwing to a request the creation path accepts, or a reason', () => {
  const anyRecord = fc.record({
    sourceId: anyText(40), domain: fc.option(anyText(30), { nil: undefined }), slug: anyText(60), url: fc.oneof(fc.webUrl(), anyText(40)),
    title: fc.option(anyText(600), { nil: undefined }), tags: fc.array(anyText(40), { maxLength: 15 }), clicks: fc.nat(),
  }, { requiredKeys: ['sourceId', 'slug', 'url', 'tags', 'clicks'] });
  fc.assert(fc.property(anyRecord, fc.constantFrom('skip', 'rename' as const), (given, onConflict) => {
    const outcome = draftOf(given, context({ workspaceDomains: new Set(['go.example-shop.com']) }));
    const placement = outcome.ok ? firstPlacement(outcome.draft, onConflict, () => 'Gen1234') : undefined;
    expect(outcome.ok ? 'drafted' : outcome.reason).toMatch(/^(drafted|Please provide a valid URL)$/);
    expect(((outcome.ok && outcome.draft.request.tags) || []).filter((tag) => !TAG_PATTERN.test(tag))).toEqual([]);
    expect(placement === undefined || placement.kind === 'skip' || ALIAS_PATTERN.test(placement.code)).toBe(true);
  }));
});
