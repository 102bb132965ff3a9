import { isIP } from 'node:net';
import { HEALTH_USER_AGENT, type ProbeAnswer } from '../domain/health/link-health';
import { hostPortOf } from '../domain/webhooks/address-policy';
import { guardedRequest } from './guarded-request';

export const PROBE_TIMEOUT_MS = 10_000;

export interface ProberOptions {
  /** A local run's destinations on private addresses it may check (LOCAL_HEALTH_ALLOW); IP literals never pass. */
  localAllow: ReadonlySet<string>;
  hostsFile?: string;
  timeoutMs?: number;
}

/**
 * One request to a destination under the webhook delivery's address rules (guarded-request.ts): public addresses
 * only, checked on every answer of the name and on the connected socket, no redirect followed, 64 KiB read at most,
 * 10 s for the whole exchange. A head that came before the deadline counts (a slow body does not make a site down).
 */
export async function requestDestination(url: string, method: 'HEAD' | 'GET', options: ProberOptions): Promise<ProbeAnswer> {
  const target = new URL(url);
  const literal = isIP(target.hostname.replace(/^\[|\]$/g, '')) !== 0;
  const result = await guardedRequest(
    url,
    { method, headers: { 'user-agent': HEALTH_USER_AGENT, accept: '*/*' } },
    { allowPrivate: !literal && options.localAllow.has(hostPortOf(target)), ...(options.hostsFile ? { hostsFile: options.hostsFile } : {}), timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS },
  );
  if ('failure' in result) return { failure: result.failure };
  const location = result.answer.headers.location;
  return { status: result.answer.status, ...(typeof location === 'string' ? { location } : {}) };
}
