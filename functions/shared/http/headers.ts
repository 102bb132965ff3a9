/** Small HTTP helpers shared by every handler, kept apart so the redirect bundle pulls in nothing else. */

/** Header lookup that ignores case, as HTTP does (API Gateway passes names as the client sent them). */
export function header(event: { headers?: Record<string, string | undefined> | null }, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const entry = Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === wanted);
  return entry?.[1] ?? undefined;
}

/**
 * HSTS on every answer of the API and the short domain (CloudFront adds it too, lib/short-domain.ts): a browser that
 * has seen it once never again follows a short link over plain HTTP, where a network attacker could answer instead.
 * Two years, subdomains included, as the preload list asks; browsers ignore it on plain-HTTP answers (the local run).
 */
export const STRICT_TRANSPORT_SECURITY = { name: 'strict-transport-security', value: 'max-age=63072000; includeSubDomains' } as const;
export const HSTS_HEADER = { [STRICT_TRANSPORT_SECURITY.name]: STRICT_TRANSPORT_SECURITY.value };

/** How long a client should wait after a 503 before trying again: maintenance lasts minutes... */
export const RETRY_AFTER_UNAVAILABLE_SECONDS = 60;
/** ...a dependency's hiccup (a timeout, throttling) usually seconds. */
export const RETRY_AFTER_OUTAGE_SECONDS = 5;
