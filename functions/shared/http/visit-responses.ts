import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { DependencyUnavailable } from '../domain/errors';
import { VisitorMessages } from '../domain/messages';
import { asciiLocation } from '../domain/links/url-policy';
import type { GoneReason, VisitOutcome } from '../domain/visits/visit';
import { csrfCookie, newCsrfToken } from './csrf';
import { variantCookie } from './variant-cookie';
import { header, HSTS_HEADER, RETRY_AFTER_OUTAGE_SECONDS, RETRY_AFTER_UNAVAILABLE_SECONDS } from './headers';
import { json } from './responses';
import { PLAIN_REDIRECT_MAX_AGE_SECONDS } from '../domain/links/cache-lease';
import { messagePage, PAGE_CONTENT_SECURITY_POLICY, passwordPage, previewPage } from './pages';
import { wantsJson, type VisitorRequest } from './visitor-request';

/**
 * A browser may keep a plain link's redirect PLAIN_REDIRECT_MAX_AGE_SECONDS; `private`: no shared cache (CloudFront)
 * keeps it. With the redirect function's own memory the two add up to the documented bound: an owner's edit or
 * delete, or a takedown, reaches every visitor within 60 s, browser cache included (cache-lease.ts).
 */

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  ...HSTS_HEADER,
};

interface Answer {
  status: number;
  title: string;
  message: string;
  /** The JSON error name (the HTTP status name). */
  error: string;
  headers?: Record<string, string>;
  extraJson?: Record<string, unknown>;
}

const GONE_PAGES: Record<GoneReason, { title: string; message: string }> = {
  usedUp: { title: 'Link no longer available', message: VisitorMessages.gone },
  deleted: { title: 'Link deleted', message: VisitorMessages.deleted },
  disabled: { title: 'Link disabled', message: VisitorMessages.disabled },
};

/** What went wrong on the service's side: a dependency outage (503, retry soon) or anything else (500, redacted). */
type VisitFailure = { kind: 'unavailable' } | { kind: 'failed' };

function answerFor(outcome: Exclude<VisitOutcome, { kind: 'redirect' } | { kind: 'fallback' } | { kind: 'passwordRequired' } | { kind: 'preview' }> | VisitFailure): Answer {
  switch (outcome.kind) {
    case 'notFound':
      return { status: 404, title: 'Link not found', message: VisitorMessages.notFound, error: 'Not Found' };
    case 'gone':
      return { status: 410, ...GONE_PAGES[outcome.reason], error: 'Gone' };
    case 'tooManyAttempts': {
      const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
      return {
        status: 429,
        title: 'Too many attempts',
        message: `${VisitorMessages.tooManyAttempts}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        error: 'Too Many Requests',
        headers: { 'retry-after': String(outcome.retryAfterSeconds) },
        extraJson: { retryAfter: outcome.retryAfterSeconds },
      };
    }
    case 'maintenance':
      return {
        status: 503,
        title: 'Down for maintenance',
        message: VisitorMessages.maintenance,
        error: 'Service Unavailable',
        headers: { 'retry-after': String(RETRY_AFTER_UNAVAILABLE_SECONDS) },
      };
    case 'unavailable':
      return {
        status: 503,
        title: 'Temporarily unavailable',
        message: VisitorMessages.unavailable,
        error: 'Service Unavailable',
        headers: { 'retry-after': String(RETRY_AFTER_OUTAGE_SECONDS) },
      };
    case 'failed':
      return { status: 500, title: 'Something went wrong', message: VisitorMessages.internal, error: 'Internal Server Error' };
  }
}

function answerResponse(answer: Answer, asJson: boolean): APIGatewayProxyResult {
  return asJson
    ? visitorJson(answer.status, { statusCode: answer.status, message: answer.message, error: answer.error, ...answer.extraJson }, answer.headers)
    : page(answer.status, messagePage(answer.status, answer.title, answer.message), answer.headers);
}

function page(status: number, html: string, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return {
    statusCode: status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': PAGE_CONTENT_SECURITY_POLICY, ...SECURITY_HEADERS, ...headers },
    body: html,
  };
}

/** The API's JSON answer, with the visitor side's security headers on top. */
function visitorJson(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return json(status, body, { 'content-security-policy': "default-src 'none'; frame-ancestors 'none'", ...SECURITY_HEADERS, ...headers });
}

/** A plain link's browser copy, nothing kept of a link whose answer depends on the visitor (nor of guarded ones). */
function redirectCaching(outcome: Extract<VisitOutcome, { kind: 'redirect' }>): string {
  if (outcome.perVisitor) return 'private, no-store';
  return outcome.cacheable ? `private, max-age=${PLAIN_REDIRECT_MAX_AGE_SECONDS}` : 'no-store';
}

function render(outcome: VisitOutcome, request: VisitorRequest): APIGatewayProxyResult {
  const code = request.visit.code;
  switch (outcome.kind) {
    case 'redirect':
      return {
        statusCode: 302,
        headers: {
          location: asciiLocation(outcome.url),
          'cache-control': redirectCaching(outcome),
          ...SECURITY_HEADERS,
          ...(outcome.drawnVariant === undefined ? {} : { 'set-cookie': variantCookie(outcome.drawnVariant, code, request.secure) }),
        },
        body: '',
      };
    // The owner can change a domain's URLs at any time: nobody keeps these.
    case 'fallback':
      return { statusCode: 302, headers: { location: asciiLocation(outcome.url), 'cache-control': 'no-store', ...SECURITY_HEADERS }, body: '' };
    case 'passwordRequired': {
      const refused = outcome.wrongPassword || request.staleForm;
      if (request.wantsJson) return visitorJson(401, { statusCode: 401, message: VisitorMessages.passwordRequired, error: 'Unauthorized' });
      const token = newCsrfToken();
      const error = outcome.wrongPassword ? VisitorMessages.wrongPassword : request.staleForm ? VisitorMessages.formExpired : undefined;
      return page(request.staleForm && !outcome.wrongPassword ? 403 : refused ? 401 : 200, passwordPage(code, token, error, request.visit.signals.query), {
        'set-cookie': csrfCookie(token, code, request.secure),
      });
    }
    case 'preview':
      return request.wantsJson ? visitorJson(200, { statusCode: 200, message: VisitorMessages.previewOnly }) : page(200, previewPage(code));
    default:
      return answerResponse(answerFor(outcome), request.wantsJson);
  }
}

function withoutBodyForHead(response: APIGatewayProxyResult, method: string): APIGatewayProxyResult {
  return method === 'HEAD' ? { ...response, body: '' } : response;
}

/** The visitor's answer: a page for people, JSON for API clients; HEAD gets the same status and headers, no body. */
export function visitResponse(outcome: VisitOutcome, request: VisitorRequest): APIGatewayProxyResult {
  return withoutBodyForHead(render(outcome, request), request.visit.method);
}

/** When a visit fails on the service's side: an outage is a 503 with Retry-After, anything else a redacted 500. */
export function visitFailureResponse(error: unknown, event: Pick<APIGatewayProxyEvent, 'headers' | 'httpMethod'>): APIGatewayProxyResult {
  const failure: VisitFailure = error instanceof DependencyUnavailable ? { kind: 'unavailable' } : { kind: 'failed' };
  return withoutBodyForHead(answerResponse(answerFor(failure), wantsJson(header(event, 'accept'))), event.httpMethod);
}
