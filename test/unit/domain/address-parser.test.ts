import type * as ClientKey from '../../../functions/shared/http/client-key';
import type * as UrlPolicy from '../../../functions/shared/domain/links/url-policy';

/**
 * Issue 28 (cold start): ipaddr.js builds IANA's special-purpose blocks as objects when it loads, so it is loaded
 * where an address is first parsed, not when a function starts. The functions' common paths parse none: a visitor's
 * dotted quad is counted as it is, a destination named by host needs no address parser.
 */
describe('the address parser (ipaddr.js)', () => {
  function modulesWatchingIpaddr() {
    const loads: string[] = [];
    jest.doMock('ipaddr.js', () => {
      loads.push('ipaddr.js');
      return jest.requireActual('ipaddr.js');
    });
    /* eslint-disable @typescript-eslint/no-require-imports -- a fresh copy of each module, after the mock above */
    const { countedNetwork } = require('../../../functions/shared/http/client-key') as typeof ClientKey;
    const { isAcceptableDestination, isPublicAddress } = require('../../../functions/shared/domain/links/url-policy') as typeof UrlPolicy;
    /* eslint-enable @typescript-eslint/no-require-imports */
    return { loads, countedNetwork, isAcceptableDestination, isPublicAddress };
  }

  it('is not loaded by importing its users, counting an IPv4 visitor or accepting a destination named by host', () => {
    jest.isolateModules(() => {
      const { loads, countedNetwork, isAcceptableDestination } = modulesWatchingIpaddr();
      expect(countedNetwork('203.0.113.9')).toBe('203.0.113.9');
      expect(isAcceptableDestination('https://例え.jp/パス')).toBe(true);
      expect(loads).toEqual([]);
    });
  });

  it('is loaded once, by the first address that needs parsing, and answers as before', () => {
    jest.isolateModules(() => {
      const { loads, countedNetwork, isAcceptableDestination, isPublicAddress } = modulesWatchingIpaddr();
      expect(countedNetwork('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
      expect(isAcceptableDestination('http://[::1]/')).toBe(false);
      expect(isPublicAddress('2606:4700::1111')).toBe(true);
      // Outside 2000::/3, the only global unicast IANA has allocated: refused by the block parsed on first use.
      expect(isPublicAddress('4000::1')).toBe(false);
      expect(loads).toEqual(['ipaddr.js']);
    });
  });
});
