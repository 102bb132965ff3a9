import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Messages, VisitorMessages } from '../../functions/shared/domain/messages';
import { StackOutputs } from '../../lib/stack-outputs';
import { clearOfWindowEdge, devApiKey, dynamo, http, jsonHeaders, stackOutput, uniqueLoopbackAddress, type HttpResult } from '../support/local-stack';
import { RATE_LIMITS } from '../../functions/shared/domain/limits/rate-limits';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36' };
const API = { accept: 'application/json' };
const SLACK = { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' };

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function createLink(fields: Record<string, unknown>): Promise<string> {
  const response = await http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body: { url: 'https://example.com/destination', ...fields } });
  if (response.status !== 201) throw new Error(`could not create the link: ${response.text}`);
  return response.json<{ shortCode: string }>().shortCode;
}

function expectSecurityHeaders(response: HttpResult): void {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['x-frame-options']).toBe('DENY');
}

function expectPage(response: HttpResult, status: number, text: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['content-security-policy']).toContain("default-src 'none'");
  expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.text).toContain(text);
  expectSecurityHeaders(response);
}

describe('a plain link', () => {
  it('redirects with 302 to its destination, cacheable by the browser for half a minute', async () => {
    const code = await createLink({});
    const response = await http('GET', `/${code}`, { headers: BROWSER });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('https://example.com/destination');
    expect(response.headers['cache-control']).toBe('private, max-age=30');
    expectSecurityHeaders(response);
  });

  it('answers HEAD like GET, without a body', async () => {
    const code = await createLink({});
    const response = await http('HEAD', `/${code}`);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('https://example.com/destination');
    expect(response.text).toBe('');
  });

  it('redirects preview bots as usual', async () => {
    const code = await createLink({});
    expect((await http('GET', `/${code}`, { headers: SLACK })).headers.location).toBe('https://example.com/destination');
  });
});

describe('an unknown code', () => {
  it.each(['/no-such-link-here', '/a.b', '/%3Cscript%3E'])('%s gives a 404 page to browsers', async (path) => {
    const response = await http('GET', path, { headers: BROWSER });
    expectPage(response, 404, 'Link not found');
    expect(response.text).not.toContain('<script>');
  });

  it('gives JSON to API clients', async () => {
    const response = await http('GET', '/no-such-link-here', { headers: API });
    expect(response.status).toBe(404);
    expect(response.json()).toEqual({ statusCode: 404, message: VisitorMessages.notFound, error: 'Not Found' });
  });
});

