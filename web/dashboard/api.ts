import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../clients/typescript/src/schema';
import { problemOf, type Problem } from './problems';
import type { PersonSession } from './signing-in/person-session';
import { signInWords } from './signing-in/oidc';

export { knownUpgradeUrl, type Problem } from './problems';

export type Api = Client<paths>;

const CREATION_PATH = /\/v2\/shorten(\/batch)?$/;

/** The header that names the workspace a person's request acts in (a person may belong to several). */
export const WORKSPACE_HEADER = 'Shortener-Workspace';

/**
 * The typed client (types generated from the OpenAPI document) on this page's own origin: the API and the
 * dashboard share a host, so no request leaves it. Each request carries the person's current access token and the
 * chosen workspace. Every creation carries a fresh Idempotency-Key, so a retried click never makes a link twice.
 * A 401 after signing in (the session ended, the person was removed) goes to `onUnauthorized`.
 */
export function apiFor(session: PersonSession, workspaceId: string | undefined, onUnauthorized?: (message: string) => void): Api {
  const client = createClient<paths>({ baseUrl: location.origin });
  client.use({
    async onResponse({ response }) {
      if (response.status === 401 && onUnauthorized) onUnauthorized(problemOf(await response.clone().json().catch(() => undefined), response.status).message);
      return response;
    },
    async onRequest({ request }) {
      // A session that cannot be renewed ends here, in words, rather than as a failed request.
      const accessToken = await session.accessToken().catch((error: unknown) => {
        onUnauthorized?.(signInWords(error));
        throw error;
      });
      request.headers.set('authorization', `Bearer ${accessToken}`);
      if (workspaceId) request.headers.set(WORKSPACE_HEADER, workspaceId);
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
