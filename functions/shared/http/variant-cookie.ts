import { VARIANT_COOKIE_SECONDS } from '../domain/destinations/smart-link';
import { cookieValue } from './csrf';

/**
 * The A/B split's memory (issue 18): a first-party cookie holding the variant index and nothing else, scoped to the
 * link's path so every link keeps its own, and sent on top-level navigations from other sites (Lax), which is how
 * visitors arrive.
 */
export const VARIANT_COOKIE = 'shortener_variant';

export function variantCookie(index: number, code: string, secure: boolean): string {
  return [`${VARIANT_COOKIE}=${index}`, `Path=/${encodeURIComponent(code)}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${VARIANT_COOKIE_SECONDS}`, ...(secure ? ['Secure'] : [])].join('; ');
}

/** The index the visitor's cookie holds, when it holds one (any other value is ignored and replaced). */
export function variantInCookie(cookieHeader: string | undefined): number | undefined {
  const value = cookieValue(cookieHeader, VARIANT_COOKIE);
  return value !== undefined && /^\d$/.test(value) ? Number(value) : undefined;
}
