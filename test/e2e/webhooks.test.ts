import { appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { OwnMessages } from '../../functions/shared/domain/messages';
import { SUBSCRIBABLE_EVENTS } from '../../functions/shared/domain/webhooks/webhook';
import { clickEventDataBody, linkViewBody, quotaEventDataBody, testEventDataBody } from '../../functions/shared/http/openapi/response-bodies';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { StackOutputs } from '../../lib/stack-outputs';
import { createApiKey, dynamo, eventually, http, jsonHeaders, setFlag, stackOutput, type HttpResult } from '../support/local-stack';
import { ops } from '../support/ops-cli';
import { receiverPorts, verify, WebhookReceiver, type Received } from '../support/webhook-receiver';

/**
 * Issue 19 end to end: webhooks through the API, events from the links and usage tables' streams and the
 * aggregator, the delivery queue and the deliverer, to a real HTTP receiver on this machine. The stack runs the
 * retry schedule 10,000 times faster (LOCAL_WEBHOOK_TIME_SCALE=0.0001); SQS delays are whole seconds, so a retry
 * takes about a second here.
 */
const receiver = new WebhookReceiver(receiverPorts()[0] as number);
let pathSequence = 0;
const freshPath = (label: string) => `/${label}-${(pathSequence += 1)}`;

beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

const api = (apiKey: string, method: string, path: string, body?: object) => http(method, path, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });

async function webhook(apiKey: string, path: string, events: readonly string[] = SUBSCRIBABLE_EVENTS): Promise<{ id: string; secret: string }> {
  const created = await api(apiKey, 'POST', '/v2/webhooks', { url: receiver.url(path), events });
  expect(created.status).toBe(201);
  return created.json() as { id: string; secret: string };
}

function expectBadRequest(answer: HttpResult, message: string): void {
  expect([answer.status, answer.json()]).toEqual([400, expect.objectContaining({ statusCode: 400, message })]);
}

/** Links expire a minute after creation at the soonest: the test moves the instant closer, as an operator's edit would. */
async function expireAt(code: string, instant: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({ TableName: stackOutput(StackOutputs.linksTable), Key: { code }, UpdateExpression: 'SET expiresAt = :at', ExpressionAttributeValues: { ':at': instant } }),
  );
}

const ofType = (path: string, type: string) => receiver.on(path).filter((delivery) => delivery.event.type === type);

/** Waits for exactly one delivery of `type` on `path` (a second one within a moment fails), verified and returned. */
async function one(path: string, type: string, secret: string, where: (delivery: Received) => boolean = () => true): Promise<Received> {
  const delivery = await eventually(async () => {
    const found = ofType(path, type).filter(where);
    expect(found.length).toBeGreaterThanOrEqual(1);
    return found[0] as Received;
  }, 20_000);
  verify(secret, delivery);
  return delivery;
}

