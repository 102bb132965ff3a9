import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LINK_MEMORY_SECONDS } from '../../functions/shared/domain/links/cache-lease';
import { Messages, OwnMessages } from '../../functions/shared/domain/messages';
import { StackOutputs } from '../../lib/stack-outputs';
import { asCloudFront, createApiKey, dynamo, eventually, http, jsonHeaders, setFlag, stackOutput, type HttpResult } from '../support/local-stack';

/**
 * Issue 18 end to end: smart links created through the API and visited through the local stack, the visitor's
 * country, device, operating system, languages, query string and cookie sent as CloudFront would pass them on.
 */
jest.setTimeout(90_000);

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 19_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.0 Mobile/15E148 Safari/604.1';
const PIXEL = 'Mozilla/5.0 (Linux; Android 16; Pixel 10) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 15_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.0 Safari/605.1.15';

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createApiKey('PRO'));
});

const api = (method: string, path: string, body?: object, key = apiKey) => http(method, path, { headers: jsonHeaders(key), ...(body ? { body } : {}) });

async function shorten(fields: Record<string, unknown>): Promise<string> {
  const response = await api('POST', '/v2/shorten', { url: 'https://example.com/default', ...fields });
  expect(response.status).toBe(201);
  return response.json<{ shortCode: string }>().shortCode;
}

/** Visits as CloudFront passes them on: its viewer country is believed only beside the origin secret. */
const visit = async (code: string, headers: Record<string, string> = {}, query = '', method = 'GET') =>
  http(method, `/${code}${query}`, { headers: await asCloudFront({ 'user-agent': WINDOWS, ...headers }) });

/** Where the visit went, relative to https://example.com/ (the destinations of these tests). */
const landing = (response: HttpResult) => {
  expect(response.status).toBe(302);
  return String(response.headers.location).replace('https://example.com/', '');
};

const target = (name: string) => `https://example.com/${name}`;

