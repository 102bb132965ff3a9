/** Small HTTP helpers shared by every handler, kept apart so the redirect bundle pulls in nothing else. */

type Headers = Record<string, string | undefined>;

/** Each event's headers by lower-case name, made on the first lookup: a visit reads a dozen of them. */
const lowerCased = new WeakMap<Headers, Map<string, string | undefined>>();

/** Header lookup that ignores case, as HTTP does (API Gateway passes names as the client sent them). */
export function header(event: { headers?: Headers | null }, name: string): string | undefined {
  if (!event.headers) return undefined;
  let byName = lowerCased.get(event.headers);
  if (!byName) {
    byName = new Map();
    // The first of two names differing only in case wins, as before.
    for (const [key, value] of Object.entries(event.headers)) if (!byName.has(key.toLowerCase())) byName.set(key.toLowerCase(), value);
    lowerCased.set(event.headers, byName);
  }
  return byName.get(name.toLowerCase()) ?? undefined;
}

/** A signed-in person's request names the workspace it acts in (its id); keys belong to theirs and need none. */
export const WORKSPACE_HEADER = 'shortener-workspace';

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
