import { request } from 'node:http';
import { RATE_LIMITS } from '../../functions/shared/domain/limits/rate-limits';
import { LOCAL_DASHBOARD_HOSTNAME } from '../../bin/local/static-site';
import { baseUrl, clearOfWindowEdge, devApiKey, http, jsonHeaders, uniqueLoopbackAddress } from '../support/local-stack';

/**
 * Issue 27, finding 6: the dashboard's host (its distribution, played locally from the template on
 * dashboard.localhost) serves the app and the API's routes, and nothing else: a short code there is no redirect.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request on the dashboard's host, its path sent as written (no URL parser resolves its dot segments first). */
function onDashboardHost(method: string, path: string, options: { headers?: Record<string, string>; body?: object; localAddress?: string } = {}): Promise<Answer> {
  const { port } = new URL(baseUrl());
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { host: `${LOCAL_DASHBOARD_HOSTNAME}:${port}`, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }), ...options.headers },
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

// A v1 test may wait for the start of a rate window.
jest.setTimeout(90_000);

const NOT_FOUND = { statusCode: 404, message: 'Not Found', error: 'Not Found' };

let code: string;
beforeAll(async () => {
  code = (await http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body: { url: 'https://example.com/elsewhere' } })).json<{ shortCode: string }>().shortCode;
});

describe('the dashboard\'s host', () => {
  it('answers a live short code 404 at the edge, in the API\'s words, where the short domain redirects it', async () => {
    expect((await http('GET', `/${code}`)).status).toBe(302);
    const answer = await onDashboardHost('GET', `/${code}`, { headers: { accept: 'text/html' } });
    expect(answer.status).toBe(404);
    expect(answer.headers.location).toBeUndefined();
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(answer.text)).toEqual(NOT_FOUND);
  });

  it.each([
    ['a dot segment out of the app', (c: string) => `/app/../${c}`],
    ['escaped dots below the API', (c: string) => `/v2/%2e%2e/${c}`],
    ['a dot segment below the API', (c: string) => `/v1/../${c}`],
    ['an escaped API segment', () => '/%76%32/links'],
    ['the reference page with a slash', () => '/docs/'],
    ['the root', () => '/'],
    ['a Unicode path', () => '/%C3%BCber'],
  ])('answers %s with 404, never a redirect', async (_what, path) => {
    const answer = await onDashboardHost('GET', path(code));
    expect([answer.status, answer.headers.location]).toEqual([404, undefined]);
    expect(JSON.parse(answer.text)).toEqual(NOT_FOUND);
  });

  it('serves the app and passes the API\'s routes on', async () => {
    const page = await onDashboardHost('GET', '/app/links');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await onDashboardHost('GET', '/v2/links', { headers: jsonHeaders(devApiKey()) })).status).toBe(200);
    expect((await onDashboardHost('GET', '/health')).status).toBe(200);
    expect((await onDashboardHost('GET', '/docs')).status).toBe(200);
  });

  it('counts a v1 caller by the address the edge saw (beside the origin secret), whatever CloudFront-Viewer-Address it sends', async () => {
    await clearOfWindowEdge(RATE_LIMITS.perAnonymousIp.windowSeconds);
    const viewer = uniqueLoopbackAddress();
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMITS.perAnonymousIp.requests; i += 1) {
      const forged = { ...jsonHeaders(), 'cloudfront-viewer-address': `203.0.113.${i + 1}:443` };
      statuses.push((await onDashboardHost('POST', '/v1/shorten', { headers: forged, body: { url: 'https://example.com/v1' }, localAddress: viewer })).status);
    }
    expect(statuses).toEqual([...Array(RATE_LIMITS.perAnonymousIp.requests).fill(201), 429]);
  });
});
