import { isPublicAddress } from '../../../../functions/shared/domain/links/url-policy';
import { hostPortOf, parseLocalAllowList } from '../../../../functions/shared/domain/webhooks/address-policy';

describe('where a delivery may connect: the destinations\' one policy (issue 27)', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a00:1',
    '2002:a00:1::',
    // Outside 2000::/3, the only IPv6 space IANA has allocated as global unicast.
    '4000::1',
    '1000::1',
    'c000::1',
    // IPv4 inside IPv6, public or not: nothing legitimate answers there.
    '::ffff:93.184.215.14',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '2a00:1450:4001:80b::200e'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('a local run\'s receivers (LOCAL_WEBHOOK_ALLOW)', () => {
  it('are host:port pairs; anything else in the list is ignored', () => {
    expect([...parseLocalAllowList(' 127.0.0.1:8080,localhost:9000 ,[::1]:7000, 10.0.0.1, :80, host:port,')]).toEqual(['127.0.0.1:8080', 'localhost:9000', '[::1]:7000']);
    expect(parseLocalAllowList(undefined).size).toBe(0);
  });

  it('are matched with default ports spelled out', () => {
    expect(hostPortOf(new URL('http://LOCALHOST/x'))).toBe('localhost:80');
    expect(hostPortOf(new URL('https://127.0.0.1/x'))).toBe('127.0.0.1:443');
    expect(hostPortOf(new URL('http://[::1]:7000/x'))).toBe('[::1]:7000');
  });
});
