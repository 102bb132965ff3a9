import { createServer, type IncomingMessage } from 'node:http';

/** A destination for short links on loopback: a page whose HTML `render` writes, for each request. */
export async function startDestination(render: (request: IncomingMessage) => string): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(render(request));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
