import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { MAX_ANSWER_BYTES, sendWebhook } from '../../../functions/shared/adapters/webhook-sender';

/** The deliverer's HTTP call against servers on this machine: what it sends, what it refuses, how it gives up. */
let server: Server;
let port: number;
let connections = 0;
const seen: Array<{ method?: string; headers: Record<string, unknown>; body: string }> = [];
let answer: (response: ServerResponse) => void = (response) => response.end('ok');

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ method: request.method, headers: request.headers, body });
      answer(response);
    });
  });
  server.on('connection', () => (connections += 1));
  port = await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  seen.length = 0;
  connections = 0;
  answer = (response) => response.end('ok');
});

const allowed = () => new Set([`127.0.0.1:${port}`, `hooks.example.com:${port}`, `several.example.com:${port}`]);
const send = (url: string, options: Partial<Parameters<typeof sendWebhook>[3]> = {}) => sendWebhook(url, { 'webhook-id': 'evt_1' }, '{"type":"webhook.test"}', { localReceivers: allowed(), ...options });

describe('one delivery', () => {
  it('POSTs the body with its headers and reports the status and Retry-After', async () => {
    answer = (response) => {
      response.writeHead(503, { 'retry-after': '30' });
      response.end();
    };
    const outcome = await send(`http://127.0.0.1:${port}/in`);
    expect(outcome).toEqual({ status: 503, retryAfterMs: 30_000, durationMs: expect.any(Number) });
    expect(seen).toEqual([{ method: 'POST', headers: expect.objectContaining({ 'webhook-id': 'evt_1', 'content-length': '23' }), body: '{"type":"webhook.test"}' }]);
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    answer = (response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` });
      response.end();
    };
    expect(await send(`http://127.0.0.1:${port}/in`)).toMatchObject({ status: 302 });
    expect(seen).toHaveLength(1);
  });

  it('reads at most 64 KiB of an answer and moves on', async () => {
    answer = (response) => {
      response.writeHead(200);
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      // 50 MB if it were read to the end.
      for (let index = 0; index < 50; index++) response.write(chunk);
      response.end();
    };
    expect(MAX_ANSWER_BYTES).toBe(65_536);
    expect(await send(`http://127.0.0.1:${port}/in`)).toMatchObject({ status: 200 });
  });

  it('gives up at the timeout when no answer comes', async () => {
    answer = () => undefined;
    expect(await send(`http://127.0.0.1:${port}/in`, { timeoutMs: 300 })).toEqual({ error: 'timeout: no answer within 10 s', durationMs: expect.any(Number) });
  });

  it('tries the name\'s next address when one cannot be reached, and stops at the first that answers (issue 27)', async () => {
    const hostsFile = path.join(mkdtempSync(path.join(tmpdir(), 'hosts-')), 'hosts');
    // Nothing listens on 127.0.0.2 (the receiver is bound to 127.0.0.1 only): that connection is refused.
    writeFileSync(hostsFile, `127.0.0.2 several.example.com\n127.0.0.1 several.example.com\n127.0.0.3 several.example.com\n`);
    answer = (response) => {
      response.writeHead(503);
      response.end();
    };
    expect(await send(`http://several.example.com:${port}/in`, { hostsFile })).toMatchObject({ status: 503 });
    expect(connections).toBe(1);
  });

  it('says the connection failed, with the code only', async () => {
    const closed = createTcpServer();
    const closedPort = await new Promise<number>((resolve) => closed.listen(0, '127.0.0.1', () => resolve((closed.address() as { port: number }).port)));
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await sendWebhook(`http://127.0.0.1:${closedPort}/in`, {}, '{}', { localReceivers: new Set([`127.0.0.1:${closedPort}`]) });
    expect(outcome).toEqual({ error: 'connection failed (ECONNREFUSED)', durationMs: expect.any(Number) });
  });
});

describe('never a way in', () => {
  const refused = { error: 'refused: the host resolves to an address that is not public', durationMs: expect.any(Number) };

  it('refuses a private address not on the local list, without connecting', async () => {
    expect(await send(`http://127.0.0.1:${port}/in`, { localReceivers: new Set() })).toEqual(refused);
    expect(await send(`http://[::ffff:127.0.0.1]:${port}/in`, { localReceivers: new Set() })).toEqual(refused);
    expect(connections).toBe(0);
  });

  it('refuses a name when any of its answers is private (DNS rebinding), checked at delivery time', async () => {
    const hostsFile = path.join(mkdtempSync(path.join(tmpdir(), 'hosts-')), 'hosts');
    writeFileSync(hostsFile, `93.184.215.14 rebind.example.com\n127.0.0.1 rebind.example.com\n127.0.0.1 hooks.example.com\n`);
    expect(await send(`http://rebind.example.com:${port}/in`, { hostsFile })).toEqual(refused);
    // The same name listed for a local receiver passes: the list names host:port pairs.
    expect(await send(`http://hooks.example.com:${port}/in`, { hostsFile })).toMatchObject({ status: 200 });
    expect(connections).toBe(1);
  });

  it('refuses metadata and other private literals outright', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://100.100.100.200/', 'http://0.0.0.0:1/', 'http://[4000::1]/', 'http://[::ffff:5db8:d70e]/']) {
      expect(await sendWebhook(url, {}, '{}', { localReceivers: new Set() })).toEqual({ ...refused, durationMs: 0 });
    }
  });
});
