import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { readFileSync } from 'node:fs';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { hostPortOf, isPublicAddress } from '../domain/webhooks/address-policy';
import type { AttemptOutcome } from '../domain/webhooks/delivery';
import { retryAfterMs } from '../domain/webhooks/retry-schedule';
import { parseHostsFile } from './resolver-attachments';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** Answers are read this far and dropped: their content is never kept, logged or shown. */
export const MAX_ANSWER_BYTES = 64 * 1024;

const REFUSED = 'refused: the host resolves to an address that is not public';

class RefusedAddress extends Error {
  constructor() {
    super(REFUSED);
  }
}

/**
 * Resolves at delivery time and refuses the name when any of its answers is not a public address (one private
 * answer is enough for a rebinding attack to pick it), then connects to the first answer.
 */
function guardedLookup(allowPrivate: boolean, hostsFile: string | undefined): LookupFunction {
  return (hostname, options, callback) => {
    const resolved = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      if (addresses.length === 0) return callback(new Error('no address'), '', 4);
      if (!allowPrivate && addresses.some((answer) => !isPublicAddress(answer.address))) return callback(new RefusedAddress(), '', 4);
      const chosen = addresses[0] as LookupAddress;
      if ((options as { all?: boolean }).all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, [chosen]);
      return callback(null, chosen.address, chosen.family);
    };
    // A local run's hosts file (LOCAL_HOSTS_FILE) answers first, as DNS would: tests point names at this machine.
    const listed = hostsFile ? parseHostsFile(safeRead(hostsFile)).get(hostname.toLowerCase()) : undefined;
    if (listed) return resolved(null, listed.map((address) => ({ address, family: isIP(address) })));
    dnsLookup(hostname, { ...options, all: true }, resolved);
  };
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

export interface SendOptions {
  /** `host:port` pairs a local run may reach on private addresses (LOCAL_WEBHOOK_ALLOW). */
  localReceivers: ReadonlySet<string>;
  /** A local run's hosts file, read before DNS (LOCAL_HOSTS_FILE). */
  hostsFile?: string;
  timeoutMs?: number;
}

/**
 * One POST, redirects not followed, 10 s for the whole exchange. The connected socket's address is checked again,
 * so whatever resolved it (a cached lookup, an IP literal) cannot lead to a private address.
 */
export function sendWebhook(url: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const allowPrivate = options.localReceivers.has(hostPortOf(target));
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(literal) && !isPublicAddress(literal)) return Promise.resolve({ error: REFUSED, durationMs: 0 });
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(outcome);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        agent: false,
        lookup: guardedLookup(allowPrivate, options.hostsFile),
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'url-shortener-webhooks/1' },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const asked = retryAfterMs(response.headers['retry-after'], Date.now());
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) settle({ status, ...(asked !== undefined ? { retryAfterMs: asked } : {}), durationMs: durationMs() });
        });
        response.on('end', () => settle({ status, ...(asked !== undefined ? { retryAfterMs: asked } : {}), durationMs: durationMs() }));
        response.on('error', () => settle({ status, ...(asked !== undefined ? { retryAfterMs: asked } : {}), durationMs: durationMs() }));
      },
    );
    request.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        const address = socket.remoteAddress;
        if (!allowPrivate && (address === undefined || !isPublicAddress(address))) settle({ error: REFUSED, durationMs: durationMs() });
      });
    });
    request.on('error', (error: Error) => {
      settle({ error: error instanceof RefusedAddress ? REFUSED : describe(error), durationMs: durationMs() });
    });
    const timer = setTimeout(() => settle({ error: 'timeout: no answer within 10 s', durationMs: durationMs() }), options.timeoutMs ?? DELIVERY_TIMEOUT_MS);
    request.end(body);
  });
}

/** What went wrong, in words that reveal nothing of the answer: the error's code only. */
function describe(error: Error): string {
  const code = (error as { code?: string }).code;
  return `connection failed${code ? ` (${code})` : ''}`;
}
