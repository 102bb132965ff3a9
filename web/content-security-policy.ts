/**
 * The dashboard's Content-Security-Policy: its own origin only. Scripts and styles come from its files (no inline
 * code), API calls go to the same host, images are its own or made in the page (QR previews as blob: URLs), and it
 * may not be framed. CloudFront sends it with every file (lib/dashboard.ts); the local stack sends what the template says.
 */
export const DASHBOARD_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
