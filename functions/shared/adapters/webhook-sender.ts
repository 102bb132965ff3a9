import { hostPortOf } from '../domain/webhooks/address-policy';
import type { AttemptOutcome } from '../domain/webhooks/delivery';
import { retryAfterMs } from '../domain/webhooks/retry-schedule';
import { guardedRequest, MAX_ANSWER_BYTES } from './guarded-request';

export { MAX_ANSWER_BYTES };
export const DELIVERY_TIMEOUT_MS = 10_000;

const REFUSED = 'refused: the host resolves to an address that is not public';

export interface SendOptions {
  /** `host:port` pairs a local run may reach on private addresses (LOCAL_WEBHOOK_ALLOW). */
  localReceivers: ReadonlySet<string>;
  /** A local run's hosts file, read before DNS (LOCAL_HOSTS_FILE). */
  hostsFile?: string;
  timeoutMs?: number;
}

/**
 * One POST, redirects not followed, 10 s for the whole exchange, under guarded-request.ts's address rules. What
 * went wrong is said in words that reveal nothing of the answer: the error's code only.
 */
export async function sendWebhook(url: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<AttemptOutcome> {
  const result = await guardedRequest(
    url,
    { method: 'POST', headers: { ...headers, 'user-agent': 'url-shortener-webhooks/1' }, body },
    { allowPrivate: options.localReceivers.has(hostPortOf(new URL(url))), ...(options.hostsFile ? { hostsFile: options.hostsFile } : {}), timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS },
  );
  if ('answer' in result && result.answer.bodyComplete) {
    const asked = retryAfterMs(result.answer.headers['retry-after'], Date.now());
    return { status: result.answer.status, ...(asked !== undefined ? { retryAfterMs: asked } : {}), durationMs: result.durationMs };
  }
  if ('answer' in result || result.failure === 'timeout') return { error: 'timeout: no answer within 10 s', durationMs: result.durationMs };
  if (result.failure === 'refused') return { error: REFUSED, durationMs: result.durationMs };
  return { error: `connection failed${result.code ? ` (${result.code})` : ''}`, durationMs: result.durationMs };
}
