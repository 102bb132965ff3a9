import { asciiLocation, isAcceptableDestination, MAX_URL_LENGTH, normaliseDestination } from '../../../../functions/shared/domain/links/url-policy';

describe('destination URLs', () => {
  it.each([
    'https://example.com',
    'http://example.com/path?q=1#frag',
    'https://sub.domain.example.co.uk:8443/a/b',
    'https://xn--bcher-kva.de/',
    'https://8.8.8.8/dns',
    'https://[2001:4860:4860::8888]/',
    'https://example.org/',
    'HTTPS://EXAMPLE.COM/UPPER',
  ])('accepts %s', (url) => {
    expect(isAcceptableDestination(url)).toBe(true);
  });

  it.each([
    ['no protocol', 'example.com'],
    ['protocol-relative', '//example.com'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['file:', 'file:///etc/passwd'],
    ['ftp:', 'ftp://example.com'],
    ['credentials', 'https://user:pass@example.com'],
    ['a user name alone', 'https://user@example.com'],
    ['localhost', 'http://localhost:3000'],
    ['a .localhost name', 'http://app.localhost'],
    ['loopback', 'http://127.0.0.1/'],
    ['loopback as a decimal number', 'http://2130706433/'],
    ['loopback in hex', 'http://0x7f.0.0.1/'],
    ['private 10/8', 'http://10.1.2.3/'],
    ['private 172.16/12', 'http://172.20.0.1/'],
    ['private 192.168/16', 'http://192.168.1.1/'],
    ['link-local metadata', 'http://169.254.169.254/latest/meta-data'],
    ['carrier-grade NAT', 'http://100.64.0.1/'],
    ['unspecified', 'http://0.0.0.0/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['IPv6 unique local', 'http://[fd00::1]/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/'],
    ['a single-label host', 'http://intranet/'],
    ['an .internal name', 'https://db.internal/'],
    ['a numeric top-level domain', 'http://example.123/'],
    ['whitespace inside', 'https://exa mple.com'],
    ['a control character', 'https://example.com/\u0007'],
    ['an empty string', ''],
    ['NAT64 of 10.0.0.1', 'http://[64:ff9b::a00:1]/'],
    ['6to4 of 10.0.0.1', 'http://[2002:a00:1::]/'],
    ['IPv4-compatible loopback', 'http://[::127.0.0.1]/'],
    ['IPv6 site-local', 'http://[fec0::1]/'],
    ['Teredo', 'http://[2001::1]/'],
    ['IPv6 documentation', 'http://[2001:db8::1]/'],
    ['IPv4 documentation (TEST-NET-1)', 'http://192.0.2.1/'],
    ['IPv4 documentation (TEST-NET-2)', 'http://198.51.100.7/'],
    ['IPv4 documentation (TEST-NET-3)', 'http://203.0.113.9/'],
    ['IPv4 benchmarking', 'http://198.18.0.1/'],
    ['broadcast', 'http://255.255.255.255/'],
    ['6to4 relay anycast', 'http://192.88.99.1/'],
    ['a .test name', 'https://example.test/'],
    ['an .invalid name', 'https://example.invalid/'],
    ['an .example name', 'https://shop.example/'],
    ['an .onion name', 'http://duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion/'],
    ['a reverse-DNS .arpa name', 'http://1.0.0.127.in-addr.arpa/'],
    ['too long', `https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`],
  ])('refuses %s', (_why, url) => {
    expect(isAcceptableDestination(url)).toBe(false);
  });
});

describe('the stored form of a destination', () => {
  it.each([
    ['a path and query in Unicode', 'https://example.com/über?q=ä', 'https://example.com/%C3%BCber?q=%C3%A4'],
    ['a Unicode host', 'https://münchen.de/straße', 'https://xn--mnchen-3ya.de/stra%C3%9Fe'],
    ['a fragment', 'https://example.com/#größe', 'https://example.com/#gr%C3%B6%C3%9Fe'],
    ['an astral character', 'https://example.com/😀', 'https://example.com/%F0%9F%98%80'],
    ['upper-case scheme and host', 'HTTPS://EXAMPLE.COM/UPPER', 'https://example.com/UPPER'],
    ['a bare host', 'https://example.com', 'https://example.com/'],
  ])('is the WHATWG serialization for %s', (_why, input, stored) => {
    expect(normaliseDestination(input)).toBe(stored);
  });

  it('is always ASCII', () => {
    expect(normaliseDestination('https://пример.рф/путь?ключ=значение#якорь')).toMatch(/^[\x21-\x7e]+$/);
  });

  it('refuses a URL whose encoded form is longer than the limit', () => {
    expect(normaliseDestination(`https://example.com/${'ü'.repeat(700)}`)).toBeUndefined();
  });

  it('turns a destination stored raw before normalisation into an ASCII Location', () => {
    expect(asciiLocation('https://example.com/über?q=ä')).toBe('https://example.com/%C3%BCber?q=%C3%A4');
  });
});
