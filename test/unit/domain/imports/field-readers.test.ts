import { placeOf, readCount, readDate, shortLinkParts } from '../../../../functions/shared/domain/imports/field-readers';

describe('dates as the peers write them', () => {
  test.each([
    ['2024-03-07T10:15:00Z', '2024-03-07T10:15:00.000Z'],
    ['2024-03-07T10:15:00+0200', '2024-03-07T08:15:00.000Z'],
    ['2024-03-07T10:15:00.123456-05:30', '2024-03-07T15:45:00.123Z'],
    ['2024-03-07 10:15:00', '2024-03-07T10:15:00.000Z'],
    ['2024-03-07', '2024-03-07T00:00:00.000Z'],
    ['1709806500', '2024-03-07T10:15:00.000Z'],
    ['1709806500123', '2024-03-07T10:15:00.123Z'],
    ['  ', undefined],
  ])('%j is %j', (cell, iso) => {
    expect(readDate('d', cell)).toEqual({ ok: true, value: iso });
  });

  test.each(['2024-02-30', '2024-13-01', '0000-00-00 00:00:00', '1970-01-01', 'yesterday', '07/03/2024', '2024-03-07T25:00:00Z', '17098065001'])('%j is no date', (cell) => {
    expect(readDate('created_at', cell)).toEqual({ ok: false, reason: 'created_at is not a date (ISO 8601, or seconds or milliseconds since 1970)' });
  });
});

test('click totals: thousands separators, JSON numbers; negatives, fractions and words refused', () => {
  expect(readCount('c', '1,234,567')).toEqual({ ok: true, value: 1234567 });
  expect(readCount('c', '')).toEqual({ ok: true, value: 0 });
  expect(readCount('c', 12)).toEqual({ ok: true, value: 12 });
  for (const cell of ['-1', '1.5', '12,34', 'many', 1.5, -3, 1e16]) expect(readCount('c', cell)).toEqual({ ok: false, reason: 'c is not a whole number of clicks' });
});

test('short links: scheme optional, host lower-cased, the whole path decoded as the slug, no URL normalisation', () => {
  expect(shortLinkParts('l', 'HTTPS://Bit.LY/Ab%20c')).toEqual({ ok: true, value: { domain: 'bit.ly', slug: 'Ab c' } });
  expect(shortLinkParts('l', 'bit.ly/a/../b\\c')).toEqual({ ok: true, value: { domain: 'bit.ly', slug: 'a/../b\\c' } });
  expect(shortLinkParts('l', 'bit.ly/100%')).toEqual({ ok: true, value: { domain: 'bit.ly', slug: '100%' } });
  expect(shortLinkParts('l', 'bit.ly/')).toEqual({ ok: false, reason: 'l is not a short link (domain/slug)' });
  expect(shortLinkParts('l', 'just text')).toEqual({ ok: false, reason: 'l is not a short link (domain/slug)' });
});

test('a slug column wins over the short URL; the domain comes from its column, else the short URL\'s host', () => {
  expect(placeOf('abc', '', 'https://S.example/zzz')).toEqual({ ok: true, value: { domain: 's.example', slug: 'abc' } });
  expect(placeOf('abc', 'Own.Example', 'https://s.example/zzz')).toEqual({ ok: true, value: { domain: 'own.example', slug: 'abc' } });
  expect(placeOf('abc', undefined, undefined)).toEqual({ ok: true, value: { slug: 'abc' } });
  expect(placeOf('', undefined, 's.example/x')).toEqual({ ok: true, value: { domain: 's.example', slug: 'x' } });
  expect(placeOf(undefined, undefined, '')).toEqual({ ok: false, reason: 'slug is empty' });
});
