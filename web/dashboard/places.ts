/** The dashboard's pages and their addresses: pure, so the tests and the router read the same rules. */
export const BASE = '/app';

/** The deployment's sign-in settings, beside the page (written by lib/dashboard.ts, or the local static site). */
export const SIGN_IN_CONFIG_FILE = 'config.json';

/** The dashboard's pages, by path under /app. */
export type Place =
  | { page: 'links' }
  | { page: 'new' }
  | { page: 'import' }
  | { page: 'link'; code: string }
  | { page: 'domains' }
  | { page: 'webhooks' }
  | { page: 'usage' }
  | { page: 'missing' };

export function placeOf(pathname: string): Place {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const segments = rest.split('/').filter(Boolean);
  const [first, second] = segments;
  if (segments.length === 0) return { page: 'links' };
  if (segments.length === 1 && (first === 'new' || first === 'import' || first === 'domains' || first === 'webhooks' || first === 'usage')) return { page: first };
  if (segments.length === 2 && first === 'links' && second) {
    try {
      return { page: 'link', code: decodeURIComponent(second) };
    } catch {
      return { page: 'missing' };
    }
  }
  return { page: 'missing' };
}

export const hrefOf = (path: string) => `${BASE}${path}`;
export const linkHref = (code: string) => hrefOf(`/links/${encodeURIComponent(code)}`);

