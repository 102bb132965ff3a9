import { appendFileSync } from 'node:fs';
import { request } from 'node:http';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { OwnMessages, VisitorMessages } from '../../functions/shared/domain/messages';
import { StackOutputs } from '../../lib/stack-outputs';
import { baseUrl, createApiKey, dynamo, eventually, http, jsonHeaders, setFlag, stackOutput, type HttpResult } from '../support/local-stack';
import { checkDueNow, publishDnsRecords } from '../support/local-dns';
import { ops } from '../support/ops-cli';
import { receiverPorts, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 17 end to end: customers' domains through the API, the scheduler, the local edge and the redirect. Names
 * resolve to this machine through the stack's LOCAL_HOSTS_FILE and claims publish their TXT records in its
 * LOCAL_DNS_TXT_FILE (the test adds lines to both); the domain worker runs every second here; visitors' copies of a
 * domain live 5 s.
 */
const run = Date.now().toString(36);
let sequence = 0;
const freshName = (label = 'go') => `${label}${(sequence += 1)}.acme-${run}.com`;

function pointAtThisMachine(name: string): void {
  appendFileSync(process.env.LOCAL_HOSTS_FILE as string, `127.0.0.1 ${name}\n`);
}

const api = (apiKey: string, method: string, path: string, body?: object) => http(method, path, { headers: jsonHeaders(apiKey), ...(body ? { body } : {}) });
/** A visitor on a customer's host: the Host header picks the domain, as CloudFront's tenant does. */
const visit = (host: string, path: string, method = 'GET') => http(method, path, { headers: { host } });

/** Claims the name, publishes what the claim asks for and checks it (the schedule may have checked it just before). */
async function activeDomain(apiKey: string, name = freshName()): Promise<string> {
  const created = await api(apiKey, 'POST', '/v2/domains', { domain: name });
  expect(created.status).toBe(201);
  publishDnsRecords(created.json());
  await api(apiKey, 'POST', `/v2/domains/${name}/verify`);
  await eventually(async () => expect((await api(apiKey, 'GET', `/v2/domains/${name}`)).json()).toMatchObject({ status: 'active' }));
  return name;
}

const shorten = (apiKey: string, body: object) => api(apiKey, 'POST', '/v2/shorten', body);

/** Spec 7.5's 400 shape, the path as the request named it (without its query). */
function expectBadRequest(answer: HttpResult, path: string, method: string, message: string): void {
  expect([answer.status, answer.json()]).toEqual([400, { statusCode: 400, timestamp: expect.any(String), path: path.split('?')[0], method, message }]);
}

describe('domains as a resource of the account', () => {
  it('are added pending with their DNS records, listed, shown, and become active once both are published', async () => {
    const { apiKey } = await createApiKey('PRO');
    const name = freshName();
    const created = await api(apiKey, 'POST', '/v2/domains', { domain: name.toUpperCase() });
    expect(created.status).toBe(201);
    expect(created.json()).toEqual({
      domain: name,
      status: 'pending',
      isDefault: false,
      dnsRecords: [
        { type: 'TXT', name: `_shortener-challenge.${name}`, value: expect.stringMatching(/^shortener-verification=[0-9a-f]{32}$/) },
        { type: 'A', name, value: '127.0.0.1' },
      ],
      rootUrl: null,
      notFoundUrl: null,
      expiredUrl: null,
      createdAt: expect.any(String),
      verifiedAt: null,
      statusReason: expect.any(String),
    });
    // The scheduler checks it (every second here) and says why it is not active yet: first of all, its TXT record.
    await eventually(async () => expect((await api(apiKey, 'GET', `/v2/domains/${name}`)).json()).toMatchObject({ status: 'pending', statusReason: expect.stringContaining(`The TXT record _shortener-challenge.${name} does not hold`) }), 20_000);
    expect((await api(apiKey, 'GET', '/v2/domains')).json()).toEqual({ domains: [expect.objectContaining({ domain: name })] });
    // The name resolving here (a former owner's record left behind) is not enough.
    pointAtThisMachine(name);
    expect((await api(apiKey, 'POST', `/v2/domains/${name}/verify`)).json()).toMatchObject({ status: 'pending', statusReason: expect.stringContaining('TXT') });
    publishDnsRecords(created.json(), ['TXT']);
    // Checks on request: once a minute per domain, in the per-minute limit's shape with Retry-After.
    const tooSoon = await api(apiKey, 'POST', `/v2/domains/${name}/verify`);
    expect([tooSoon.status, tooSoon.json()]).toEqual([429, { statusCode: 429, message: 'Rate limit exceeded. Try again in the next minute.', error: 'Too Many Requests', retryAfter: expect.any(Number) }]);
    expect(Number(tooSoon.headers['retry-after'])).toBe(tooSoon.json<{ retryAfter: number }>().retryAfter);
    expect(tooSoon.json<{ retryAfter: number }>().retryAfter).toBeGreaterThan(0);
    expect(tooSoon.json<{ retryAfter: number }>().retryAfter).toBeLessThanOrEqual(60);
    // The schedule checks it again within 5 minutes: now, here.
    await checkDueNow(name);
    await eventually(async () => expect((await api(apiKey, 'GET', `/v2/domains/${name}`)).json()).toMatchObject({ status: 'active', verifiedAt: expect.any(String), statusReason: null }), 20_000);
  });

  it('refuse names that are not a public host of the caller\'s own, naming domain', async () => {
    const { apiKey } = await createApiKey('PRO');
    for (const domain of ['192.0.2.1', 'localhost', 'acme', 'co.uk', 'x.cloudfront.net', 'bucket.s3.amazonaws.com', 'pаypal.com', 'go.acme.test', 'localhost:3000', 42]) {
      const response = await api(apiKey, 'POST', '/v2/domains', { domain });
      expectBadRequest(response, '/v2/domains', 'POST', OwnMessages.domainInvalid);
    }
  });

  it('belong to one account: two accounts racing for a name, exactly one wins; the loser learns nothing more', async () => {
    const [first, second] = [await createApiKey('PRO'), await createApiKey('PRO')];
    const name = freshName();
    const answers = await Promise.all([first, second, first, second].map(({ apiKey }) => api(apiKey, 'POST', '/v2/domains', { domain: name })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409]);
    for (const answer of answers.filter((candidate) => candidate.status === 409)) {
      expect(answer.json()).toEqual({ statusCode: 409, message: 'This domain is already in use', error: 'Conflict' });
    }
  });

  it('are another account\'s or nobody\'s: 404 with one body for every route', async () => {
    const owner = await createApiKey('PRO');
    const stranger = await createApiKey('PRO');
    const name = freshName();
    await api(owner.apiKey, 'POST', '/v2/domains', { domain: name });
    for (const [method, path, body] of [
      ['GET', `/v2/domains/${name}`],
      ['PATCH', `/v2/domains/${name}`, { rootUrl: 'https://example.com/' }],
      ['DELETE', `/v2/domains/${name}`],
      ['POST', `/v2/domains/${name}/verify`],
      ['GET', '/v2/domains/nothing.example.com'],
    ] as const) {
      const answer = await api(stranger.apiKey, method, path, body);
      expect([answer.status, answer.json()]).toEqual([404, { statusCode: 404, message: 'Domain not found', error: 'Not Found' }]);
    }
  });

  it('follow the plan: FREE has none (403 with the upgrade URL), INDIE one', async () => {
    const free = await createApiKey('FREE');
    const refused = await api(free.apiKey, 'POST', '/v2/domains', { domain: freshName() });
    expect(refused.status).toBe(403);
    expect(refused.json()).toEqual({ statusCode: 403, message: 'Custom domains require the INDIE plan or higher.', error: 'Forbidden', feature: 'customDomains', currentPlan: 'FREE', upgradeUrl: expect.any(String) });
    const indie = await createApiKey('INDIE');
    expect((await api(indie.apiKey, 'POST', '/v2/domains', { domain: freshName() })).status).toBe(201);
    const over = await api(indie.apiKey, 'POST', '/v2/domains', { domain: freshName() });
    expect([over.status, over.json().message]).toEqual([403, 'The INDIE plan allows 1 custom domain; more require the PRO plan or higher.']);
  });

  it('are switched off as a whole by the customDomains flag (400, like the other flags)', async () => {
    const { apiKey } = await createApiKey('PRO');
    await setFlag('customDomains', false);
    try {
      await eventually(async () => expectBadRequest(await api(apiKey, 'GET', '/v2/domains'), '/v2/domains', 'GET', OwnMessages.domainsDisabled));
      expectBadRequest(await shorten(apiKey, { url: 'https://example.com/', domain: 'go.example.com' }), '/v2/shorten', 'POST', OwnMessages.domainsDisabled);
    } finally {
      await setFlag('customDomains', true);
    }
    // Each function keeps the flags for up to 5 s: the next tests need creation to see them back on too.
    await eventually(async () => {
      expect((await api(apiKey, 'GET', '/v2/domains')).status).toBe(200);
      expect((await shorten(apiKey, { url: 'https://example.com/', domain: 'go.example.com' })).json<{ message: string }>().message).toBe(OwnMessages.domainNotUsable('go.example.com'));
    });
  });
});

describe('links on custom domains', () => {
  it('are refused on a pending domain and accepted once it resolves, at https://<domain>/<code>', async () => {
    const { apiKey } = await createApiKey('PRO');
    const name = freshName();
    const created = await api(apiKey, 'POST', '/v2/domains', { domain: name });
    expectBadRequest(await shorten(apiKey, { url: 'https://example.com/', domain: name }), '/v2/shorten', 'POST', OwnMessages.domainNotUsable(name));
    publishDnsRecords(created.json());
    // The schedule may have checked the name before it resolved (next check in 5 minutes): the owner asks again.
    await api(apiKey, 'POST', `/v2/domains/${name}/verify`);
    await eventually(async () => expect((await shorten(apiKey, { url: 'https://example.com/landing', alias: 'promo', domain: name })).json()).toMatchObject({ shortUrl: `https://${name}/promo` }), 20_000);
    const redirect = await visit(name, '/promo');
    expect([redirect.status, redirect.headers.location]).toEqual([302, 'https://example.com/landing']);
  });

  it('keep codes per domain: one alias on two domains goes two ways, and a code never resolves on another host', async () => {
    const { apiKey } = await createApiKey('PRO');
    const [one, two] = [await activeDomain(apiKey), await activeDomain(apiKey)];
    const alias = `sale-${run}`;
    expect((await shorten(apiKey, { url: 'https://one.example.com/', alias, domain: one })).status).toBe(201);
    expect((await shorten(apiKey, { url: 'https://two.example.com/', alias, domain: two })).status).toBe(201);
    expect((await shorten(apiKey, { url: 'https://three.example.com/', alias, domain: two })).json()).toMatchObject({ message: 'Alias is already taken' });
    expect((await visit(one, `/${alias}`)).headers.location).toBe('https://one.example.com/');
    expect((await visit(two, `/${alias}`)).headers.location).toBe('https://two.example.com/');
    // Clicks are counted per (domain, code): one each, none mixed up.
    for (const name of [one, two]) {
      await eventually(async () => expect((await api(apiKey, 'GET', `/v2/links/${alias}/stats?domain=${name}`)).json()).toMatchObject({ total: 1, days: expect.arrayContaining([expect.objectContaining({ clicks: 1 })]) }), 20_000);
    }
    // Neither exists on the shared domain, nor on a host that is nobody's.
    expect((await http('GET', `/${alias}`)).status).toBe(404);
    const stranger = freshName('nobody');
    pointAtThisMachine(stranger);
    expect((await visit(stranger, `/${alias}`)).status).toBe(404);
  });

  it('batch items and the default domain: a link goes where it says, else to the default, else the shared domain', async () => {
    const { apiKey } = await createApiKey('PRO');
    const name = await activeDomain(apiKey);
    const batch = await api(apiKey, 'POST', '/v2/shorten/batch', { urls: [{ url: 'https://example.com/a', domain: name }, { url: 'https://example.com/b' }, { url: 'https://example.com/c', domain: 'theirs.example.com' }] });
    const [onDomain, shared, refused] = batch.json<{ results: Array<Record<string, unknown>> }>().results;
    expect(onDomain?.shortUrl).toMatch(new RegExp(`^https://${name.replaceAll('.', '\\.')}/`));
    expect(shared?.shortUrl).toMatch(/^http:\/\/localhost:\d+\//);
    expect(refused).toEqual({ index: 2, success: false, error: OwnMessages.domainNotUsable('theirs.example.com') });

    expect((await api(apiKey, 'PATCH', `/v2/domains/${name}`, { isDefault: true })).json()).toMatchObject({ isDefault: true });
    const byDefault = (await shorten(apiKey, { url: 'https://example.com/d', alias: `def-${run}` })).json();
    expect(byDefault.shortUrl).toBe(`https://${name}/def-${run}`);
    // Management follows the default too; ?domain= names any other, the shared host included.
    expect((await api(apiKey, 'GET', `/v2/links/def-${run}`)).json()).toMatchObject({ domain: name, url: 'https://example.com/d' });
    const sharedCode = String(shared?.shortCode);
    expect((await api(apiKey, 'GET', `/v2/links/${sharedCode}`)).status).toBe(404);
    const sharedHost = new URL(String(shared?.shortUrl)).host;
    expect((await api(apiKey, 'GET', `/v2/links/${sharedCode}?domain=${sharedHost}`)).json()).toMatchObject({ domain: sharedHost, url: 'https://example.com/b' });
    expect((await api(apiKey, 'PATCH', `/v2/links/def-${run}?domain=${name}`, { url: 'https://example.com/e' })).json()).toMatchObject({ url: 'https://example.com/e' });
    expect((await api(apiKey, 'GET', `/v2/links/def-${run}/stats?domain=${name}`)).json()).toMatchObject({ shortCode: `def-${run}` });
    expect((await api(apiKey, 'GET', `/v2/links/def-${run}/qr?domain=${name}`)).status).toBe(200);
    const listed = (await api(apiKey, 'GET', `/v2/links?domain=${name}`)).json<{ links: Array<{ domain: string }> }>().links;
    expect(listed.map((link) => link.domain)).toEqual([name, name]);
    expect((await api(apiKey, 'DELETE', `/v2/links/def-${run}?domain=${name}`)).status).toBe(204);
    expectBadRequest(await api(apiKey, 'GET', '/v2/links?domain=not%20a%20host'), '/v2/links?domain=not%20a%20host', 'GET', OwnMessages.domainParameter);
  });

  it('send a domain\'s root, unknown codes and links that ran out to its own URLs, else answer as the shared domain', async () => {
    const { apiKey } = await createApiKey('PRO');
    const name = await activeDomain(apiKey);
    await shorten(apiKey, { url: 'https://example.com/once', alias: 'once', maxClicks: 1, domain: name });
    expect((await visit(name, '/')).status).toBe(404);
    expect((await visit(name, '/unknown')).status).toBe(404);
    expect((await visit(name, '/once')).status).toBe(302);
    expect((await visit(name, '/once')).status).toBe(410);

    const settings = { rootUrl: 'https://acme.example.com/', notFoundUrl: 'https://acme.example.com/404', expiredUrl: 'https://acme.example.com/over' };
    expect((await api(apiKey, 'PATCH', `/v2/domains/${name}`, settings)).json()).toMatchObject(settings);
    const location = async (path: string) => {
      const answer = await visit(name, path);
      return [answer.status, answer.headers.location, answer.headers['cache-control']];
    };
    await eventually(async () => expect(await location('/')).toEqual([302, 'https://acme.example.com/', 'no-store']));
    expect(await location('/unknown')).toEqual([302, 'https://acme.example.com/404', 'no-store']);
    expect(await location('/once')).toEqual([302, 'https://acme.example.com/over', 'no-store']);
    expectBadRequest(await api(apiKey, 'PATCH', `/v2/domains/${name}`, { rootUrl: 'javascript:alert(1)' }), `/v2/domains/${name}`, 'PATCH', OwnMessages.domainUrl('rootUrl'));
  });

  it('answer 410 "disabled" for every link while an operator has disabled the domain', async () => {
    const { apiKey } = await createApiKey('PRO');
    const name = await activeDomain(apiKey);
    await shorten(apiKey, { url: 'https://example.com/', alias: 'promo', domain: name });
    expect((await visit(name, '/promo')).status).toBe(302);
    const disabled = await ops('domains', 'disable', name, '--reason', 'phishing reports');
    expect(disabled.code).toBe(0);
    await eventually(async () => {
      const answer = await visit(name, '/promo');
      expect([answer.status, answer.text]).toEqual([410, expect.stringContaining(VisitorMessages.disabled)]);
    });
    expect((await api(apiKey, 'GET', `/v2/domains/${name}`)).json()).toMatchObject({ status: 'disabled', statusReason: 'phishing reports' });
    expect((await ops('domains', 'show', name)).stdout).toContain('disabled');
    expect((await ops('domains', 'enable', name)).stdout).toContain('active');
    await eventually(async () => expect((await visit(name, '/promo')).status).toBe(302));
  });

  it('cannot be freed from a takedown by their owner: DELETE is 409 and the name stays blocked until an operator releases it', async () => {
    const { apiKey } = await createApiKey('PRO');
    const other = await createApiKey('PRO');
    const name = await activeDomain(apiKey);
    expect((await ops('domains', 'disable', name, '--reason', 'phishing reports')).code).toBe(0);
    const refused = await api(apiKey, 'DELETE', `/v2/domains/${name}`);
    expect([refused.status, refused.json()]).toEqual([409, { statusCode: 409, message: OwnMessages.domainDisabled, error: 'Conflict' }]);
    for (const key of [apiKey, other.apiKey]) expect((await api(key, 'POST', '/v2/domains', { domain: name })).status).toBe(409);
    expect((await api(apiKey, 'GET', `/v2/domains/${name}`)).json()).toMatchObject({ status: 'disabled' });
    const released = await ops('domains', 'release', name);
    expect([released.code, released.stdout]).toEqual([0, expect.stringContaining(`${name} is released`)]);
    expect((await api(other.apiKey, 'POST', '/v2/domains', { domain: name })).status).toBe(201);
  });

  it('stop serving when their domain is deleted, become deleted in the background, and the name is held for its owner', async () => {
    const { apiKey } = await createApiKey('PRO');
    const name = await activeDomain(apiKey);
    const codes: string[] = [];
    for (let index = 0; index < 3; index += 1) codes.push(String((await shorten(apiKey, { url: `https://example.com/${index}`, domain: name })).json().shortCode));
    await api(apiKey, 'GET', `/v2/links/${codes[0]}/stats?domain=${name}`);
    expect((await api(apiKey, 'DELETE', `/v2/domains/${name}`)).status).toBe(204);
    expect((await api(apiKey, 'GET', `/v2/domains/${name}`)).status).toBe(404);
    await eventually(async () => expect((await visit(name, `/${codes[0]}`)).status).toBe(404));
    await eventually(async () => {
      const links = (await api(apiKey, 'GET', `/v2/links?domain=${name}`)).json<{ links: Array<{ status: string }> }>().links;
      expect(links.map((link) => link.status)).toEqual(['deleted', 'deleted', 'deleted']);
    });
    expect((await api(apiKey, 'GET', `/v2/links/${codes[0]}/stats?domain=${name}`)).status).toBe(200);
    // Held for its former owner for 7 days: anyone else's claim is refused, and the hold shows to operators.
    const other = await createApiKey('PRO');
    const held = await api(other.apiKey, 'POST', '/v2/domains', { domain: name });
    expect([held.status, held.json()]).toEqual([409, { statusCode: 409, message: 'This domain is already in use', error: 'Conflict' }]);
    expect((await ops('domains', 'show', name)).stdout).toContain('held for');
    expect((await ops('domains', 'release', name)).stdout).toContain('its hold for the former owner ended');
    // Whoever claims the name next proves it with a TXT record of their own (the former owner's proves nothing now),
    // and cannot re-point the old campaign's printed links: their codes stay taken there (and answer as codes the new
    // owner never made: the next test).
    const reclaimed = await api(other.apiKey, 'POST', '/v2/domains', { domain: name });
    expect(reclaimed.status).toBe(201);
    expect((await api(other.apiKey, 'POST', `/v2/domains/${name}/verify`)).json()).toMatchObject({ status: 'pending', statusReason: expect.stringContaining('TXT') });
    publishDnsRecords(reclaimed.json(), ['TXT']);
    await checkDueNow(name);
    await eventually(async () => expect((await api(other.apiKey, 'GET', `/v2/domains/${name}`)).json()).toMatchObject({ status: 'active' }));
    expect((await shorten(other.apiKey, { url: 'https://attacker.example.com/', alias: codes[0], domain: name })).json()).toMatchObject({ message: 'Alias is already taken' });
  });

  it('carry nothing of a former owner once another account claims the name: 404 for its visitors and for the former owner, no click to its webhooks', async () => {
    const [former, next] = [await createApiKey('PRO'), await createApiKey('PRO')];
    const receiver = new WebhookReceiver(receiverPorts()[1] as number);
    await receiver.start();
    try {
      const clicksOn = (path: string) => receiver.on(path).filter((delivery) => delivery.event.type === 'link.clicked');
      for (const [apiKey, path] of [[former.apiKey, '/former'], [next.apiKey, '/next']] as const) {
        expect((await api(apiKey, 'POST', '/v2/webhooks', { url: receiver.url(path), events: ['link.clicked'] })).status).toBe(201);
      }
      const name = await activeDomain(former.apiKey);
      const old = [`old-${run}`, `ended-${run}`];
      expect((await shorten(former.apiKey, { url: 'https://former.example.com/', alias: old[0], domain: name })).status).toBe(201);
      expect((await shorten(former.apiKey, { url: 'https://former.example.com/ended', alias: old[1], domain: name, expiredUrl: 'https://former.example.com/over' })).status).toBe(201);
      // The former owner's webhook works: one click, one event.
      expect((await visit(name, `/${old[0]}`)).status).toBe(302);
      await eventually(async () => expect(clicksOn('/former')).toHaveLength(1), 20_000);

      expect((await api(former.apiKey, 'DELETE', `/v2/domains/${name}`)).status).toBe(204);
      // Held for the former owner for 7 days, unless an operator releases it.
      expect((await ops('domains', 'release', name)).code).toBe(0);
      await activeDomain(next.apiKey, name);
      const fresh = `new-${run}`;
      expect((await shorten(next.apiKey, { url: 'https://next.example.com/', alias: fresh, domain: name })).status).toBe(201);

      await eventually(async () => expect((await visit(name, `/${fresh}`)).headers.location).toBe('https://next.example.com/'));
      for (const code of old) expect((await visit(name, `/${code}`)).status).toBe(404);
      // Nor can the former owner reach them through the name it no longer holds, nor the new owner through its own.
      for (const [apiKey, code] of [[former.apiKey, old[0]], [former.apiKey, old[1]], [next.apiKey, old[0]]] as const) {
        for (const [method, path, body] of [
          ['GET', `/v2/links/${code}?domain=${name}`],
          ['GET', `/v2/links/${code}/stats?domain=${name}`],
          ['PATCH', `/v2/links/${code}?domain=${name}`, { url: 'https://elsewhere.example.com/' }],
          ['DELETE', `/v2/links/${code}?domain=${name}`],
        ] as const) {
          const answer = await api(apiKey, method, path, body);
          expect([method, path, answer.status, answer.json()]).toEqual([method, path, 404, { statusCode: 404, message: 'Link not found', error: 'Not Found' }]);
        }
      }
      // The new owner's visitors' clicks are the new owner's alone: once its webhook has heard of a click made after
      // the visits of the old codes, the former owner's has still heard of its own first one only.
      expect((await visit(name, `/${fresh}`)).status).toBe(302);
      await eventually(async () => expect(clicksOn('/next').map((delivery) => delivery.event.data.code)).toEqual([fresh, fresh]), 20_000);
      expect(clicksOn('/former')).toHaveLength(1);
    } finally {
      await receiver.stop();
    }
  });

  it('leave a removed name to its former owner, who may claim it again at once with a new TXT value', async () => {
    const { apiKey } = await createApiKey('PRO');
    const name = await activeDomain(apiKey);
    const before = (await api(apiKey, 'GET', `/v2/domains/${name}`)).json<{ dnsRecords: Array<{ value: string }> }>().dnsRecords[0]?.value;
    expect((await api(apiKey, 'DELETE', `/v2/domains/${name}`)).status).toBe(204);
    const again = await api(apiKey, 'POST', '/v2/domains', { domain: name });
    expect(again.status).toBe(201);
    expect(again.json<{ dnsRecords: Array<{ value: string }> }>().dnsRecords[0]?.value).not.toBe(before);
  });

  it('leave links stored before domains existed working: read, managed and visited with no migration', async () => {
    const { apiKey, accountId } = await createApiKey('PRO');
    const code = `legacy${run}`;
    await dynamo().send(
      new PutCommand({ TableName: stackOutput(StackOutputs.linksTable), Item: { code, url: 'https://example.com/legacy', isAlias: true, createdAt: '2026-01-02T03:04:05.000Z', clicks: 0, owner: `acct:${accountId}` } }),
    );
    expect((await api(apiKey, 'GET', `/v2/links/${code}`)).json()).toMatchObject({ shortCode: code, domain: expect.stringMatching(/^localhost:\d+$/), url: 'https://example.com/legacy' });
    expect((await http('GET', `/${code}`)).headers.location).toBe('https://example.com/legacy');
    expect((await api(apiKey, 'PATCH', `/v2/links/${code}`, { url: 'https://example.com/moved' })).status).toBe(200);
  });
});

describe('what a visitor controls on a customer host', () => {
  let name: string;
  let apiKey: string;

  beforeAll(async () => {
    ({ apiKey } = await createApiKey('PRO'));
    name = await activeDomain(apiKey);
    await shorten(apiKey, { url: 'https://example.com/secret-campaign', alias: 'campaign', domain: name });
  });

  /** Straight to the local edge, around the contract check: on a customer's host these paths are not the API's. */
  function atTheEdge(path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const outgoing = request(new URL(path, baseUrl()), { headers: { host: name, ...jsonHeaders(apiKey) }, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  it('cannot reach the API there: the edge answers API paths 404', async () => {
    for (const path of ['/v2/links', '/v2/domains', '/docs', '/health', '/v1/shorten', '/a/b']) {
      const answer = await atTheEdge(path);
      expect([answer.status, JSON.parse(answer.body)]).toEqual([404, { statusCode: 404, message: 'Not Found', error: 'Not Found' }]);
    }
  });

  it('cannot name a customer domain on the shared host: a forged viewer host or origin secret is ignored', async () => {
    expect((await http('GET', '/campaign', { headers: { 'x-viewer-host': name } })).status).toBe(404);
    expect((await http('GET', '/campaign', { headers: { 'x-viewer-host': name, 'x-origin-verify': 'guess' } })).status).toBe(404);
  });
});
