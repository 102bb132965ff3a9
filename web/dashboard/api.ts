import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../clients/typescript/src/schema';
import { problemOf, type Problem } from './problems';

export { knownUpgradeUrl, type Problem } from './problems';

export type Api = Client<paths>;

const CREATION_PATH = /\/v2\/shorten(\/batch)?$/;

/**
 * The typed client (types generated from the OpenAPI document) on this page's own origin: the API and the
 * dashboard share a host, so no request leaves it. Every creation carries a fresh Idempotency-Key, so a retried
 * click never makes a link twice. A 401 after signing in (the key was revoked) goes to `onUnauthorized`.
 */
export function apiFor(apiKey: string, onUnauthorized?: (message: string) => void): Api {
  const client = createClient<paths>({ baseUrl: location.origin });
  client.use({
    // A key revoked while the tab is open: back to the sign-in form, with the API's words.
    async onResponse({ response }) {
      if (response.status === 401 && onUnauthorized) onUnauthorized(problemOf(await response.clone().json().catch(() => undefined), response.status).message);
      return response;
    },
    onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${apiKey}`);
      if (request.method === 'POST' && CREATION_PATH.test(new URL(request.url).pathname) && !request.headers.has('idempotency-key')) {
        request.headers.set('idempotency-key', crypto.randomUUID());
      }
      return request;
    },
  });
  return client;
}

/** Runs a call; a network failure becomes a Problem like any refusal, never an unhandled rejection. */
export async function call<T>(run: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<{ data: T; response: Response } | { problem: Problem }> {
  try {
    const { data, error, response } = await run();
    if (response.ok) return { data: data as T, response };
    return { problem: problemOf(error, response.status) };
  } catch {
    return { problem: problemOf(undefined, 0) };
  }
}
