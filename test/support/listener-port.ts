import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where the system starts handing out ports to outgoing connections: Linux says so; macOS and BSDs use 49152. */
export function ephemeralRangeStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 49152;
  } catch {
    return 49152;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free port for a server a test starts minutes later (webhook receivers, the company's identity provider, link
 * health's destination), chosen below the ephemeral range. A port from `listen(0)` comes from that range, and in the
 * meantime any of the run's thousands of outgoing connections can take it as its own end: the test's server then
 * cannot listen there (a CI run lost link health's tests with its hook waiting out 30 s on two listens, its only waits).
 */
export async function portForLaterListener(): Promise<number> {
  const high = Math.min(ephemeralRangeStart(), 32768);
  const low = 10_000;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port between ${low} and ${high} for the tests' servers`);
}
