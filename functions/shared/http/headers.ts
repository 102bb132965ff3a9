/** Small HTTP helpers shared by every handler, kept apart so the redirect bundle pulls in nothing else. */

/** Header lookup that ignores case, as HTTP does (API Gateway passes names as the client sent them). */
export function header(event: { headers?: Record<string, string | undefined> | null }, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const entry = Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === wanted);
  return entry?.[1] ?? undefined;
}

/** How long a client should wait after a 503 before trying again: maintenance lasts minutes... */
export const RETRY_AFTER_UNAVAILABLE_SECONDS = 60;
/** ...a dependency's hiccup (a timeout, throttling) usually seconds. */
export const RETRY_AFTER_OUTAGE_SECONDS = 5;
