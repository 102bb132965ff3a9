/** The dashboard's pages and their addresses: pure, so the tests and the router read the same rules. */
export const BASE = '/app';

/** The deployment's sign-in settings, beside the page (written by lib/dashboard.ts, or the local static site). */
export const SIGN_IN_CONFIG_FILE = 'config.json';

/** The dashboard's pages, by path under /app. */
export type Place =
  | { page: 'overview' }
  | { page: 'links' }
  | { page: 'new' }
  | { page: 'import' }
  | { page: 'link'; code: string }
  | { page: 'domains' }
  | { page: 'webhooks' }
  | { page: 'usage' }
  | { page: 'members' }
  | { page: 'keys' }
  | { page: 'audit' }
  | { page: 'imports' }
  | { page: 'settings' }
  | { page: 'security' }
  | { page: 'invitation'; token: string }
  | { page: 'missing' };

/** The pages whose address is one word under /app. */
const ONE_SEGMENT_PAGES = ['links', 'new', 'import', 'domains', 'webhooks', 'usage', 'members', 'keys', 'audit', 'imports', 'settings', 'security'] as const;

export function placeOf(pathname: string): Place {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const segments = rest.split('/').filter(Boolean);
  const [first, second] = segments;
  // The workspace at a glance is the first page after sign-in (issue 30); the links are one click away.
  if (segments.length === 0) return { page: 'overview' };
  if (segments.length === 1 && first !== undefined && (ONE_SEGMENT_PAGES as readonly string[]).includes(first)) return { page: first as (typeof ONE_SEGMENT_PAGES)[number] };
  if (segments.length === 2 && (first === 'links' || first === 'invitations') && second) {
    try {
      const value = decodeURIComponent(second);
      return first === 'links' ? { page: 'link', code: value } : { page: 'invitation', token: value };
    } catch {
      return { page: 'missing' };
    }
  }
  return { page: 'missing' };
}

export const hrefOf = (path: string) => `${BASE}${path}`;
export const linkHref = (code: string) => hrefOf(`/links/${encodeURIComponent(code)}`);