describe('an expiring link', () => {
  it('redirects without caching until it expires, then answers 404 though DynamoDB has not deleted it yet', async () => {
    const live = await createLink({ expiresIn: 3600 });
    const response = await http('GET', `/${live}`);
    expect(response.status).toBe(302);
    expect(response.headers['cache-control']).toBe('no-store');

    const expired = await createLink({ expiresIn: 60 });
    await dynamo().send(
      new UpdateCommand({
        TableName: stackOutput(StackOutputs.linksTable),
        Key: { code: expired },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    expectPage(await http('GET', `/${expired}`, { headers: BROWSER }), 404, 'Link not found');
  });
});

describe('a maxClicks link', () => {
  it('redirects maxClicks times, then answers 410 Gone forever, as a page or JSON', async () => {
    const code = await createLink({ maxClicks: 3 });
    for (let i = 0; i < 3; i += 1) {
      const response = await http('GET', `/${code}`);
      expect(response.status).toBe(302);
      expect(response.headers['cache-control']).toBe('no-store');
    }
    expectPage(await http('GET', `/${code}`, { headers: BROWSER }), 410, VisitorMessages.gone);
    const later = await http('GET', `/${code}`, { headers: API });
    expect(later.status).toBe(410);
    expect(later.json()).toEqual({ statusCode: 410, message: VisitorMessages.gone, error: 'Gone' });
  });

  it('keeps its code taken once used up', async () => {
    const alias = unique('used-up');
    await createLink({ alias, maxClicks: 1 });
    await http('GET', `/${alias}`);
    const again = await http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body: { url: 'https://example.com', alias } });
    expect(again.json().message).toBe(Messages.aliasTaken);
  });

  it('redirects exactly 10 of 200 concurrent visitors when maxClicks is 10; the others get 410', async () => {
    const code = await createLink({ maxClicks: 10 });
    const responses = await Promise.all(Array.from({ length: 200 }, () => http('GET', `/${code}`, { headers: API })));
    expect(responses.filter((response) => response.status === 302)).toHaveLength(10);
    expect(responses.filter((response) => response.status === 410)).toHaveLength(190);
  });

  it('is not used up by preview bots or HEAD requests', async () => {
    const code = await createLink({ maxClicks: 1 });
    const preview = await http('GET', `/${code}`, { headers: SLACK });
    expectPage(preview, 200, 'Open it in a browser');
    expect(preview.text).not.toContain('example.com/destination');
    expect((await http('HEAD', `/${code}`)).status).toBe(200);
    expect((await http('GET', `/${code}`)).status).toBe(302);
    expect((await http('GET', `/${code}`)).status).toBe(410);
  });
});

describe('a password link', () => {
  async function openForm(code: string, localAddress: string) {
    const response = await http('GET', `/${code}`, { headers: BROWSER, localAddress });
    const cookie = String(response.headers['set-cookie']).split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(response.text)?.[1] ?? '';
    return { response, cookie, csrf };
  }

  const submit = (code: string, password: string, cookie: string, csrf: string, localAddress: string) =>
    http('POST', `/${code}`, {
      headers: { ...BROWSER, 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ password, csrf }).toString(),
      localAddress,
    });

  it('shows a form that reveals nothing, counts nothing, and guards itself with a SameSite cookie', async () => {
    const code = await createLink({ password: 'correct horse', maxClicks: 1 });
    const { response, cookie, csrf } = await openForm(code, uniqueLoopbackAddress());
    expectPage(response, 200, 'This link is protected');
    expect(response.text).toContain('<form method="post" action="/' + code + '">');
    expect(response.text).not.toContain('example.com/destination');
    expect(String(response.headers['set-cookie'])).toMatch(new RegExp(`^shortener_csrf=${csrf}; Path=/${code}; HttpOnly; SameSite=Strict`));
    expect(cookie).toBe(`shortener_csrf=${csrf}`);
    await openForm(code, uniqueLoopbackAddress());
    const address = uniqueLoopbackAddress();
    const form = await openForm(code, address);
    expect((await submit(code, 'correct horse', form.cookie, form.csrf, address)).status).toBe(302);
  });

  it('answers a wrong password with 401 and the form, and the right one with 302 to the destination', async () => {
    const code = await createLink({ password: 'correct horse' });
    const address = uniqueLoopbackAddress();
    const { cookie, csrf } = await openForm(code, address);
    const wrong = await submit(code, 'wrong horse', cookie, csrf, address);
    expectPage(wrong, 401, VisitorMessages.wrongPassword);
    const right = await submit(code, 'correct horse', cookie, csrf, address);
    expect(right.status).toBe(302);
    expect(right.headers.location).toBe('https://example.com/destination');
  });

  it('keeps the query the visitor came with through the form: a forwarded query reaches the destination after the password', async () => {
    const code = await createLink({ password: 'correct horse', forwardQuery: true });
    const address = uniqueLoopbackAddress();
    const form = await http('GET', `/${code}?ref=news%20letter&lang=%C3%BC`, { headers: BROWSER, localAddress: address });
    const action = /<form method="post" action="([^"]+)">/.exec(form.text)?.[1]?.replaceAll('&#38;', '&');
    expect(action).toBe(`/${code}?ref=news%20letter&lang=%C3%BC`);
    const cookie = String(form.headers['set-cookie']).split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    const right = await http('POST', action ?? '', {
      headers: { ...BROWSER, 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ password: 'correct horse', csrf }).toString(),
      localAddress: address,
    });
    expect(right.status).toBe(302);
    const landed = new URL(String(right.headers.location));
    expect([landed.origin + landed.pathname, landed.searchParams.get('ref'), landed.searchParams.get('lang')]).toEqual(['https://example.com/destination', 'news letter', 'ü']);
  });

  it('refuses a post without the CSRF cookie, counting nothing', async () => {
    const code = await createLink({ password: 'correct horse' });
    const address = uniqueLoopbackAddress();
    const { csrf } = await openForm(code, address);
    const forged = await submit(code, 'correct horse', '', csrf, address);
    expectPage(forged, 403, VisitorMessages.formExpired);
    expect(forged.headers.location).toBeUndefined();
  });

  it('allows 10 attempts per 15 minutes per visitor IP, then a 429 page saying when to retry', async () => {
    // All eleven attempts in one window: across its edge the count starts again.
    await clearOfWindowEdge(RATE_LIMITS.passwordAttempts.windowSeconds, 10_000);
    const code = await createLink({ password: 'correct horse' });
    const address = uniqueLoopbackAddress();
    const { cookie, csrf } = await openForm(code, address);
    for (let i = 0; i < 10; i += 1) expect((await submit(code, `guess ${i}`, cookie, csrf, address)).status).toBe(401);
    const blocked = await submit(code, 'correct horse', cookie, csrf, address);
    expectPage(blocked, 429, 'Too many password attempts. Try again in');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const blockedJson = await http('POST', `/${code}`, {
      headers: { ...API, 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ password: 'correct horse', csrf }).toString(),
      localAddress: address,
    });
    expect(blockedJson.status).toBe(429);
    expect(blockedJson.json()).toEqual({
      statusCode: 429,
      message: expect.stringMatching(/^Too many password attempts\. Try again in \d+ minutes?\.$/),
      error: 'Too Many Requests',
      retryAfter: Number(blockedJson.headers['retry-after']),
    });
    const elsewhere = uniqueLoopbackAddress();
    const other = await openForm(code, elsewhere);
    expect((await submit(code, 'correct horse', other.cookie, other.csrf, elsewhere)).status).toBe(302);
  });

  it('gives API clients JSON and preview bots a card without the destination', async () => {
    const code = await createLink({ password: 'correct horse' });
    const json = await http('GET', `/${code}`, { headers: API });
    expect(json.status).toBe(401);
    expect(json.json()).toEqual({ statusCode: 401, message: VisitorMessages.passwordRequired, error: 'Unauthorized' });
    const bot = await http('GET', `/${code}`, { headers: { 'user-agent': 'facebookexternalhit/1.1 Facebot Twitterbot/1.0' } });
    expectPage(bot, 200, 'Shared link');
    expect(bot.text).not.toContain('example.com');
  });
});
