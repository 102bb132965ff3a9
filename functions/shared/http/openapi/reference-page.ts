import type { APIGatewayProxyEvent } from 'aws-lambda';
import { createHash } from 'node:crypto';
import { header, HSTS_HEADER } from '../headers';
import type { HttpResponse } from '../responses';

/** JSON inside a <script> element: `<` escaped, so no string in the document can close the element. */
const scriptSafeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The API reference page: Redoc's standalone bundle and the document, both inside the page, so it makes no
 * request to any host. The policy allows exactly these two scripts (by hash), Redoc's inline styles and its
 * blob worker, and nothing from elsewhere.
 */
export function referencePage(document: unknown, redocScript: string): HttpResponse {
  const init = `Redoc.init(${scriptSafeJson(document)}, { expandResponses: "200,201", hideDownloadButton: false }, document.getElementById("reference"));`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>URL shortener API reference</title>
<style>body { margin: 0; }</style>
</head>
<body>
<div id="reference"></div>
<script>${redocScript}</script>
<script>${init}</script>
</body>
</html>`;
  const policy = [
    "default-src 'none'",
    `script-src ${sha256(redocScript)} ${sha256(init)}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
    'worker-src blob:',
    "connect-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'content-security-policy': policy,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      ...HSTS_HEADER,
    },
    body: html,
  };
}

/**
 * Where clients reach the API, as this request came in: the host and scheme it used, and the stage prefix of an
 * execute-api URL (the request context's path is the path the client asked for, the event's one the route's).
 */
export function serverUrlOf(event: Pick<APIGatewayProxyEvent, 'headers' | 'path' | 'requestContext'>): string {
  const proto = header(event, 'x-forwarded-proto') ?? 'https';
  const host = header(event, 'host') ?? event.requestContext.domainName ?? 'localhost';
  const asked = event.requestContext.path;
  const prefix = asked.endsWith(event.path) ? asked.slice(0, asked.length - event.path.length) : '';
  return `${proto}://${host}${prefix}`;
}
