import { appendFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import * as z from 'zod/mini';
import { linkViewBody } from '../../functions/shared/http/openapi/response-bodies';
import { createApiKey, eventually, http, jsonHeaders } from '../support/local-stack';
import { receiverPorts, verify, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 31 end to end: a link's destination on this machine (the one LOCAL_HEALTH_ALLOW lists, named through
 * LOCAL_HOSTS_FILE) turns 500 and back; the stack's day of checks lasts 8.64 s (LOCAL_HEALTH_TIME_SCALE=0.0001), so
 * two checks in a row take about ten seconds. The events reach a webhook receiver as the webhooks' tests do.
 */
const receiver = new WebhookReceiver(receiverPorts()[1] as number);
const port = Number(process.env.HEALTH_DESTINATION_PORT);
const host = `dest.example-shop.com:${port}`;
let failing = new Set<string>();
const requests: Array<{ method?: string; path?: string; userAgent?: string; at: number }> = [];
let destination: Server;

beforeAll(async () => {
  appendFileSync(process.env.LOCAL_HOSTS_FILE as string, '127.0.0.1 dest.example-shop.com\n');
  destination = createServer((request, response) => {
    requests.push({ method: request.method, path: request.url, userAgent: request.headers['user-agent'], at: Date.now() });
    response.writeHead(failing.has(request.url ?? '') ? 500 : 200);
    response.end();
  });
  await new Promise<void>((resolve, reject) => destination.once('error', reject).listen(port, '127.0.0.1', resolve));
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  destination.closeAllConnections();
  await new Promise((resolve) => destination.close(resolve));
});

const api = (apiKey: string, method: string, path: string, body?: object) => http(method, path, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });
type View = z.output<typeof linkViewBody>;

describe('link health', () => {
  it('a destination going 500 sends link.broken once, and back sends link.recovered once; the filter follows', async () => {
    const { apiKey } = await createApiKey('PRO');
    const hook = await api(apiKey, 'POST', '/v2/webhooks', { url: receiver.url('/health'), events: ['link.broken', 'link.recovered'] });
    expect(hook.status).toBe(201);
    const { secret } = hook.json() as { secret: string };
    failing = new Set(['/spring']);
    const created = await api(apiKey, 'POST', '/v2/shorten', { url: `http://${host}/spring` });
    expect(created.status).toBe(201);
    const { shortCode } = created.json() as { shortCode: string };

    const broken = await eventually(async () => {
      const [delivery] = receiver.on('/health').filter((received) => received.event.type === 'link.broken');
      expect(delivery).toBeDefined();
      return delivery as NonNullable<typeof delivery>;
    }, 40_000);
    verify(secret, broken);
    expect(broken.event.data).toMatchObject({ shortCode, health: { status: 'server-error', statusCode: 500 } });
    const view = (await api(apiKey, 'GET', `/v2/links/${shortCode}`)).json() as View;
    expect(() => z.parse(linkViewBody, view)).not.toThrow();
    expect(view.health).toMatchObject({ status: 'server-error', statusCode: 500 });
    const listed = (await api(apiKey, 'GET', '/v2/links?health=broken')).json() as { links: View[] };
    expect(listed.links.map((link) => link.shortCode)).toEqual([shortCode]);

    failing = new Set();
    const recovered = await eventually(async () => {
      const [delivery] = receiver.on('/health').filter((received) => received.event.type === 'link.recovered');
      expect(delivery).toBeDefined();
      return delivery as NonNullable<typeof delivery>;
    }, 40_000);
    verify(secret, recovered);
    expect(recovered.event.data).toMatchObject({ shortCode, health: { status: 'ok', statusCode: 200 } });
    expect(((await api(apiKey, 'GET', '/v2/links?health=broken')).json() as { links: View[] }).links).toEqual([]);

    // Another check after recovery (about 9 s on this clock) sends nothing more.
    const checksSoFar = requests.length;
    await eventually(async () => expect(requests.length).toBeGreaterThan(checksSoFar), 20_000);
    expect(receiver.on('/health').map((received) => received.event.type)).toEqual(['link.broken', 'link.recovered']);
    // Every request was a HEAD naming the service, one a second at most.
    expect(new Set(requests.map((request) => request.method))).toEqual(new Set(['HEAD']));
    expect(requests.every((request) => request.userAgent?.startsWith('url-shortener-link-health/'))).toBe(true);
    const seconds = requests.map((request) => Math.floor(request.at / 1000));
    expect(new Set(seconds).size).toBe(seconds.length);
  }, 120_000);

  it('the filter and the events are PRO\'s and up: 403 with the upgrade URL below; health itself shows on every plan', async () => {
    const { apiKey } = await createApiKey('INDIE');
    const refused = await api(apiKey, 'GET', '/v2/links?health=broken');
    expect([refused.status, refused.json()]).toEqual([
      403,
      expect.objectContaining({ statusCode: 403, error: 'Forbidden', feature: 'linkHealth', currentPlan: 'INDIE', upgradeUrl: expect.any(String) }),
    ]);
    const hook = await api(apiKey, 'POST', '/v2/webhooks', { url: receiver.url('/indie'), events: ['link.broken'] });
    expect([hook.status, (hook.json() as { feature?: string }).feature]).toEqual([403, 'linkHealth']);
    expect((await api(apiKey, 'GET', '/v2/links?health=ok')).status).toBe(400);

    const { apiKey: free } = await createApiKey('FREE');
    const created = await api(free, 'POST', '/v2/shorten', { url: `http://${host}/free-plan` });
    const { shortCode } = created.json() as { shortCode: string };
    const view = await eventually(async () => {
      const shown = (await api(free, 'GET', `/v2/links/${shortCode}`)).json() as View;
      expect(shown.health).toBeDefined();
      return shown;
    }, 20_000);
    expect(view.health).toMatchObject({ status: 'ok', statusCode: 200 });
  }, 60_000);

  it('a destination not on the local allow list is never asked', async () => {
    const { apiKey } = await createApiKey('PRO');
    const before = requests.length;
    const created = await api(apiKey, 'POST', '/v2/shorten', { url: `http://dest.example-shop.com:${port + 1}/other-port` });
    const { shortCode } = created.json() as { shortCode: string };
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(((await api(apiKey, 'GET', `/v2/links/${shortCode}`)).json() as View).health).toBeUndefined();
    expect(requests.slice(before).filter((request) => request.path === '/other-port')).toEqual([]);
  });
});
