import { variantCookie, variantInCookie } from '../../../functions/shared/http/variant-cookie';

describe('the variant cookie (what a visitor controls)', () => {
  it('holds the index and nothing else, for the link\'s path only, out of scripts\' reach, for 30 days', () => {
    expect(variantCookie(2, 'spring-sale', true)).toBe('shortener_variant=2; Path=/spring-sale; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure');
    expect(variantCookie(0, 'abc1234', false)).toBe('shortener_variant=0; Path=/abc1234; HttpOnly; SameSite=Lax; Max-Age=2592000');
  });

  it('is read as one digit, beside other cookies; anything else a visitor sends is no variant (and a new one is drawn)', () => {
    expect(variantInCookie('a=1; shortener_variant=3; b=2')).toBe(3);
    for (const header of [undefined, '', 'shortener_variant=', 'shortener_variant=-1', 'shortener_variant=01', 'shortener_variant=1e0', `shortener_variant=${'9'.repeat(5000)}`, 'shortener_variant=٣']) {
      expect([header?.slice(0, 40), variantInCookie(header)]).toEqual([header?.slice(0, 40), undefined]);
    }
  });
});
