import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { CLI_CALLBACK_PATH, CLI_CALLBACK_PORTS, cliCallbackUrl } from '../../../clients/sign-in/cli-callback';
import { UsageError } from '../csv-links';

/** A sign-in not finished in this time is abandoned: the port is not left open on the machine. */
const DEFAULT_TIMEOUT_MS = 5 * 60_000;
/** Loopback only: another machine on the network never reaches the listener, whatever the firewall says. */
const LOOPBACK = '127.0.0.1';

export interface LoopbackCallback {
  /** The redirect URI to send with the authorization request (one of the app client's exact callbacks). */
  redirectUri: string;
  /** The authorization code, once a request with the expected `state` has brought it; the listener is then closed. */
  code: Promise<string>;
  close(): Promise<void>;
}

const sameState = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

function answer(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', connection: 'close' }).end(`${text}\n`);
}

function listenOn(server: Server, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(false) : reject(error));
    server.once('error', failed);
    server.listen(port, LOOPBACK, () => {
      server.off('error', failed);
      resolve(true);
    });
  });
}

/**
 * Waits on 127.0.0.1, on the first free port of the client's callbacks, for the browser's redirect back from the
 * provider (RFC 8252 §7.3). It takes one answer only, the one carrying the `state` this login sent (a request with
 * any other state is refused with 400 and changes nothing: another page cannot slip its own code in), and then
 * closes, so a replay finds nothing listening.
 */
export async function listenForCallback(state: string, options: { ports?: readonly number[]; timeoutMs?: number } = {}): Promise<LoopbackCallback> {
  let settle: { resolve(code: string): void; reject(error: Error): void } | undefined;
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  let done = false;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method !== 'GET' || url.pathname !== CLI_CALLBACK_PATH) return answer(response, 404, 'Not found.');
    if (done || !sameState(url.searchParams.get('state') ?? '', state)) return answer(response, 400, 'This is not the sign-in this command started: nothing was done.');
    const error = url.searchParams.get('error');
    const given = url.searchParams.get('code');
    if (!error && !given) return answer(response, 400, 'The provider sent no code: nothing was done.');
    done = true;
    if (given && !error) {
      answer(response, 200, 'Signed in: you can close this tab and go back to the terminal.');
      settle?.resolve(given);
    } else {
      answer(response, 400, 'Signing in did not finish: see the terminal.');
      settle?.reject(new UsageError(`the sign-in was refused: ${error ?? ''}${url.searchParams.get('error_description') ? ` (${url.searchParams.get('error_description')})` : ''}`));
    }
    response.on('finish', () => void close());
  });
  const timer = setTimeout(() => {
    done = true;
    settle?.reject(new UsageError('nobody signed in in time: run `shortener login` again'));
    void close();
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  timer.unref();
  const close = () =>
    new Promise<void>((resolve) => {
      clearTimeout(timer);
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });

  const ports = options.ports ?? CLI_CALLBACK_PORTS;
  let port: number | undefined;
  for (const candidate of ports) {
    if (await listenOn(server, candidate)) {
      port = candidate;
      break;
    }
  }
  if (port === undefined) clearTimeout(timer);
  if (port === undefined) throw new UsageError(`cannot listen for the sign-in's answer: ports ${ports.join(', ')} on ${LOOPBACK} are all in use`);
  code.catch(() => undefined);
  return { redirectUri: cliCallbackUrl(port), code, close };
}
