import type { APIGatewayProxyEvent } from 'aws-lambda';
import { isLinkPreviewBot } from '../domain/preview-bots';
import type { Visit } from '../domain/visit';
import { CSRF_COOKIE, cookieValue, csrfTokensMatch } from './csrf';
import { header } from './headers';

/** A password form is a few dozen bytes; anything much larger is not one. */
const MAX_FORM_BYTES = 4096;

export interface VisitorRequest {
  visit: Visit;
  /** The client asked for JSON (Accept: application/json) rather than a page. */
  wantsJson: boolean;
  /** A password was posted without the matching CSRF cookie: the form is shown again, nothing is counted. */
  staleForm: boolean;
  /** Reached over HTTPS (through CloudFront and API Gateway), so cookies can be Secure. */
  secure: boolean;
}

/**
 * Behind CloudFront, API Gateway's source IP is the edge's; CloudFront passes the visitor's own address in
 * CloudFront-Viewer-Address ("ip:port"), which it sets itself. Without it (direct calls, local), the source IP.
 */
function clientIp(event: APIGatewayProxyEvent): string {
  const viewer = header(event, 'cloudfront-viewer-address');
  if (viewer) return viewer.replace(/:\d+$/, '');
  return event.requestContext.identity.sourceIp;
}

function postedForm(event: APIGatewayProxyEvent): URLSearchParams | undefined {
  const contentType = header(event, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  if (event.httpMethod !== 'POST' || contentType !== 'application/x-www-form-urlencoded' || !event.body) return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  return raw.length > MAX_FORM_BYTES ? undefined : new URLSearchParams(raw);
}

export function wantsJson(accept: string | undefined): boolean {
  const value = (accept ?? '').toLowerCase();
  return value.includes('application/json') && !value.includes('text/html');
}

export function readVisitorRequest(event: APIGatewayProxyEvent): VisitorRequest {
  const method = event.httpMethod === 'HEAD' || event.httpMethod === 'POST' ? event.httpMethod : 'GET';
  const form = postedForm(event);
  const password = form?.get('password') ?? undefined;
  const csrfValid = csrfTokensMatch(cookieValue(header(event, 'cookie'), CSRF_COOKIE), form?.get('csrf') ?? undefined);
  return {
    visit: {
      code: event.pathParameters?.code ?? '',
      method,
      clientIp: clientIp(event),
      previewBot: isLinkPreviewBot(header(event, 'user-agent')),
      ...(password !== undefined && csrfValid ? { submittedPassword: password } : {}),
    },
    wantsJson: wantsJson(header(event, 'accept')),
    staleForm: password !== undefined && !csrfValid,
    secure: header(event, 'x-forwarded-proto') === 'https',
  };
}
