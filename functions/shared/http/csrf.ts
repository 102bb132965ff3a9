import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Double-submit token for the password form: the same random value in a SameSite=Strict cookie and in a hidden
 * field. Another site can make a browser post the form (and so spend the visitor's attempts, or guess passwords
 * from many visitors' IPs), but it can neither read the field nor send the cookie.
 */
export const CSRF_COOKIE = 'shortener_csrf';

export function newCsrfToken(): string {
  return randomBytes(18).toString('base64url');
}

export function csrfCookie(token: string, code: string, secure: boolean): string {
  return [`${CSRF_COOKIE}=${token}`, `Path=/${encodeURIComponent(code)}`, 'HttpOnly', 'SameSite=Strict', 'Max-Age=3600', ...(secure ? ['Secure'] : [])].join('; ');
}

export function cookieValue(cookieHeader: string | undefined, name: string): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

export function csrfTokensMatch(fromCookie: string | undefined, fromForm: string | undefined): boolean {
  if (!fromCookie || !fromForm || fromCookie.length !== fromForm.length) return false;
  return timingSafeEqual(Buffer.from(fromCookie), Buffer.from(fromForm));
}