describe('webhooks as a resource of the account', () => {
  it('are created with their secret once, listed and shown without it, changed, and deleted', async () => {
    const { apiKey } = await createApiKey('PRO');
    const created = await api(apiKey, 'POST', '/v2/webhooks', { url: receiver.url('/crud'), events: ['link.clicked', 'link.created', 'link.created'], description: 'CRM ✓' });
    expect(created.status).toBe(201);
    const body = created.json() as { id: string; secret: string };
    expect(body).toEqual({
      id: expect.stringMatching(/^wh_/),
      url: receiver.url('/crud'),
      events: ['link.created', 'link.clicked'],
      description: 'CRM ✓',
      enabled: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      droppedEvents: 0,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const { secret: _secret, ...view } = body;
    expect((await api(apiKey, 'GET', '/v2/webhooks')).json()).toEqual({ webhooks: [view] });
    expect((await api(apiKey, 'GET', `/v2/webhooks/${body.id}`)).json()).toEqual(view);
    const patched = await api(apiKey, 'PATCH', `/v2/webhooks/${body.id}`, { events: ['link.deleted'], enabled: false });
    expect(patched.json()).toMatchObject({ events: ['link.deleted'], enabled: false });
    expect((await api(apiKey, 'DELETE', `/v2/webhooks/${body.id}`)).status).toBe(204);
    expect((await api(apiKey, 'GET', `/v2/webhooks/${body.id}`)).json()).toEqual({ statusCode: 404, message: 'Webhook not found', error: 'Not Found' });
    expect((await api(apiKey, 'DELETE', `/v2/webhooks/${body.id}`)).status).toBe(404);
  });

  it('refuse URLs a destination could not have, plain http, credentials, private and metadata addresses', async () => {
    const { apiKey } = await createApiKey('PRO');
    for (const url of [
      'http://hooks.example.org/in',
      'https://user:pw@hooks.example.org/in',
      'https://127.0.0.1/in',
      'https://10.0.0.7/in',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/in',
      'https://localhost/in',
      'ftp://hooks.example.org/in',
      'not a url',
    ]) {
      expectBadRequest(await api(apiKey, 'POST', '/v2/webhooks', { url, events: ['link.created'] }), OwnMessages.webhookUrl);
    }
    expectBadRequest(await api(apiKey, 'POST', '/v2/webhooks', { url: receiver.url('/x'), events: ['link.exploded'] }), OwnMessages.webhookEvents(SUBSCRIBABLE_EVENTS));
    expectBadRequest(await api(apiKey, 'POST', '/v2/webhooks', { url: receiver.url('/x'), events: [] }), OwnMessages.webhookEvents(SUBSCRIBABLE_EVENTS));
    expectBadRequest(await api(apiKey, 'POST', '/v2/webhooks', { url: receiver.url('/x'), events: ['link.created'], description: 'é'.repeat(201) }), OwnMessages.webhookDescription(200));
    const { id } = await webhook(apiKey, '/x');
    expectBadRequest(await api(apiKey, 'PATCH', `/v2/webhooks/${id}`, {}), OwnMessages.webhookPatchEmpty);
    expectBadRequest(await api(apiKey, 'PATCH', `/v2/webhooks/${id}`, { url: 'https://192.168.1.1/' }), OwnMessages.webhookUrl);
    expectBadRequest(await api(apiKey, 'GET', `/v2/webhooks/${id}/deliveries?cursor=bm90LWEtY3Vyc29y`), OwnMessages.cursorParameter);
  });

  it('are at most 10 per account, none on FREE, off with their flag, and invisible to other accounts', async () => {
    const { apiKey } = await createApiKey('INDIE');
    const ids = [];
    for (let index = 0; index < 10; index++) ids.push((await webhook(apiKey, `/limit-${index}`, ['link.created'])).id);
    expectBadRequest(await api(apiKey, 'POST', '/v2/webhooks', { url: receiver.url('/limit-11'), events: ['link.created'] }), OwnMessages.webhookLimit(10));
    expect((await api(apiKey, 'DELETE', `/v2/webhooks/${ids[0] as string}`)).status).toBe(204);
    expect((await api(apiKey, 'POST', '/v2/webhooks', { url: receiver.url('/limit-11'), events: ['link.created'] })).status).toBe(201);

    const free = await createApiKey('FREE');
    const refused = await api(free.apiKey, 'POST', '/v2/webhooks', { url: receiver.url('/free'), events: ['link.created'] });
    expect([refused.status, refused.json()]).toEqual([403, expect.objectContaining({ feature: 'webhooks', currentPlan: 'FREE', message: 'Webhooks require the INDIE plan or higher.' })]);

    const other = await createApiKey('PRO');
    const theirs = ids[1] as string;
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/test'], ['POST', '/rotate-secret'], ['GET', '/deliveries']] as const) {
      const answer = await api(other.apiKey, method, `/v2/webhooks/${theirs}${path}`, method === 'PATCH' ? { enabled: false } : undefined);
      expect([answer.status, answer.json()]).toEqual([404, { statusCode: 404, message: 'Webhook not found', error: 'Not Found' }]);
    }
    expect((await api(other.apiKey, 'GET', '/v2/webhooks')).json()).toEqual({ webhooks: [] });

    await setFlag('webhooks', false);
    try {
      await eventually(async () => expectBadRequest(await api(apiKey, 'GET', '/v2/webhooks'), OwnMessages.webhooksDisabled));
    } finally {
      await setFlag('webhooks', true);
    }
    await eventually(async () => expect((await api(apiKey, 'GET', '/v2/webhooks')).status).toBe(200));
  });
});

describe('events', () => {
  it('each link event arrives once, signed, with the documented body', async () => {
    const { apiKey } = await createApiKey('PRO');
    const path = freshPath('events');
    const { secret } = await webhook(apiKey, path);
    const created = (await api(apiKey, 'POST', '/v2/shorten', { url: 'https://example.org/ünïcode', expiresIn: 60 })).json() as { shortCode: string };
    const code = created.shortCode;
    const aboutCode = (delivery: Received) => delivery.event.data.shortCode === code;

    const createdEvent = await one(path, 'link.created', secret, aboutCode);
    expect(linkViewBody.parse(createdEvent.event.data)).toMatchObject({ shortCode: code, url: 'https://example.org/%C3%BCn%C3%AFcode', status: 'active' });
    expect(createdEvent.headers['content-type']).toBe('application/json');

    expect((await api(apiKey, 'PATCH', `/v2/links/${code}`, { url: 'https://example.org/second' })).status).toBe(200);
    expect((await one(path, 'link.updated', secret, aboutCode)).event.data).toMatchObject({ url: 'https://example.org/second' });
    // A plain link's click (which the aggregator adds to its total) is a click too.
    expect((await http('GET', `/${code}`)).status).toBe(302);
    expect(clickEventDataBody.parse((await one(path, 'link.clicked', secret, (delivery) => delivery.event.data.code === code)).event.data)).toMatchObject({ code, device: expect.any(String) });
    const expiresAt = new Date(Date.now() + 3_000).toISOString();
    await expireAt(code, expiresAt);

    const expired = await one(path, 'link.expired', secret, aboutCode);
    expect(expired.event).toMatchObject({ timestamp: expiresAt, data: { status: 'expired', shortCode: code } });
    expect(Date.parse(expiresAt)).toBeLessThanOrEqual(expired.at);

    // An operator's takedown and its undoing.
    const limited = (await api(apiKey, 'POST', '/v2/shorten', { url: 'https://example.org/limited', maxClicks: 1 })).json() as { shortCode: string };
    const aboutLimited = (delivery: Received) => delivery.event.data.shortCode === limited.shortCode;
    expect((await ops('links', 'disable', limited.shortCode, '--reason', 'phishing report')).code).toBe(0);
    expect((await one(path, 'link.disabled', secret, aboutLimited)).event.data).toMatchObject({ status: 'disabled' });
    expect((await ops('links', 'enable', limited.shortCode)).code).toBe(0);
    expect((await one(path, 'link.enabled', secret, aboutLimited)).event.data).toMatchObject({ status: 'active' });

    // Its one click uses it up, and is a click.
    expect((await http('GET', `/${limited.shortCode}`, { headers: { referer: 'https://news.example.com/x', 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile' } })).status).toBe(302);
    expect((await one(path, 'link.used-up', secret, aboutLimited)).event.data).toMatchObject({ status: 'used-up' });
    const clicked = await one(path, 'link.clicked', secret, (delivery) => delivery.event.data.code === limited.shortCode);
    expect(clickEventDataBody.parse(clicked.event.data)).toEqual({ code: limited.shortCode, at: expect.any(String), country: expect.any(String), referrer: 'news.example.com', device: 'mobile' });
    expect(clicked.body).not.toMatch(/Mozilla|127\.0\.0\.1/);

    expect((await api(apiKey, 'DELETE', `/v2/links/${code}`)).status).toBe(204);
    expect((await one(path, 'link.deleted', secret, aboutCode)).event.data).toMatchObject({ status: 'deleted' });

    // Each once: wait a moment for any repeat, then count per link and type.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const counts = new Map<string, number>();
    for (const delivery of receiver.on(path)) {
      const key = `${String(delivery.event.data.shortCode ?? delivery.event.data.code)} ${delivery.event.type}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(Object.fromEntries(counts)).toEqual({
      [`${code} link.created`]: 1,
      [`${code} link.updated`]: 2,
      [`${code} link.clicked`]: 1,
      [`${code} link.expired`]: 1,
      [`${code} link.deleted`]: 1,
      [`${limited.shortCode} link.created`]: 1,
      [`${limited.shortCode} link.disabled`]: 1,
      [`${limited.shortCode} link.enabled`]: 1,
      [`${limited.shortCode} link.used-up`]: 1,
      [`${limited.shortCode} link.clicked`]: 1,
    });
    for (const delivery of receiver.on(path)) verify(secret, delivery);
  }, 120_000); // nine deliveries awaited (up to 20 s each) and two ops runs

  it('a link whose expiry moves is expired once, at the new instant; a deleted one never', async () => {
    const { apiKey } = await createApiKey('PRO');
    const path = freshPath('expiry');
    const { secret } = await webhook(apiKey, path, ['link.expired']);
    const moved = (await api(apiKey, 'POST', '/v2/shorten', { url: 'https://example.org/moved', expiresIn: 60 })).json() as { shortCode: string };
    const gone = (await api(apiKey, 'POST', '/v2/shorten', { url: 'https://example.org/gone', expiresIn: 60 })).json() as { shortCode: string };
    const soon = new Date(Date.now() + 3_000).toISOString();
    await expireAt(moved.shortCode, soon);
    await expireAt(gone.shortCode, soon);
    const later = new Date(Date.now() + 5_000).toISOString();
    await expireAt(moved.shortCode, later);
    expect((await api(apiKey, 'DELETE', `/v2/links/${gone.shortCode}`)).status).toBe(204);
    const delivery = await one(path, 'link.expired', secret);
    expect(delivery.event).toMatchObject({ timestamp: later, data: { shortCode: moved.shortCode } });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(receiver.on(path)).toHaveLength(1);
  });

  it('quota.warning at 80 % of the month and quota.exhausted at 100 %, once each', async () => {
    const { apiKey } = await createApiKey('PRO', { monthlyLimit: 10 });
    const path = freshPath('quota');
    const { secret } = await webhook(apiKey, path, ['quota.warning', 'quota.exhausted']);
    // The creation of the webhook was call 1; calls 2–12 go to the listing (the last two refused with 429).
    for (let call = 2; call <= 12; call++) await api(apiKey, 'GET', '/v2/webhooks');
    const warning = await one(path, 'quota.warning', secret);
    expect(quotaEventDataBody.parse(warning.event.data)).toEqual({ month: new Date().toISOString().slice(0, 7), used: 8, limit: 10 });
    expect((await one(path, 'quota.exhausted', secret)).event.data).toEqual({ month: new Date().toISOString().slice(0, 7), used: 10, limit: 10 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.on(path).map((delivery) => delivery.event.type).sort()).toEqual(['quota.exhausted', 'quota.warning']);
  });

  it('webhook.test goes to the one webhook asked, disabled or not', async () => {
    const { apiKey } = await createApiKey('PRO');
    const path = freshPath('test');
    const { id, secret } = await webhook(apiKey, path, ['link.created']);
    expect((await api(apiKey, 'PATCH', `/v2/webhooks/${id}`, { enabled: false })).status).toBe(200);
    const queued = await api(apiKey, 'POST', `/v2/webhooks/${id}/test`);
    expect(queued.status).toBe(202);
    const { eventId } = queued.json() as { eventId: string };
    const delivery = await one(path, 'webhook.test', secret);
    expect(delivery.id).toBe(eventId);
    expect(testEventDataBody.parse(delivery.event.data)).toEqual({ webhookId: id, url: receiver.url(path) });
  });
});

describe('delivery', () => {
  it('retries a failing endpoint with the same webhook-id until it answers 2xx, and logs each attempt', async () => {
    const { apiKey } = await createApiKey('PRO');
    const path = freshPath('flaky');
    receiver.script(path, [{ status: 500 }, { status: 503, headers: { 'retry-after': '1' } }, { status: 404 }, { status: 204 }]);
    const { id, secret } = await webhook(apiKey, path, ['link.created']);
    await api(apiKey, 'POST', '/v2/shorten', { url: 'https://example.org/flaky' });
    await eventually(async () => expect(receiver.on(path)).toHaveLength(4), 30_000);
    const deliveries = receiver.on(path);
    expect(new Set(deliveries.map((delivery) => delivery.id)).size).toBe(1);
    for (const delivery of deliveries) verify(secret, delivery);
    // The answer to the 503 asked for a second (scaled like the schedule): never sooner.
    expect((deliveries[2] as Received).at - (deliveries[1] as Received).at).toBeGreaterThanOrEqual(900);
    const log = await eventually(async () => {
      const page = (await api(apiKey, 'GET', `/v2/webhooks/${id}/deliveries`)).json() as { deliveries: Array<Record<string, unknown>> };
      expect(page.deliveries).toHaveLength(4);
      return page.deliveries;
    });
    expect(log.map((attempt) => [attempt.attempt, attempt.status])).toEqual([[4, 204], [3, 404], [2, 503], [1, 500]]);
    expect(new Set(log.map((attempt) => attempt.eventId))).toEqual(new Set([deliveries[0]?.id]));
    // Pages of one, newest first, with a cursor.
    const first = (await api(apiKey, 'GET', `/v2/webhooks/${id}/deliveries?limit=1`)).json() as { deliveries: Array<{ attempt: number }>; nextCursor: string };
    const second = (await api(apiKey, 'GET', `/v2/webhooks/${id}/deliveries?limit=1&cursor=${first.nextCursor}`)).json() as { deliveries: Array<{ attempt: number }> };
    expect([first.deliveries[0]?.attempt, second.deliveries[0]?.attempt]).toEqual([4, 3]);
  });

  it('410 Gone turns the webhook off with its reason; enabling it restarts deliveries', async () => {
    const { apiKey } = await createApiKey('PRO');
    const path = freshPath('gone');
    receiver.script(path, [{ status: 410 }, { status: 200 }]);
    const { id, secret } = await webhook(apiKey, path, ['link.created']);
    await api(apiKey, 'POST', '/v2/shorten', { url: 'https://example.org/one' });
    await eventually(async () => expect((await api(apiKey, 'GET', `/v2/webhooks/${id}`)).json()).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone' }));
    await api(apiKey, 'POST', '/v2/shorten', { url: 'https://example.org/two' });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(receiver.on(path)).toHaveLength(1);
    const restarted = await api(apiKey, 'PATCH', `/v2/webhooks/${id}`, { enabled: true });
    expect(restarted.json()).toMatchObject({ enabled: true });
    expect(restarted.json()).not.toHaveProperty('disabledReason');
    await api(apiKey, 'POST', '/v2/shorten', { url: 'https://example.org/three' });
    const delivered = await one(path, 'link.created', secret, (delivery) => delivery.event.data.url === 'https://example.org/three');
    expect(delivered.event.data).toMatchObject({ url: 'https://example.org/three' });
  });

  it('never connects to a name that resolves to a private address (DNS rebinding), and says why in the log', async () => {
    const { apiKey } = await createApiKey('PRO');
    // A public-looking name, pointed at this machine after the webhook was accepted: what rebinding does.
    const name = `hooks-${Date.now().toString(36)}.example.com`;
    const listener = createServer();
    let connections = 0;
    listener.on('connection', (socket) => {
      connections += 1;
      socket.destroy();
    });
    const port = await new Promise<number>((resolve) => listener.listen(0, '127.0.0.1', () => resolve((listener.address() as { port: number }).port)));
    try {
      const created = await api(apiKey, 'POST', '/v2/webhooks', { url: `https://${name}:${port}/in`, events: ['link.created'] });
      expect(created.status).toBe(201);
      const { id } = created.json() as { id: string };
      appendFileSync(process.env.LOCAL_HOSTS_FILE as string, `127.0.0.1 ${name}\n`);
      await api(apiKey, 'POST', `/v2/webhooks/${id}/test`);
      const log = await eventually(async () => {
        const page = (await api(apiKey, 'GET', `/v2/webhooks/${id}/deliveries`)).json() as { deliveries: Array<{ error?: string }> };
        expect(page.deliveries.length).toBeGreaterThanOrEqual(2);
        return page.deliveries;
      }, 20_000);
      expect(log[0]?.error).toBe('refused: the host resolves to an address that is not public');
      expect(connections).toBe(0);
    } finally {
      listener.close();
    }
  });

  it('signs with the old and the new secret after a rotation, then with the new one only', async () => {
    const { apiKey } = await createApiKey('PRO');
    const path = freshPath('rotation');
    const { id, secret: oldSecret } = await webhook(apiKey, path, ['link.created']);
    const rotated = await api(apiKey, 'POST', `/v2/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const { secret: newSecret } = rotated.json() as { secret: string };
    expect(newSecret).not.toBe(oldSecret);
    await api(apiKey, 'POST', `/v2/webhooks/${id}/test`);
    const during = await one(path, 'webhook.test', newSecret);
    expect(during.signature.split(' ')).toHaveLength(2);
    verify(oldSecret, during);
    // The overlap is 24 hours, 8.6 s at this stack's time scale.
    await new Promise((resolve) => setTimeout(resolve, 9_000));
    await api(apiKey, 'POST', `/v2/webhooks/${id}/test`);
    const after = await eventually(async () => {
      expect(ofType(path, 'webhook.test')).toHaveLength(2);
      return ofType(path, 'webhook.test')[1] as Received;
    });
    expect(after.signature.split(' ')).toHaveLength(1);
    verify(newSecret, after);
    expect(() => verify(oldSecret, after)).toThrow();
  });

  it('keeps secrets sealed in the table: no whsec_ at rest, and deliveries still signed with them (issue 27)', async () => {
    const { apiKey, owner } = await createApiKey('PRO');
    const path = freshPath('sealed');
    const { id, secret: first } = await webhook(apiKey, path, ['link.created']);
    const { secret } = (await api(apiKey, 'POST', `/v2/webhooks/${id}/rotate-secret`)).json() as { secret: string };
    const { Item } = await dynamo().send(new GetCommand({ TableName: stackOutput(StackOutputs.webhooksTable), Key: { pk: `owner#${owner}`, sk: `wh#${id}` }, ConsistentRead: true }));
    const raw = JSON.stringify(Item);
    expect(Item).toMatchObject({ secret: expect.stringMatching(/^kms1\./), previousSecret: { secret: expect.stringMatching(/^kms1\./) } });
    for (const plain of ['whsec_', secret.slice(6, 30), first.slice(6, 30)]) expect(raw).not.toContain(plain);
    await api(apiKey, 'POST', `/v2/webhooks/${id}/test`);
    verify(first, await one(path, 'webhook.test', secret));
  });

  it('signs with the new secret only after a rotation that expires the previous one (issue 27)', async () => {
    const { apiKey } = await createApiKey('PRO');
    const path = freshPath('expire-previous');
    const { id, secret: leaked } = await webhook(apiKey, path, ['link.created']);
    expectBadRequest(await api(apiKey, 'POST', `/v2/webhooks/${id}/rotate-secret`, { expirePrevious: 'now' }), OwnMessages.webhookExpirePrevious);
    const rotated = await api(apiKey, 'POST', `/v2/webhooks/${id}/rotate-secret`, { expirePrevious: true });
    expect(rotated.status).toBe(200);
    const { secret } = rotated.json() as { secret: string };
    await api(apiKey, 'POST', `/v2/webhooks/${id}/test`);
    const delivery = await one(path, 'webhook.test', secret);
    expect(delivery.signature.split(' ')).toHaveLength(1);
    expect(() => verify(leaked, delivery)).toThrow();
  });

  it('stops delivering to a deleted webhook, retries included', async () => {
    const { apiKey } = await createApiKey('PRO');
    const path = freshPath('deleted');
    receiver.script(path, [{ status: 500 }]);
    const { id } = await webhook(apiKey, path, ['link.created']);
    await api(apiKey, 'POST', '/v2/shorten', { url: 'https://example.org/deleted' });
    await eventually(async () => expect(receiver.on(path).length).toBeGreaterThanOrEqual(1));
    expect((await api(apiKey, 'DELETE', `/v2/webhooks/${id}`)).status).toBe(204);
    const countAtDeletion = receiver.on(path).length;
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    // One attempt may have been on its way as the webhook went.
    expect(receiver.on(path).length).toBeLessThanOrEqual(countAtDeletion + 1);
  });
});

describe('never lost', () => {
  it('every event of 1,000 link changes arrives at least once while the router and the deliverer crash mid-work', async () => {
    const { apiKey } = await createApiKey('PRO');
    const path = freshPath('crashes');
    const { secret } = await webhook(apiKey, path, ['link.created']);
    const stackPid = Number(process.env.LOCAL_STACK_PID);
    expect(stackPid).toBeGreaterThan(0);
    const codes = new Set<string>();
    for (let batch = 0; batch < 20; batch++) {
      const answer = await api(apiKey, 'POST', '/v2/shorten/batch', { urls: Array.from({ length: 50 }, (_, index) => ({ url: `https://example.org/crash/${batch}/${index}` })) });
      expect(answer.status).toBe(200);
      for (const result of (answer.json() as { results: Array<{ shortCode: string }> }).results) codes.add(result.shortCode);
      // Kill both consumers four times while events are being routed and delivered.
      if (batch % 5 === 2) process.kill(stackPid, 'SIGUSR2');
    }
    expect(codes.size).toBe(1_000);
    await eventually(async () => {
      const delivered = new Set(receiver.on(path).map((delivery) => String(delivery.event.data.shortCode)));
      expect([...codes].filter((code) => !delivered.has(code))).toEqual([]);
    }, 120_000);
    for (const delivery of receiver.on(path).slice(0, 50)) verify(secret, delivery);
    // At least once, and with the same id when twice: receivers drop repeats by webhook-id.
    const idsByCode = new Map<string, Set<string>>();
    for (const delivery of receiver.on(path)) idsByCode.set(String(delivery.event.data.shortCode), (idsByCode.get(String(delivery.event.data.shortCode)) ?? new Set()).add(delivery.id));
    expect([...idsByCode.values()].every((ids) => ids.size === 1)).toBe(true);
  }, 180_000);
});
