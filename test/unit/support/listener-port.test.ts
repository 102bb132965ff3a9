import { createServer } from 'node:net';
import { ephemeralRangeStart, portForLaterListener } from '../../support/listener-port';

/** The stack tests' servers listen minutes after their ports are chosen: none may come from the ephemeral range. */
describe('a port for a server that starts later', () => {
  it('is below the range outgoing connections take their ports from, and free', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => portForLaterListener()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(Math.min(ephemeralRangeStart(), 32768));
    }
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(ports[0], '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