describe('rules', () => {
  it('send each visitor by country, device, operating system, language, query and date, the first rule that holds winning', async () => {
    const code = await shorten({
      rules: [
        { url: target('de-iphone'), when: { country: ['DE'], os: ['ios'] } },
        { url: target('germany'), when: { country: ['de', 'AT'] } },
        { url: target('app-store'), when: { os: ['ios'] } },
        { url: target('play'), when: { os: ['android'], device: ['mobile'] } },
        { url: target('french'), when: { language: ['fr'] } },
        { url: target('spanish'), when: { language: ['es'] } },
        { url: target('mail'), when: { query: { ref: 'mail' } } },
        { url: target('promo'), when: { query: { promo: true } } },
        { url: target('launch'), when: { after: '2020-01-01T00:00:00Z', before: '2099-01-01T00:00:00Z', device: ['desktop'], os: ['macos'] } },
        { url: target('never'), when: { before: '2020-01-01T00:00:00Z' } },
      ],
    });
    expect(landing(await visit(code, { 'cloudfront-viewer-country': 'DE', 'user-agent': IPHONE }))).toBe('de-iphone');
    expect(landing(await visit(code, { 'cloudfront-viewer-country': 'AT', 'user-agent': IPHONE }))).toBe('germany');
    expect(landing(await visit(code, { 'cloudfront-viewer-country': 'US', 'user-agent': IPHONE }))).toBe('app-store');
    expect(landing(await visit(code, { 'user-agent': PIXEL }))).toBe('play');
    expect(landing(await visit(code, { 'accept-language': 'it-IT, es;q=0.8, fr;q=0.5' }))).toBe('spanish');
    expect(landing(await visit(code, { 'accept-language': 'fr-CA, es;q=0.9' }))).toBe('french');
    expect(landing(await visit(code, { 'accept-language': 'fr;q=0, es;q=0' }))).toBe('default');
    expect(landing(await visit(code, {}, '?ref=mail'))).toBe('mail');
    expect(landing(await visit(code, {}, '?ref=Mail'))).toBe('default');
    expect(landing(await visit(code, {}, '?promo'))).toBe('promo');
    expect(landing(await visit(code, { 'user-agent': MAC }))).toBe('launch');
    expect(landing(await visit(code, { 'user-agent': WINDOWS, 'cloudfront-viewer-country': 'FR' }))).toBe('default');
  });

  it('answer with private, no-store, while a plain link keeps its browser copy', async () => {
    const smart = await shorten({ rules: [{ url: target('de'), when: { country: ['DE'] } }] });
    const plain = await shorten({ utm: { source: 'news' } });
    expect((await visit(smart)).headers['cache-control']).toBe('private, no-store');
    expect((await visit(smart, { 'cloudfront-viewer-country': 'DE' })).headers['cache-control']).toBe('private, no-store');
    await visit(plain);
    expect((await visit(plain)).headers['cache-control']).toBe('private, max-age=30');
  });

  it('show in the view as stored, and are replaced as a whole or removed by PATCH', async () => {
    const rules = [{ url: target('de'), when: { country: ['de'], language: ['pt-br'] } }];
    const code = await shorten({ rules, forwardQuery: true, utm: { campaign: 'spring' }, expiredUrl: target('over') });
    const view = (await api('GET', `/v2/links/${code}`)).json();
    expect(view).toMatchObject({ rules: [{ url: target('de'), when: { country: ['DE'], language: ['pt-BR'] } }], forwardQuery: true, utm: { campaign: 'spring' }, expiredUrl: target('over') });
    const changed = await api('PATCH', `/v2/links/${code}`, { rules: [{ url: target('ios'), when: { os: ['ios'] } }], forwardQuery: false, utm: null });
    expect(changed.status).toBe(200);
    expect(changed.json()).toMatchObject({ rules: [{ url: target('ios'), when: { os: ['ios'] } }], expiredUrl: target('over') });
    expect(changed.json()).not.toHaveProperty('forwardQuery');
    expect(changed.json()).not.toHaveProperty('utm');
    expect((await api('PATCH', `/v2/links/${code}`, { rules: null })).json()).not.toHaveProperty('rules');
  });

  it('changed by PATCH reach visitors within the documented bound (the redirect\'s memory; no browser keeps them)', async () => {
    const code = await shorten({ rules: [{ url: target('before-edit'), when: { country: ['DE'] } }] });
    const german = { 'cloudfront-viewer-country': 'DE' };
    expect(landing(await visit(code, german))).toBe('before-edit');
    expect((await api('PATCH', `/v2/links/${code}`, { rules: [{ url: target('after-edit'), when: { country: ['DE'] } }] })).status).toBe(200);
    const started = Date.now();
    await eventually(async () => expect(landing(await visit(code, german))).toBe('after-edit'), (LINK_MEMORY_SECONDS + 5) * 1000);
    expect(Date.now() - started).toBeLessThanOrEqual((LINK_MEMORY_SECONDS + 5) * 1000);
  });
});

