import createClient, { type Client } from 'openapi-fetch';
import { randomUUID } from 'node:crypto';
import type { paths } from './schema';
import { DEFAULT_RETRY_POLICY, retryingFetch, type RetryPolicy } from './retrying-fetch';

export type ShortenerClient = Client<paths>;

export interface ShortenerClientOptions {
  /** Where the API is, e.g. the deployment's ApiUrl output or http://localhost:3000. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; without one only the anonymous v1 routes answer. A person's access token goes here too. */
  apiKey?: string;
  /** With a person's access token: the workspace the requests act in (`Shortener-Workspace`); a key knows its own. */
  workspace?: string;
  retry?: Partial<RetryPolicy>;
  /** The fetch that sends one attempt (the platform's by default). */
  fetch?: (request: Request) => Promise<Response>;
}

const CREATION_PATH = /\/v[12]\/shorten(\/batch)?$/;

/**
 * A typed client of the API (types generated from its OpenAPI document): every creation carries an
 * Idempotency-Key (a fresh one unless the caller sets its own), so the client's own retries after a 429, a 503
 * or a lost connection can never create a link twice.
 */
export function createShortenerClient(options: ShortenerClientOptions): ShortenerClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch({ ...DEFAULT_RETRY_POLICY, ...options.retry }, options.fetch),
  });
  client.use({
    onRequest({ request }) {
      if (options.apiKey) request.headers.set('authorization', `Bearer ${options.apiKey}`);
      if (options.workspace) request.headers.set('shortener-workspace', options.workspace);
      if (request.method === 'POST' && CREATION_PATH.test(new URL(request.url).pathname) && !request.headers.has('idempotency-key')) {
        request.headers.set('idempotency-key', randomUUID());
      }
      return request;
    },
  });
  return client;
}
