import { Messages, VisitorMessages } from '../../functions/shared/domain/messages';
import { RATE_LIMITS } from '../../functions/shared/domain/limits/rate-limits';
import { ORIGIN_VERIFY_HEADER } from '../../functions/shared/http/trusted-viewer';
import { clearOfWindowEdge, devApiKey, http, jsonHeaders, originSecret, uniqueLoopbackAddress } from '../support/local-stack';

// clearOfWindowEdge may wait up to 30 s for a fresh window before a test's own work starts (as dashboard-host does).
jest.setTimeout(120_000);

/** Issue 9's findings, each replayed against the local stack. */

const shorten = (body: Record<string, unknown>) => http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body });
const BROWSER = { accept: 'text/html' };

describe('Unicode destinations', () => {
  it('are stored, answered and redirected to in their ASCII form', async () => {
    const created = await shorten({ url: 'https://example.com/über?q=ä' });
    expect(created.status).toBe(201);
    const { url, shortCode } = created.json<{ url: string; shortCode: string }>();
    expect(url).toBe('https://example.com/%C3%BCber?q=%C3%A4');
    const visit = await http('GET', `/${shortCode}`);
    expect(visit.status).toBe(302);
    expect(visit.headers.location).toBe('https://example.com/%C3%BCber?q=%C3%A4');
  });

  it('keep whole-script host names, in punycode', async () => {
    for (const [input, stored] of [
      ['https://münchen.de/', 'https://xn--mnchen-3ya.de/'],
      ['https://пример.рф/путь', 'https://xn--e1afmkfd.xn--p1ai/%D0%BF%D1%83%D1%82%D1%8C'],
      ['https://例え.jp/', 'https://xn--r8jz45g.jp/'],
    ]) {
      const created = await shorten({ url: input });
      expect(created.status).toBe(201);
      expect(created.json().url).toBe(stored);
      expect((await http('GET', `/${created.json<{ shortCode: string }>().shortCode}`)).headers.location).toBe(stored);
    }
  });

  it('refuse a host that mixes Cyrillic into a Latin name as unsafe', async () => {
    const refused = await shorten({ url: 'https://аpple.com/' });
    expect(refused.status).toBe(400);
    expect(refused.json().message).toBe(Messages.unsafeUrl);
  });

  it('refuse look-alike hosts item by item in a batch', async () => {
    const response = await http('POST', '/v2/shorten/batch', {
      headers: jsonHeaders(devApiKey()),
      body: { urls: [{ url: 'https://gοοgle.com/' }, { url: 'https://café.fr/menü' }] },
    });
    expect(response.json()).toEqual({
      results: [
        { index: 0, success: false, error: Messages.unsafeUrl },
        expect.objectContaining({ index: 1, success: true, url: 'https://xn--caf-dma.fr/men%C3%BC' }),
      ],
    });
  });
});

describe('malformed visitor paths', () => {
  it.each(['/%ff%fe', '/%E0%A4%A', '/%ED%A0%80', '/%', '/%C0%AF'])('%s is a 404, as a page and as JSON', async (path) => {
    const page = await http('GET', path, { headers: BROWSER });
    expect(page.status).toBe(404);
    expect(page.text).toContain('Link not found');
    const json = await http('GET', path, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(404);
    expect(json.json()).toEqual({ statusCode: 404, message: VisitorMessages.notFound, error: 'Not Found' });
  });
});

describe('password attempts', () => {
  const PASSWORD = 'correct horse';

  async function passwordLink(): Promise<string> {
    const created = await shorten({ url: 'https://example.com/guarded', password: PASSWORD });
    return created.json<{ shortCode: string }>().shortCode;
  }

  /** Opens the form (for the CSRF pair) and posts one password, with whatever extra headers the caller forges. */
  async function attempt(code: string, password: string, localAddress: string, headers: Record<string, string> = {}) {
    const form = await http('GET', `/${code}`, { headers: BROWSER, localAddress });
    const cookie = String(form.headers['set-cookie']).split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    return http('POST', `/${code}`, {
      headers: { ...BROWSER, 'content-type': 'application/x-www-form-urlencoded', cookie, ...headers },
      body: new URLSearchParams({ password, csrf }).toString(),
      localAddress,
    });
  }

  it('ignore a forged CloudFront-Viewer-Address: 25 posts with 25 addresses from one client are limited like one', async () => {
    await clearOfWindowEdge(RATE_LIMITS.passwordAttempts.windowSeconds);
    const code = await passwordLink();
    const client = uniqueLoopbackAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i += 1) {
      const forged = { 'cloudfront-viewer-address': `203.0.113.${i + 1}:443`, [ORIGIN_VERIFY_HEADER]: 'a guess' };
      statuses.push((await attempt(code, `guess ${i}`, client, forged)).status);
    }
    expect(statuses.slice(0, RATE_LIMITS.passwordAttempts.requests)).toEqual(Array(10).fill(401));
    expect(statuses.slice(RATE_LIMITS.passwordAttempts.requests)).toEqual(Array(15).fill(429));
  });

  it('trust the viewer address on requests that carry the origin secret, as CloudFront sends them', async () => {
    await clearOfWindowEdge(RATE_LIMITS.passwordAttempts.windowSeconds);
    const code = await passwordLink();
    const edge = uniqueLoopbackAddress();
    const secret = await originSecret();
    const viewer = (address: string) => ({ 'cloudfront-viewer-address': `${address}:51234`, [ORIGIN_VERIFY_HEADER]: secret });
    for (let i = 0; i < 10; i += 1) expect((await attempt(code, `guess ${i}`, edge, viewer('198.51.100.7'))).status).toBe(401);
    expect((await attempt(code, PASSWORD, edge, viewer('198.51.100.7'))).status).toBe(429);
    // Same edge address, another viewer: counted on its own, so a crowd behind one edge is not locked out.
    expect((await attempt(code, PASSWORD, edge, viewer('198.51.100.8'))).status).toBe(302);
  });

  it('cap wrong passwords per link across all addresses: after 100, every address waits for the window', async () => {
    await clearOfWindowEdge(RATE_LIMITS.wrongPasswordsPerLink.windowSeconds);
    const code = await passwordLink();
    const cap = RATE_LIMITS.wrongPasswordsPerLink.requests;
    const perAddress = RATE_LIMITS.passwordAttempts.requests;
    const addresses = Array.from({ length: cap / perAddress }, () => uniqueLoopbackAddress());
    const wrong = await Promise.all(
      addresses.map(async (address) => {
        const statuses: number[] = [];
        for (let i = 0; i < perAddress; i += 1) statuses.push((await attempt(code, `guess ${i}`, address)).status);
        return statuses;
      }),
    );
    expect(wrong.flat()).toEqual(Array(cap).fill(401));
    const latecomer = await attempt(code, PASSWORD, uniqueLoopbackAddress());
    expect(latecomer.status).toBe(429);
    expect(Number(latecomer.headers['retry-after'])).toBeGreaterThan(0);
    expect(latecomer.text).toContain('Too many password attempts');
  });
});
