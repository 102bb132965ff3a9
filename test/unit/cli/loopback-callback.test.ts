import { createServer, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { listenForCallback } from '../../../bin/shortener/sign-in/loopback-callback';

/** `shortener login`'s listener: what a page or a process on the machine (the attacker here) can send it. */
const STATE = 'the-state-this-login-sent-0123456789';

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, () => new Promise<Server>((resolve) => { const server = createServer(); server.listen(0, '127.0.0.1', () => resolve(server)); })));
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

const get = (url: string) => fetch(url).then(async (response) => ({ status: response.status, text: await response.text() }));

describe('the loopback listener of shortener login', () => {
  it('refuses a wrong state (and a missing one) with 400, takes the expected one once, then listens no more', async () => {
    const [port] = await freePorts(1);
    const callback = await listenForCallback(STATE, { ports: [port as number] });
    expect(callback.redirectUri).toBe(`http://localhost:${port}/callback`);
    const at = `http://127.0.0.1:${port}/callback`;

    expect((await get(`${at}?code=attacker-code&state=guessed`)).status).toBe(400);
    expect((await get(`${at}?code=attacker-code`)).status).toBe(400);
    expect((await get(`${at}?code=attacker-code&state=${STATE}x`)).status).toBe(400);
    expect((await get(`http://127.0.0.1:${port}/elsewhere?code=c&state=${STATE}`)).status).toBe(404);

    const answered = await get(`${at}?code=the-real-code&state=${STATE}`);
    expect(answered).toEqual({ status: 200, text: expect.stringContaining('Signed in') });
    await expect(callback.code).resolves.toBe('the-real-code');
    // A replay of the same answer finds nothing listening.
    await expect(fetch(`${at}?code=the-real-code&state=${STATE}`)).rejects.toThrow();
  });

  it('binds 127.0.0.1 only: no other address of the machine reaches it', async () => {
    const [port] = await freePorts(1);
    const callback = await listenForCallback(STATE, { ports: [port as number] });
    try {
      const others = Object.values(networkInterfaces()).flat().flatMap((address) => (address && address.address !== '127.0.0.1' ? [address] : []));
      // ::1 always: a listener on every address (:: or 0.0.0.0) would answer there.
      const hosts = ['[::1]', ...others.map((address) => (address.family === 'IPv6' ? `[${address.address}${address.scopeid ? `%25${address.scopeid}` : ''}]` : address.address))];
      for (const host of hosts) {
        await expect(fetch(`http://${host}:${port}/callback?code=c&state=${STATE}`)).rejects.toThrow();
      }
    } finally {
      await callback.close();
    }
  });

  it('reports the provider\'s refusal carried with the right state, and skips a port already taken', async () => {
    const [taken, free] = await freePorts(2);
    const squatter = createServer().listen(taken, '127.0.0.1');
    try {
      const callback = await listenForCallback(STATE, { ports: [taken as number, free as number] });
      expect(callback.redirectUri).toBe(`http://localhost:${free}/callback`);
      expect((await get(`http://127.0.0.1:${free}/callback?error=access_denied&state=${STATE}`)).status).toBe(400);
      await expect(callback.code).rejects.toThrow('the sign-in was refused: access_denied');
    } finally {
      squatter.close();
    }
  });

  it('gives up after its time, closing the port', async () => {
    const [port] = await freePorts(1);
    const callback = await listenForCallback(STATE, { ports: [port as number], timeoutMs: 10 });
    await expect(callback.code).rejects.toThrow('nobody signed in in time');
    await expect(fetch(`http://127.0.0.1:${port}/callback?code=c&state=${STATE}`)).rejects.toThrow();
  });
});
