/** The links and visitors the redirect benchmarks share (bench:redirect, bench:ab), so both measure the same visits. */

/** A customer's domain, resolved to 127.0.0.1 through the stack's LOCAL_HOSTS_FILE. */
export const CUSTOM_DOMAIN = 'go.bench-example.com';

/** Twenty rules of every kind of condition, none of which the bench's visitor meets (so all are read), and 4 variants. */
export const SMART_LINK = {
  url: 'https://example.com/hot',
  rules: Array.from({ length: 20 }, (_, index) => ({
    url: `https://example.com/rule-${index}`,
    when: [
      { country: ['DE', 'AT', 'CH'], device: ['desktop'] },
      { language: ['fr', 'pt-BR'], os: ['windows'] },
      { os: ['ios', 'android'] },
      { query: { ref: `campaign-${index}`, promo: true } },
      { after: '2099-01-01T00:00:00Z', device: ['desktop'] },
    ][index % 5],
  })),
  variants: [1, 2, 3, 4].map((index) => ({ url: `https://example.com/variant-${index}`, weight: 25 })),
  forwardQuery: true,
  utm: { source: 'bench', campaign: 'smart' },
};

/** A browser no rule matches, without a variant cookie: a variant is drawn and its cookie set on every visit. */
export const SMART_VISITOR = {
  'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36',
  'accept-language': 'en-US,en;q=0.9,es;q=0.5',
  'cloudfront-viewer-country': 'US',
};
