import { randomBytes } from 'node:crypto';
import { sameText } from './same-text';

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
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** Both halves are whatever the client sent: any text, any byte length. */
export function csrfTokensMatch(fromCookie: string | undefined, fromForm: string | undefined): boolean {
  return fromCookie !== undefined && fromForm !== undefined && fromCookie !== '' && sameText(fromCookie, fromForm);
}
