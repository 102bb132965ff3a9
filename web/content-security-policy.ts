/**
 * The dashboard's Content-Security-Policy: its own origin, and for fetches the sign-in provider's origins (discovery,
 * the token exchange, revocation: issue 29). Scripts and styles come from its files (no inline code), images are its
 * own or made in the page (QR previews as blob: URLs), and it may not be framed. CloudFront sends it with every file
 * (lib/dashboard.ts); the local stack sends what the template says, with its own provider in Cognito's place.
 */
export function dashboardContentSecurityPolicy(signInOrigins: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    ["connect-src 'self'", ...signInOrigins].join(' '),
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy without a sign-in provider: the page's own origin only. */
export const DASHBOARD_CONTENT_SECURITY_POLICY = dashboardContentSecurityPolicy();
