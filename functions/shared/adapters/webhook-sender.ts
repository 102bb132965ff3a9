import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import { readFileSync } from 'node:fs';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { isPublicAddress } from '../domain/links/url-policy';
import { hostPortOf } from '../domain/webhooks/address-policy';
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
 * The name's addresses at delivery time, the local run's hosts file (LOCAL_HOSTS_FILE) first as DNS would be: tests
 * point names at this machine. Refused when any answer is not public (one private answer is enough for a rebinding
 * attack to pick it).
 */
async function resolveAddresses(hostname: string, allowPrivate: boolean, hostsFile: string | undefined): Promise<LookupAddress[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const listed = hostsFile ? parseHostsFile(safeRead(hostsFile)).get(bare.toLowerCase()) : undefined;
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : listed ? listed.map((address) => ({ address, family: isIP(address) })) : await lookup(bare, { all: true });
  if (addresses.length === 0) throw Object.assign(new Error('no address'), { code: 'ENOTFOUND' });
  if (!allowPrivate && addresses.some((answer) => !isPublicAddress(answer.address))) throw new RefusedAddress();
  return addresses;
}

/** Connects to this one address, whatever the name would resolve to now. */
const pinnedTo = (answer: LookupAddress): LookupFunction => (_hostname, options, callback) =>
  (options as { all?: boolean }).all
    ? (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, [answer])
    : callback(null, answer.address, answer.family);

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

/** Failures before the connection was made (a reset may come after the request went out): another address may answer. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ETIMEDOUT']);

/**
 * One POST, redirects not followed, 10 s for the whole exchange. The name's addresses are tried in the resolver's
 * order, the next one when a connection cannot be made, as a browser would; an answer of any status ends it. The
 * connected socket's address is checked again, so whatever resolved it (a cached lookup, an IP literal) cannot lead
 * to a private address.
 */
export async function sendWebhook(url: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const allowPrivate = options.localReceivers.has(hostPortOf(target));
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(literal) && !isPublicAddress(literal)) return { error: REFUSED, durationMs: 0 };
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAddresses(target.hostname, allowPrivate, options.hostsFile);
  } catch (error) {
    return { error: error instanceof RefusedAddress ? REFUSED : describe(error as Error), durationMs: durationMs() };
  }
  const deadline = started + (options.timeoutMs ?? DELIVERY_TIMEOUT_MS);
  let outcome: AttemptOutcome | undefined;
  for (const answer of addresses) {
    const attempt = await postTo(target, answer, headers, body, allowPrivate, Math.max(0, deadline - performance.now()));
    outcome = 'outcome' in attempt ? { ...attempt.outcome, durationMs: durationMs() } : { error: describe(attempt.error), durationMs: durationMs() };
    if ('outcome' in attempt || !NOT_CONNECTED.has((attempt.error as { code?: string }).code ?? '')) break;
  }
  return outcome as AttemptOutcome;
}

type Attempt = { outcome: AttemptOutcome } | { error: Error };

/** One exchange with one address: its answer, a refusal or timeout (final), or the connection error (maybe not). */
function postTo(target: URL, answer: LookupAddress, headers: Record<string, string>, body: string, allowPrivate: boolean, timeoutMs: number): Promise<Attempt> {
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(attempt);
    };
    const answered = (status: number, asked: number | undefined) => settle({ outcome: { status, ...(asked !== undefined ? { retryAfterMs: asked } : {}), durationMs: 0 } });
    const request = client.request(
      target,
      {
        method: 'POST',
        agent: false,
        lookup: pinnedTo(answer),
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'url-shortener-webhooks/1' },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const asked = retryAfterMs(response.headers['retry-after'], Date.now());
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) answered(status, asked);
        });
        response.on('end', () => answered(status, asked));
        response.on('error', () => answered(status, asked));
      },
    );
    request.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        const address = socket.remoteAddress;
        if (!allowPrivate && (address === undefined || !isPublicAddress(address))) settle({ outcome: { error: REFUSED, durationMs: 0 } });
      });
    });
    request.on('error', (error: Error) => settle({ error }));
    const timer = setTimeout(() => settle({ outcome: { error: 'timeout: no answer within 10 s', durationMs: 0 } }), timeoutMs);
    request.end(body);
  });
}
/** What went wrong, in words that reveal nothing of the answer: the error's code only. */
function describe(error: Error): string {
  const code = (error as { code?: string }).code;
  return `connection failed${code ? ` (${code})` : ''}`;
}
