import { isReservedAlias } from '../../../../functions/shared/domain/links/aliases';
import { generateShortCode, GENERATED_CODE_LENGTH, looksLikeShortCode } from '../../../../functions/shared/domain/links/short-code';

describe('generated short codes', () => {
  const codes = Array.from({ length: 5000 }, generateShortCode);

  it('are 7 base62 characters', () => {
    expect(codes.every((code) => new RegExp(`^[0-9A-Za-z]{${GENERATED_CODE_LENGTH}}$`).test(code))).toBe(true);
  });

  it('do not repeat in practice and are never reserved', () => {
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.some(isReservedAlias)).toBe(false);
  });

  it('use the whole alphabet evenly enough', () => {
    const counts = new Map<string, number>();
    for (const char of codes.join('')) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = (codes.length * GENERATED_CODE_LENGTH) / 62;
    expect(Math.min(...counts.values())).toBeGreaterThan(expected * 0.7);
    expect(Math.max(...counts.values())).toBeLessThan(expected * 1.3);
  });
});

describe('visitor paths', () => {
  it.each(['abc', 'Ab3-x', 'a'.repeat(50)])('%s can be a short code', (code) => {
    expect(looksLikeShortCode(code)).toBe(true);
  });

  it.each(['ab', 'a'.repeat(51), 'a.b', 'a/b', '', 'ünï'])('%j cannot', (code) => {
    expect(looksLikeShortCode(code)).toBe(false);
  });
});
