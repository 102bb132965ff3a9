import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { OwnMessages } from '../../functions/shared/domain/messages';
import { STRICT_TRANSPORT_SECURITY } from '../../functions/shared/http/headers';
import { StackOutputs } from '../../lib/stack-outputs';
import { createApiKey, devApiKey, dynamo, http, jsonHeaders, rawHttp, stackOutput, uniqueLoopbackAddress } from '../support/local-stack';
import { ISO_MS } from '../support/spec-shapes';

/** Issue 16: findings from probing the API as an attacker would, each a test that failed before. */

const BAD_UTF8 = Buffer.concat([Buffer.from('{"url":"https://example.com/'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
const LONE_SURROGATE = '{"url":"https://example.com/\\ud800"}';

describe('bodies that are not UTF-8 text', () => {
  let code: string;
  beforeAll(async () => {
    code = (await http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body: { url: 'https://example.com/utf8' } })).json<{ shortCode: string }>().shortCode;
  });

  const routes = (): Array<[string, string]> => [
    ['POST', '/v2/shorten'],
    ['POST', '/v2/shorten/batch'],
    ['POST', '/v1/shorten'],
    ['PATCH', `/v2/links/${code}`],
  ];

  it.each([
    ['invalid UTF-8 bytes', BAD_UTF8],
    ['a lone surrogate, escaped in valid JSON', Buffer.from(LONE_SURROGATE)],
  ])('are refused with 400 on every route with a body, never stored with U+FFFD: %s', async (_why, body) => {
    for (const [method, path] of routes()) {
      const batch = path.endsWith('batch');
      const payload = batch ? Buffer.concat([Buffer.from('{"urls":['), body, Buffer.from(']}')]) : body;
      // An address of its own: other files' v1 calls from 127.0.0.1 in the same minute must not spend this one's limit.
      const response = await rawHttp(method, path, [['content-type', 'application/json'], ['authorization', `Bearer ${devApiKey()}`]], payload, uniqueLoopbackAddress());
      expect([path, response.status]).toEqual([path, 400]);
      expect(response.json()).toEqual({ statusCode: 400, timestamp: expect.stringMatching(ISO_MS), path, method, message: OwnMessages.bodyNotUtf8 });
    }
    const view = await http('GET', `/v2/links/${code}`, { headers: jsonHeaders(devApiKey()) });
    expect(view.json()).toMatchObject({ url: 'https://example.com/utf8' });
  });
});

describe('the password form', () => {
  it('answers a CSRF pair of equal length but different bytes with a fresh form, not a 500', async () => {
    const { shortCode } = (await http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body: { url: 'https://example.com/csrf', password: 'open sesame' } })).json<{ shortCode: string }>();
    const response = await http('POST', `/${shortCode}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'shortener_csrf=a', accept: 'text/html' },
      body: 'password=open%20sesame&csrf=%C3%A9',
    });
    expect(response.status).toBe(403);
  });
});

describe('no visitor address kept', () => {
  it('counts v1 callers and password attempts under keyed hashes: no usage counter holds the address', async () => {
    const v1Address = uniqueLoopbackAddress();
    const visitorAddress = uniqueLoopbackAddress();
    expect((await http('POST', '/v1/shorten', { headers: jsonHeaders(), body: { url: 'https://example.com/anon' }, localAddress: v1Address })).status).toBe(201);
    const { shortCode } = (await http('POST', '/v2/shorten', { headers: jsonHeaders(devApiKey()), body: { url: 'https://example.com/pwd', password: 'open sesame' } })).json<{ shortCode: string }>();
    const form = await http('GET', `/${shortCode}`, { headers: { accept: 'text/html' }, localAddress: visitorAddress });
    const cookie = String(form.headers['set-cookie']).split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    const attempt = await http('POST', `/${shortCode}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, accept: 'text/html' },
      body: new URLSearchParams({ password: 'wrong guess', csrf }).toString(),
      localAddress: visitorAddress,
    });
    expect(attempt.status).toBe(401);

    const { Items = [] } = await dynamo().send(new ScanCommand({ TableName: stackOutput(StackOutputs.usageTable) }));
    const keys = Items.map((item) => String(item.pk));
    expect(keys.some((key) => key.startsWith(`pwd#${shortCode}#`))).toBe(true);
    expect(keys.filter((key) => key.includes(v1Address) || key.includes(visitorAddress))).toEqual([]);
    expect(keys.filter((key) => /\d+\.\d+\.\d+\.\d+/.test(key))).toEqual([]);
  });
});

describe('HTTPS only, from the first answer on', () => {
  it('sends HSTS on API answers, on answers API Gateway makes itself, on visitor answers and on the reference page', async () => {
    const { apiKey } = await createApiKey('PRO');
    const answers = await Promise.all([
      http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url: 'https://example.com/hsts' } }),
      http('POST', '/v2/shorten', { headers: jsonHeaders(apiKey), body: { url: 'javascript:alert(1)' } }),
      http('GET', '/v2/no-such-route'),
      http('GET', '/no-such-link', { headers: { accept: 'text/html' } }),
      http('GET', '/v2/openapi.json'),
    ]);
    const created = answers[0]?.json<{ shortCode: string }>().shortCode;
    answers.push(await http('GET', `/${created}`));
    expect(answers.map((answer) => [answer.status, answer.headers[STRICT_TRANSPORT_SECURITY.name]])).toEqual(
      [201, 400, 404, 404, 200, 302].map((status) => [status, STRICT_TRANSPORT_SECURITY.value]),
    );
  });
});
