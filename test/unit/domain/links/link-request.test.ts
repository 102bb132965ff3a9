import { InvalidRequest } from '../../../../functions/shared/domain/errors';
import { linkPatchSchema, parseLinkRequest } from '../../../../functions/shared/domain/links/link-request';
import { smartLinkPatchShape } from '../../../../functions/shared/domain/destinations/smart-link-request';
import { Messages, OwnMessages } from '../../../../functions/shared/domain/messages';

const url = 'https://example.com/';

function messageFor(input: unknown): string {
  try {
    parseLinkRequest(input);
  } catch (error) {
    if (error instanceof InvalidRequest) return error.message;
    throw error;
  }
  throw new Error('expected the request to be refused');
}

describe('tags (issue 20)', () => {
  it('are kept lower-cased without repeats; null is none', () => {
    expect(parseLinkRequest({ url, tags: ['Spring', 'promo_2026', 'SPRING', 'a-b'] }).tags).toEqual(['spring', 'promo_2026', 'a-b']);
    expect(parseLinkRequest({ url, tags: null })).toEqual({ url });
    expect(parseLinkRequest({ url, tags: 'x'.repeat(32).split('').slice(0, 10) }).tags).toEqual(['x']);
  });

  it.each([
    [['spring sale']],
    [['']],
    [['x'.repeat(33)]],
    [['ünïcode']],
    [Array.from({ length: 11 }, (_, index) => `t${index}`)],
    ['spring'],
    [[1]],
  ])('refuse %j with one message', (tags) => {
    expect(messageFor({ url, tags })).toBe(OwnMessages.tagsInvalid);
  });
});

describe('a link request', () => {
  it('keeps the fields it was given and ignores unknown ones', () => {
    expect(parseLinkRequest({ url, alias: 'my-link', password: 'secret', expiresIn: 60, maxClicks: 1, extra: true })).toEqual({
      url,
      alias: 'my-link',
      password: 'secret',
      expiresIn: 60,
      maxClicks: 1,
    });
  });

  it('treats null optional fields as absent', () => {
    expect(parseLinkRequest({ url, alias: null, password: null, expiresIn: null, maxClicks: null })).toEqual({ url });
  });

  it('trims the URL', () => {
    expect(parseLinkRequest({ url: `  ${url}  ` }).url).toBe(url);
  });

  it.each([
    [{}, Messages.invalidUrl],
    [{ url: 42 }, Messages.invalidUrl],
    [{ url: 'not a url' }, Messages.invalidUrl],
    [{ url, alias: 'ab' }, Messages.aliasLength],
    [{ url, alias: 'a'.repeat(51) }, Messages.aliasLength],
    [{ url, alias: 'has space' }, OwnMessages.aliasCharacters],
    [{ url, alias: 'ünïcode' }, OwnMessages.aliasCharacters],
    [{ url, alias: 123 }, OwnMessages.fieldType('alias', 'string')],
    [{ url, password: 'abc' }, Messages.passwordLength],
    [{ url, password: 'a'.repeat(101) }, Messages.passwordLength],
    [{ url, password: 1234 }, OwnMessages.fieldType('password', 'string')],
    [{ url, expiresIn: 59 }, Messages.expiresInTooShort],
    [{ url, expiresIn: -5 }, Messages.expiresInTooShort],
    [{ url, expiresIn: 60.5 }, OwnMessages.expiresInInvalid],
    [{ url, expiresIn: '3600' }, OwnMessages.expiresInInvalid],
    [{ url, expiresIn: 1e12 }, OwnMessages.expiresInTooLarge],
    [{ url, maxClicks: 0 }, OwnMessages.maxClicksInvalid],
    [{ url, maxClicks: 2.5 }, OwnMessages.maxClicksInvalid],
    [{ url, maxClicks: 'ten' }, OwnMessages.maxClicksInvalid],
    [{ url, maxClicks: 1e10 }, OwnMessages.maxClicksTooLarge],
    ['https://example.com', OwnMessages.itemNotObject],
    [['https://example.com'], OwnMessages.itemNotObject],
    [null, OwnMessages.itemNotObject],
  ])('refuses %j with "%s"', (input, message) => {
    expect(messageFor(input)).toBe(message);
  });

  it('reports the first problem in spec field order', () => {
    expect(messageFor({ url: 'nope', alias: 'x', password: 'y' })).toBe(Messages.invalidUrl);
    expect(messageFor({ url, alias: 'x', password: 'y', expiresIn: 1 })).toBe(Messages.aliasLength);
  });

  it('accepts the boundaries', () => {
    expect(() => parseLinkRequest({ url, alias: 'abc', password: 'abcd', expiresIn: 60, maxClicks: 1 })).not.toThrow();
    expect(() => parseLinkRequest({ url, alias: 'a'.repeat(50), password: 'a'.repeat(100) })).not.toThrow();
  });
});

describe('an edit with nothing to change', () => {
  it('is told every field an edit may set: the link\'s own and the smart-link ones', () => {
    const fields = [...Object.keys(linkPatchSchema().shape), ...Object.keys(smartLinkPatchShape)];
    const listed = /at least one of (.+)$/.exec(OwnMessages.patchEmpty)?.[1]?.split(', ');
    expect(new Set(listed)).toEqual(new Set(fields));
  });
});
