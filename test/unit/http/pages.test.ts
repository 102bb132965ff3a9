import { escapeHtml, passwordPage, PAGE_CONTENT_SECURITY_POLICY } from '../../../functions/shared/http/pages';
import { wantsJson } from '../../../functions/shared/http/visitor-request';
import { cookieValue, csrfTokensMatch } from '../../../functions/shared/http/csrf';

describe('visitor pages', () => {
  it('escape every dynamic value', () => {
    expect(escapeHtml(`<script>alert("x")</script>&'`)).toBe('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#38;&#39;');
    const page = passwordPage('abc', '"><img src=x onerror=alert(1)>', '<b>bad</b>');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<b>');
  });

  it('post the password to the link with the query the visitor came with, encoded and escaped', () => {
    const page = passwordPage('abc', 't', undefined, [['ref', 'news"><img src=x>'], ['utm_source', 'ünï & co'], ['flag', '']]);
    const action = /<form method="post" action="([^"]*)">/.exec(page)?.[1];
    expect(action).toBe('/abc?ref=news%22%3E%3Cimg%20src%3Dx%3E&#38;utm_source=%C3%BCn%C3%AF%20%26%20co&#38;flag=');
    expect(page).not.toContain('<img');
    expect(passwordPage('abc', 't')).toContain('<form method="post" action="/abc">');
    // A lone surrogate no UTF-8 can carry becomes U+FFFD, as a decoder makes it, rather than a URIError (a 500).
    expect(passwordPage('abc', 't', undefined, [['q', 'a\ud800b']])).toContain('action="/abc?q=a%EF%BF%BDb"');
  });

  it('allow no script and no framing', () => {
    expect(PAGE_CONTENT_SECURITY_POLICY).toMatch(/^default-src 'none'/);
    expect(PAGE_CONTENT_SECURITY_POLICY).not.toContain('script-src');
    expect(PAGE_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(PAGE_CONTENT_SECURITY_POLICY).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
  });
});

describe('content negotiation', () => {
  it.each([
    ['application/json', true],
    ['application/json, */*', true],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
    ['text/html, application/json', false],
    ['*/*', false],
    [undefined, false],
  ])('Accept %j wants JSON: %s', (accept, expected) => {
    expect(wantsJson(accept)).toBe(expected);
  });
});

describe('the CSRF double submit', () => {
  it('reads the cookie among others and compares tokens exactly', () => {
    expect(cookieValue('a=1; shortener_csrf=tok; b=2', 'shortener_csrf')).toBe('tok');
    expect(csrfTokensMatch('tok', 'tok')).toBe(true);
    expect(csrfTokensMatch('tok', 'toK')).toBe(false);
    expect(csrfTokensMatch(undefined, 'tok')).toBe(false);
    expect(csrfTokensMatch('tok', '')).toBe(false);
    // Same UTF-16 length, different byte lengths: once a 500 (timingSafeEqual throws on unequal buffers).
    expect(csrfTokensMatch('a', 'é')).toBe(false);
    expect(csrfTokensMatch('😀', 'ab')).toBe(false);
  });
});
