import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../clients/typescript/src/schema';

export type Api = Client<paths>;

/** What a refused call shows the user: the API's own words, and where to upgrade when the plan is the reason. */
export interface Problem {
  status: number;
  message: string;
  upgradeUrl?: string;
  retryAfter?: number;
}

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
      if (response.status === 401 && onUnauthorized) onUnauthorized(problemOf(await response.clone().json().catch(() => undefined), response).message);
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

let lastUpgradeUrl: string | undefined;

/** The upgrade address of the last 403 or 429 the API sent this tab (the usage page offers it). */
export const knownUpgradeUrl = () => lastUpgradeUrl;

/** A refusal's body as a Problem; a body that is not the API's (a proxy's page, nothing) still gets words. */
export function problemOf(body: unknown, response: Response | undefined): Problem {
  const status = response?.status ?? 0;
  const fields = (typeof body === 'object' && body !== null ? body : {}) as { message?: unknown; upgradeUrl?: unknown; retryAfter?: unknown };
  const message = typeof fields.message === 'string' ? fields.message : status === 0 ? 'The service could not be reached. Check your connection and try again.' : `The service answered ${status}.`;
  if (typeof fields.upgradeUrl === 'string' && /^https?:\/\//.test(fields.upgradeUrl)) lastUpgradeUrl = fields.upgradeUrl;
  return {
    status,
    message,
    ...(typeof fields.upgradeUrl === 'string' && /^https?:\/\//.test(fields.upgradeUrl) ? { upgradeUrl: fields.upgradeUrl } : {}),
    ...(typeof fields.retryAfter === 'number' ? { retryAfter: fields.retryAfter } : {}),
  };
}

/** Runs a call; a network failure becomes a Problem like any refusal, never an unhandled rejection. */
export async function call<T>(run: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<{ data: T; response: Response } | { problem: Problem }> {
  try {
    const { data, error, response } = await run();
    if (response.ok) return { data: data as T, response };
    return { problem: problemOf(error, response) };
  } catch {
    return { problem: problemOf(undefined, undefined) };
  }
}
