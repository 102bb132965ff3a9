import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { IncomingHttpHeaders } from 'node:http';
import * as http from 'node:http';
import * as https from 'node:https';
import { readFileSync } from 'node:fs';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { isPublicAddress } from '../domain/links/url-policy';
import { parseHostsFile } from './resolver-attachments';

/**
 * One HTTP exchange with a URL someone else chose (a webhook's endpoint, a link's destination), under the rules
 * that keep the service's own network out of reach: every address the name resolves to must be public (one private
 * answer is enough for a rebinding attack to pick it), the socket's connected address is checked again, redirects
 * are never followed, at most 64 KiB of the answer is read and dropped, and one deadline covers the whole exchange.
 */

/** Answers are read this far and dropped: their content is never kept, logged or shown. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface GuardedRequest {
  method: 'POST' | 'HEAD' | 'GET';
  headers: Record<string, string>;
  body?: string;
}

export interface GuardOptions {
  /** The URL's `host:port` is one a local run may reach on private addresses (its allow list). */
  allowPrivate: boolean;
  /** A local run's hosts file, read before DNS (LOCAL_HOSTS_FILE). */
  hostsFile?: string;
  timeoutMs: number;
}

/** Why no answer came: the address rule, the name, the TLS handshake, the deadline, or the connection. */
export type FailureKind = 'refused' | 'dns' | 'tls' | 'timeout' | 'connection';

export type GuardedResult =
  | { answer: { status: number; headers: IncomingHttpHeaders; bodyComplete: boolean }; durationMs: number }
  | { failure: FailureKind; code?: string; durationMs: number };

class RefusedAddress extends Error {}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * The system resolver's answer within the exchange's deadline. A lookup cannot be called off, so a name server that
 * never answers is simply no longer waited for: the deadline stays the whole exchange's, DNS included.
 */
function lookupWithin(name: string, timeoutMs: number): Promise<LookupAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('no answer in time'), { code: 'ETIMEOUT' })), timeoutMs);
  });
  return Promise.race([lookup(name, { all: true }), late]).finally(() => clearTimeout(timer));
}

/** The name's addresses now, the local run's hosts file first as DNS would be: tests point names at this machine. */
async function resolveAddresses(hostname: string, options: GuardOptions): Promise<LookupAddress[]> {
  const { allowPrivate, hostsFile } = options;
  const bare = hostname.replace(/^\[|\]$/g, '');
  const listed = hostsFile ? parseHostsFile(safeRead(hostsFile)).get(bare.toLowerCase()) : undefined;
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : listed ? listed.map((address) => ({ address, family: isIP(address) })) : await lookupWithin(bare, options.timeoutMs);
  if (addresses.length === 0) throw Object.assign(new Error('no address'), { code: 'ENOTFOUND' });
  if (!allowPrivate && addresses.some((answer) => !isPublicAddress(answer.address))) throw new RefusedAddress();
  return addresses;
}

/** Connects to this one address, whatever the name would resolve to now. */
const pinnedTo = (answer: LookupAddress): LookupFunction => (_hostname, options, callback) =>
  (options as { all?: boolean }).all
    ? (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, [answer])
    : callback(null, answer.address, answer.family);

/** Failures before the connection was made (a reset may come after the request went out): another address may answer. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ETIMEDOUT']);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENODATA', 'ESERVFAIL', 'EAI_FAIL']);

/** A connection error's kind, by its code (Node's TLS errors are named for what the certificate or handshake lacked). */
function kindOf(code: string | undefined): FailureKind {
  if (code === undefined) return 'connection';
  if (DNS_CODES.has(code)) return 'dns';
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code)) return 'tls';
  return 'connection';
}

/**
 * The exchange: the name's addresses tried in the resolver's order, the next one when a connection cannot be made,
 * as a browser would; an answer of any status ends it.
 */
export async function guardedRequest(url: string, request: GuardedRequest, options: GuardOptions): Promise<GuardedResult> {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  const target = new URL(url);
  // Only HTTP is spoken: any other scheme (a destination stored before today's rules) is refused, never thrown.
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return { failure: 'refused', durationMs: 0 };
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(literal) && !isPublicAddress(literal)) return { failure: 'refused', durationMs: 0 };
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAddresses(target.hostname, options);
  } catch (error) {
    if (error instanceof RefusedAddress) return { failure: 'refused', durationMs: durationMs() };
    const code = (error as { code?: string }).code;
    return { failure: 'dns', ...(code ? { code } : {}), durationMs: durationMs() };
  }
  const deadline = started + options.timeoutMs;
  let result: GuardedResult | undefined;
  for (const answer of addresses) {
    const attempt = await exchangeWith(target, answer, request, options.allowPrivate, Math.max(0, deadline - performance.now()));
    if ('error' in attempt) {
      const code = (attempt.error as { code?: string }).code;
      result = { failure: kindOf(code), ...(code ? { code } : {}), durationMs: durationMs() };
      if (!NOT_CONNECTED.has(code ?? '')) break;
      continue;
    }
    result = { ...attempt, durationMs: durationMs() } as GuardedResult;
    break;
  }
  return result as GuardedResult;
}

type Attempt =
  | { answer: { status: number; headers: IncomingHttpHeaders; bodyComplete: boolean } }
  | { failure: 'refused' | 'timeout' }
  | { error: Error };

/** One exchange with one address: its answer, a refusal or timeout (final), or the connection error (maybe not). */
function exchangeWith(target: URL, address: LookupAddress, request: GuardedRequest, allowPrivate: boolean, timeoutMs: number): Promise<Attempt> {
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    let head: { status: number; headers: IncomingHttpHeaders } | undefined;
    const settle = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
      resolve(attempt);
    };
    const answered = (bodyComplete: boolean) => head && settle({ answer: { ...head, bodyComplete } });
    const outgoing = client.request(
      target,
      {
        method: request.method,
        agent: false,
        lookup: pinnedTo(address),
        headers: { ...request.headers, ...(request.body !== undefined ? { 'content-length': String(Buffer.byteLength(request.body)) } : {}) },
      },
      (response) => {
        head = { status: response.statusCode ?? 0, headers: response.headers };
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) answered(true);
        });
        response.on('end', () => answered(true));
        response.on('error', () => answered(true));
      },
    );
    outgoing.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        const remote = socket.remoteAddress;
        if (!allowPrivate && (remote === undefined || !isPublicAddress(remote))) settle({ failure: 'refused' });
      });
    });
    outgoing.on('error', (error: Error) => settle({ error }));
    // Past the deadline an answer whose head came is kept, marked incomplete: the caller decides what that means.
    const timer = setTimeout(() => settle(head ? { answer: { ...head, bodyComplete: false } } : { failure: 'timeout' }), timeoutMs);
    outgoing.end(request.body);
  });
}
