import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { requestDestination } from '../../../functions/shared/adapters/destination-prober';
import { HEALTH_USER_AGENT } from '../../../functions/shared/domain/health/link-health';

/** A destination's check against servers on this machine: what it asks, what it refuses, what it reads. */
let server: Server;
let port: number;
let connections = 0;
const seen: Array<{ method?: string; userAgent?: string; url?: string }> = [];
let answer: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end('ok');
let hostsFile: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ method: request.method, userAgent: request.headers['user-agent'], url: request.url });
    answer(request, response);
  });
  server.on('connection', () => (connections += 1));
  port = await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  hostsFile = path.join(mkdtempSync(path.join(tmpdir(), 'hosts-')), 'hosts');
  writeFileSync(hostsFile, '127.0.0.1 dest.example-shop.com\n127.0.0.1 private.example-shop.com\n');
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  seen.length = 0;
  connections = 0;
  answer = (_request, response) => response.end('ok');
});

const allowed = () => new Set([`dest.example-shop.com:${port}`, `127.0.0.1:${port}`]);
const check = (url: string, method: 'HEAD' | 'GET' = 'HEAD', timeoutMs?: number) => requestDestination(url, method, { localAllow: allowed(), hostsFile, ...(timeoutMs ? { timeoutMs } : {}) });

describe('one request to a destination', () => {
  it('asks with the method given and a User-Agent that names the service', async () => {
    answer = (_request, response) => {
      response.writeHead(204);
      response.end();
    };
    expect(await check(`http://dest.example-shop.com:${port}/spring`)).toEqual({ status: 204 });
    expect(seen).toEqual([{ method: 'HEAD', userAgent: HEALTH_USER_AGENT, url: '/spring' }]);
  });

  it('reports a redirect with where it leads and never follows it, even to the metadata address', async () => {
    answer = (_request, response) => {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      response.end();
    };
    expect(await check(`http://dest.example-shop.com:${port}/moved`)).toEqual({ status: 302, location: 'http://169.254.169.254/latest/meta-data/' });
    expect(seen).toHaveLength(1);
  });

  it('a GET reads at most 64 KiB of a huge body; a body that trickles past the deadline still counts by its status', async () => {
    answer = (_request, response) => {
      response.writeHead(200);
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      for (let index = 0; index < 50; index++) response.write(chunk);
      response.end();
    };
    expect(await check(`http://dest.example-shop.com:${port}/huge`, 'GET')).toEqual({ status: 200 });
    answer = (_request, response) => {
      response.writeHead(200);
      response.write('a');
      // and nothing more, ever
    };
    expect(await check(`http://dest.example-shop.com:${port}/slow`, 'GET', 300)).toEqual({ status: 200 });
  });

  it('no answer at all is a timeout; a name that does not resolve is dns', async () => {
    answer = () => undefined;
    expect(await check(`http://dest.example-shop.com:${port}/silent`, 'HEAD', 300)).toEqual({ failure: 'timeout' });
    expect(await check('http://no-such-host.invalid/')).toEqual({ failure: 'dns' });
  });
});

describe('never a way in', () => {
  it('refuses a destination whose name resolves to a private address, without connecting', async () => {
    expect(await check(`http://private.example-shop.com:${port}/`)).toEqual({ failure: 'refused' });
    expect(connections).toBe(0);
  });

  it('refuses IP literals even when a local run lists them: only names are allowed locally', async () => {
    expect(await check(`http://127.0.0.1:${port}/`)).toEqual({ failure: 'refused' });
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://10.0.0.1/']) expect(await check(url)).toEqual({ failure: 'refused' });
    expect(connections).toBe(0);
  });
});
