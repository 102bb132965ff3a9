import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

/** One delivery as a receiver saw it. */
export interface Received {
  path: string;
  id: string;
  signature: string;
  headers: IncomingHttpHeaders;
  body: string;
  event: { type: string; timestamp: string; data: Record<string, unknown> };
  at: number;
}

/** What a path answers: a status (with headers), one per delivery in turn; the last one repeats. */
export type Script = Array<{ status: number; headers?: Record<string, string> }>;

/**
 * A customer's endpoint on one of the ports the local stack may deliver to (WEBHOOK_RECEIVER_PORTS): it keeps every
 * delivery, answers each path as scripted (200 by default) and counts connections, so a test can tell that
 * nothing connected at all.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  connections = 0;
  private readonly scripts = new Map<string, Script>();
  private server?: Server;

  constructor(readonly port: number) {}

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  script(path: string, answers: Script): void {
    this.scripts.set(path, answers);
  }

  on(path: string): Received[] {
    return this.received.filter((delivery) => delivery.path === path);
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({
          path,
          id: String(request.headers['webhook-id']),
          signature: String(request.headers['webhook-signature']),
          headers: request.headers,
          body,
          event: JSON.parse(body) as Received['event'],
          at: Date.now(),
        });
        const script = this.scripts.get(path) ?? [];
        const answer = script.length > 1 ? (script.shift() as Script[number]) : (script[0] ?? { status: 200 });
        response.writeHead(answer.status, answer.headers ?? {});
        response.end('thanks');
      });
    });
    this.server.on('connection', () => (this.connections += 1));
    // A port another process holds fails here, at once, rather than as a test's timeout.
    await new Promise<void>((resolve, reject) => this.server?.once('error', reject).listen(this.port, '127.0.0.1', () => resolve()));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export function receiverPorts(): number[] {
  const ports = (process.env.WEBHOOK_RECEIVER_PORTS ?? '').split(',').map(Number).filter((port) => port > 0);
  if (ports.length < 2) throw new Error('WEBHOOK_RECEIVER_PORTS is not set: the stack project\'s global setup sets it');
  return ports;
}

/** Verifies a delivery as a receiver would, with the Standard Webhooks library; throws when it does not verify. */
export function verify(secret: string, delivery: Received): unknown {
  return new Webhook(secret).verify(delivery.body, {
    'webhook-id': delivery.id,
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': delivery.signature,
  });
}
