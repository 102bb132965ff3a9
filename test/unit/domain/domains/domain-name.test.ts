import fc from 'fast-check';
import { InvalidRequest } from '../../../../functions/shared/domain/errors';
import { claimableDomain } from '../../../../functions/shared/domain/domains/domain-name';
import { asciiDomain } from '../../../../functions/shared/domain/domains/host-name';
import { OwnMessages } from '../../../../functions/shared/domain/messages';
import { anyText } from '../../../support/unicode-arbitraries';

const own = ['sho.rt', 'abc123.execute-api.eu-west-1.amazonaws.com'];
/** What addDomain makes of a name (a string by its schema): the stored form, or the 400 naming domain. */
function parse(name: unknown): string {
  const claimable = typeof name === 'string' ? claimableDomain(name, own) : undefined;
  if (!claimable) throw new InvalidRequest(OwnMessages.domainInvalid);
  return claimable;
}

describe('a custom domain name', () => {
  it.each([
    ['go.acme.com', 'go.acme.com'],
    ['Go.ACME.com.', 'go.acme.com'],
    ['links.acme.co.uk', 'links.acme.co.uk'],
    ['acme.com', 'acme.com'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['пример.рф', 'xn--e1afmkfd.xn--p1ai'],
  ])('accepts %s, stored as %s', (input, stored) => {
    expect(parse(input)).toBe(stored);
  });

  it.each([
    ['an IP address', '192.0.2.1'],
    ['an IPv6 address', '[2001:db8::1]'],
    ['localhost', 'localhost'],
    ['a single label', 'acme'],
    ['a public suffix itself', 'co.uk'],
    ['a name under no real suffix', 'go.acme.zz'],
    ['a special-use name', 'go.acme.test'],
    ['a CloudFront name', 'd111111abcdef8.cloudfront.net'],
    ['an AWS name', 'bucket.s3.amazonaws.com'],
    ['a name under a provider\'s shared suffix', 'someone.github.io'],
    ['the deployment\'s short domain', 'sho.rt'],
    ['a name under the short domain', 'evil.sho.rt'],
    ['the deployment\'s API host', 'abc123.execute-api.eu-west-1.amazonaws.com'],
    ['a look-alike name', 'pаypal.com'],
    ['a URL, not a name', 'https://go.acme.com/'],
    ['a name with a port', 'go.acme.com:443'],
    ['a name with an empty label', 'go..acme.com'],
    ['a label of 64 characters', `${'a'.repeat(64)}.com`],
    ['a name of 254 characters', `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(8)}.com`],
    ['a number', 42],
    ['nothing', undefined],
  ])('refuses %s, naming domain', (_what, input) => {
    expect(() => parse(input)).toThrow(new InvalidRequest(OwnMessages.domainInvalid));
  });

  it('either stores lower-case ASCII or refuses with a 400, for any Unicode text', () => {
    fc.assert(
      fc.property(fc.oneof(anyText(60), anyText(8).map((label) => `go.${label}.com`)), (input) => {
        let outcome: string | Error;
        try {
          outcome = parse(input);
        } catch (error) {
          outcome = error as Error;
        }
        const acceptable = outcome instanceof InvalidRequest || (typeof outcome === 'string' && /^[a-z0-9.-]+$/.test(outcome) && asciiDomain(outcome) === outcome);
        expect(acceptable).toBe(true);
      }),
    );
  });
});