describe('variants', () => {
  const variants = [
    { url: target('a'), weight: 75 },
    { url: target('b'), weight: 25 },
  ];

  it('give a browser a variant in a cookie holding only its index, and keep it on that variant', async () => {
    const code = await shorten({ variants });
    const first = await visit(code);
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^shortener_variant=[01]; Path=/${code}; HttpOnly; SameSite=Lax; Max-Age=2592000$`));
    const kept = cookie.split(';')[0] ?? '';
    const destination = landing(first);
    for (let i = 0; i < 10; i += 1) {
      const again = await visit(code, { cookie: `other=1; ${kept}` });
      expect(landing(again)).toBe(destination);
      expect(again.headers['set-cookie']).toBeUndefined();
    }
    const stale = await visit(code, { cookie: 'shortener_variant=7' });
    expect(String(stale.headers['set-cookie'])).toMatch(/^shortener_variant=[01];/);
  });

  it('split browsers without a cookie by weight (1,000 visits within 6 points)', async () => {
    const code = await shorten({ variants });
    const landed: string[] = [];
    for (let batch = 0; batch < 50; batch += 1) {
      landed.push(...(await Promise.all(Array.from({ length: 20 }, async () => landing(await visit(code))))));
    }
    const share = landed.filter((name) => name === 'a').length / landed.length;
    expect(Math.abs(share - 0.75)).toBeLessThanOrEqual(0.06);
  });

  it('are counted per destination in the stats, so an A/B test can be read off', async () => {
    const code = await shorten({ variants, rules: [{ url: target('de'), when: { country: ['DE'] } }] });
    for (let i = 0; i < 3; i += 1) await visit(code, { cookie: 'shortener_variant=0' });
    for (let i = 0; i < 2; i += 1) await visit(code, { cookie: 'shortener_variant=1' });
    await visit(code, { 'cloudfront-viewer-country': 'DE' });
    await visit(code, {}, '', 'HEAD');
    await eventually(async () => {
      const stats = (await api('GET', `/v2/links/${code}/stats`)).json<{ total: number; destinations: Record<string, number> }>();
      expect(stats.destinations).toEqual({ 'variants[0]': 3, 'variants[1]': 2, 'rules[0]': 1 });
      expect(stats.total).toBe(6);
    }, 30_000);
  });
});

describe('query forwarding and UTM tags', () => {
  it('append the visitor\'s parameters (the destination\'s own win), encoded, and set utm_* over the destination\'s', async () => {
    const code = await shorten({ url: 'https://example.com/shop?ref=site&utm_source=old#top', forwardQuery: true, utm: { source: 'news letter', medium: 'email' } });
    const response = await visit(code, {}, '?ref=visitor&q=caf%C3%A9%20cr%C3%A8me&utm_medium=visitor&tag=a&tag=b');
    expect(response.headers.location).toBe('https://example.com/shop?ref=site&q=caf%C3%A9%20cr%C3%A8me&tag=a&tag=b&utm_source=news%20letter&utm_medium=email#top');
  });

  it('are off by default: the visitor\'s query does not reach a plain link\'s destination', async () => {
    const code = await shorten({ url: 'https://example.com/shop?x=1' });
    expect((await visit(code, {}, '?session=secret')).headers.location).toBe('https://example.com/shop?x=1');
  });
});

describe('expiredUrl', () => {
  const expire = (code: string) =>
    dynamo().send(new UpdateCommand({ TableName: stackOutput(StackOutputs.linksTable), Key: { code }, UpdateExpression: 'SET expiresAt = :past', ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() } }));

  it('takes visitors of an expired, used-up or deleted link there (302, no-store) instead of 404 or 410', async () => {
    const expired = await shorten({ expiresIn: 3600, expiredUrl: target('expired') });
    await expire(expired);
    const afterExpiry = await visit(expired);
    expect([afterExpiry.status, afterExpiry.headers.location, afterExpiry.headers['cache-control']]).toEqual([302, target('expired'), 'no-store']);

    const limited = await shorten({ maxClicks: 1, expiredUrl: target('used-up'), variants: [{ url: target('a'), weight: 50 }, { url: target('b'), weight: 50 }] });
    expect(['a', 'b']).toContain(landing(await visit(limited)));
    expect(landing(await visit(limited))).toBe('used-up');

    const deleted = await shorten({ expiredUrl: target('deleted') });
    expect((await api('DELETE', `/v2/links/${deleted}`)).status).toBe(204);
    await eventually(async () => expect(landing(await visit(deleted))).toBe('deleted'), (LINK_MEMORY_SECONDS + 5) * 1000);
    expect((await api('GET', `/v2/links/${deleted}`)).json()).toMatchObject({ status: 'deleted', expiredUrl: target('deleted') });
  });

  it('works behind a password: the password first, then the rules, and once used up, the expiredUrl', async () => {
    const code = await shorten({ password: 'open sesame', maxClicks: 1, expiredUrl: target('over'), rules: [{ url: target('de'), when: { country: ['DE'] } }] });
    expect((await visit(code, { accept: 'text/html', 'cloudfront-viewer-country': 'DE' })).status).toBe(200);
    const form = await visit(code, { accept: 'text/html' });
    const token = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    const cookie = String(form.headers['set-cookie']).split(';')[0] ?? '';
    const posted = await http('POST', `/${code}`, {
      headers: await asCloudFront({ 'content-type': 'application/x-www-form-urlencoded', cookie, 'cloudfront-viewer-country': 'DE', 'user-agent': WINDOWS }),
      body: new URLSearchParams({ password: 'open sesame', csrf: token }).toString(),
    });
    expect(landing(posted)).toBe('de');
    expect(landing(await visit(code))).toBe('over');
  });
});

describe('refusals', () => {
  it('name the field of a bad condition or URL, in the spec\'s 400 shape', async () => {
    const cases: Array<[object, string]> = [
      [{ rules: [{ url: target('x'), when: { planet: ['mars'] } }] }, `rules[0].when: ${OwnMessages.conditionUnknown('planet')}`],
      [{ rules: [{ url: target('x'), when: { country: ['ZZ'] } }] }, `rules[0].when.country[0]: ${OwnMessages.countryUnknown}`],
      [{ rules: [{ url: target('x'), when: { after: '2027-01-02T00:00:00Z', before: '2027-01-01T00:00:00Z' } }] }, `rules[0].when: ${OwnMessages.windowEmpty}`],
      [{ rules: [{ url: target('x'), when: { os: ['ios'] } }, { url: 'http://169.254.169.254/', when: { os: ['ios'] } }] }, `rules[1].url: ${Messages.invalidUrl}`],
      [{ variants: [{ url: target('a'), weight: 60 }, { url: target('b'), weight: 60 }] }, `variants: ${OwnMessages.variantWeightsTotal}`],
      [{ expiredUrl: 'https://xn--80ak6aa92e.com/' }, `expiredUrl: ${Messages.unsafeUrl}`],
    ];
    for (const [fields, message] of cases) {
      const response = await api('POST', '/v2/shorten', { url: target('x'), ...fields });
      expect([response.status, response.json<{ message: string }>().message]).toEqual([400, message]);
    }
    const batch = await api('POST', '/v2/shorten/batch', { urls: [{ url: target('ok'), rules: [{ url: target('de'), when: { country: ['DE'] } }] }, { url: target('bad'), utm: { source: '' } }] });
    expect(batch.json()).toMatchObject({ results: [{ index: 0, success: true }, { index: 1, success: false, error: `utm.source: ${OwnMessages.utmValue}` }] });
  });

  it('keep rules and variants to PRO and up (403), and follow the smartLinks flag (400, visitors sent to the url)', async () => {
    const { apiKey: indie } = await createApiKey('INDIE');
    const refused = await api('POST', '/v2/shorten', { url: target('x'), variants: [{ url: target('a'), weight: 50 }, { url: target('b'), weight: 50 }] }, indie);
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ feature: 'smartLinks', currentPlan: 'INDIE', message: 'Smart links (rules and variants) require the PRO plan or higher.' });
    expect((await api('POST', '/v2/shorten', { url: target('x'), forwardQuery: true, utm: { source: 's' }, expiredUrl: target('over') }, indie)).status).toBe(201);

    const code = await shorten({ rules: [{ url: target('de'), when: { country: ['DE'] } }] });
    await setFlag('smartLinks', false);
    try {
      await eventually(async () => {
        const response = await api('POST', '/v2/shorten', { url: target('x'), rules: [{ url: target('de'), when: { country: ['DE'] } }] });
        expect([response.status, response.json<{ message: string }>().message]).toEqual([400, OwnMessages.smartLinksDisabled]);
      });
      await eventually(async () => expect(landing(await visit(code, { 'cloudfront-viewer-country': 'DE' }))).toBe('default'));
    } finally {
      await setFlag('smartLinks', true);
    }
    await eventually(async () => expect(landing(await visit(code, { 'cloudfront-viewer-country': 'DE' }))).toBe('de'));
  });
});
