import {
  BodyTooLarge,
  DependencyUnavailable,
  DomainCheckedRecently,
  DomainDisabled,
  DomainInUse,
  DomainNotFound,
  WebhookNotFound,
  MemberNotFound,
  InvitationNotFound,
  MembershipConflict,
  KeyNotFound,
  ImportNotFound,
  IdempotencyKeyInProgress,
  IdempotencyKeyReused,
  InvalidRequest,
  LinkDisabled,
  LinkStillCached,
  LinkGone,
  LinkNotFound,
  MfaRequired,
  NotPermitted,
  PlanRequired,
  QuotaExceeded,
  RateLimited,
  SafetyCheckUnavailable,
  SsoChallengeMissing,
  SsoConnectionNotFound,
  SsoDomainInUse,
  UnderMaintenance,
} from '../domain/errors';
import { Messages, OwnMessages } from '../domain/messages';
import type { RateLimitStatus } from '../domain/limits/rate-limits';
import { RETRY_AFTER_OUTAGE_SECONDS, RETRY_AFTER_UNAVAILABLE_SECONDS } from './headers';
import { json, type HttpResponse } from './responses';
import type { RequestInfo } from './request-info';

export function rateLimitHeaders(status: RateLimitStatus): Record<string, string> {
  return {
    'x-ratelimit-limit': String(status.limit),
    'x-ratelimit-remaining': String(status.remaining),
    'x-ratelimit-reset': String(status.resetsAt),
  };
}

/** The 400 shape of spec 7.5, also used for 413. */
export function badRequestBody(statusCode: number, message: string, request: RequestInfo, nowMs: number) {
  return { statusCode, timestamp: new Date(nowMs).toISOString(), path: request.path, method: request.method, message };
}

/**
 * The one place where a failure becomes the spec's status and body (section 7). Anything unexpected is a 500
 * whose body says nothing about the cause; the caller logs the detail.
 */
export function errorResponse(error: unknown, request: RequestInfo, upgradeUrl: string, nowMs: number): HttpResponse {
  if (error instanceof InvalidRequest) return json(400, badRequestBody(400, error.message, request, nowMs));
  if (error instanceof BodyTooLarge) return json(413, badRequestBody(413, error.message, request, nowMs));
  if (error instanceof LinkNotFound) return json(404, { statusCode: 404, message: error.message, error: 'Not Found' });
  if (error instanceof DomainNotFound) return json(404, { statusCode: 404, message: error.message, error: 'Not Found' });
  if (error instanceof WebhookNotFound) return json(404, { statusCode: 404, message: error.message, error: 'Not Found' });
  if (error instanceof MemberNotFound || error instanceof InvitationNotFound) return json(404, { statusCode: 404, message: error.message, error: 'Not Found' });
  if (error instanceof MembershipConflict) return json(409, { statusCode: 409, message: error.message, error: 'Conflict' });
  if (error instanceof KeyNotFound) return json(404, { statusCode: 404, message: error.message, error: 'Not Found' });
  if (error instanceof SsoConnectionNotFound) return json(404, { statusCode: 404, message: error.message, error: 'Not Found' });
  if (error instanceof SsoDomainInUse || error instanceof SsoChallengeMissing) return json(409, { statusCode: 409, message: error.message, error: 'Conflict' });
  if (error instanceof ImportNotFound) return json(404, { statusCode: 404, message: error.message, error: 'Not Found' });
  if (error instanceof DomainInUse) return json(409, { statusCode: 409, message: error.message, error: 'Conflict' });
  if (error instanceof DomainDisabled) return json(409, { statusCode: 409, message: error.message, error: 'Conflict' });
  if (error instanceof LinkGone) return json(410, { statusCode: 410, message: error.message, error: 'Gone' });
  if (error instanceof LinkDisabled) return json(409, { statusCode: 409, message: error.message, error: 'Conflict' });
  if (error instanceof LinkStillCached) {
    return json(409, { statusCode: 409, message: error.message, error: 'Conflict' }, { 'retry-after': String(error.retryAfterSeconds) });
  }
  if (error instanceof IdempotencyKeyInProgress) return json(409, { statusCode: 409, message: OwnMessages.idempotencyKeyInProgress, error: 'Conflict' });
  if (error instanceof IdempotencyKeyReused) return json(422, { statusCode: 422, message: OwnMessages.idempotencyKeyReused, error: 'Unprocessable Entity' });
  if (error instanceof PlanRequired) {
    return json(403, {
      statusCode: 403,
      message: error.message,
      error: 'Forbidden',
      feature: error.feature,
      currentPlan: error.currentPlan,
      upgradeUrl,
    });
  }
  if (error instanceof MfaRequired) return json(403, { statusCode: 403, message: error.message, error: 'Forbidden', requirement: 'mfa' });
  if (error instanceof NotPermitted) return json(403, { statusCode: 403, message: error.message, error: 'Forbidden', permission: error.permission });
  if (error instanceof RateLimited) {
    return json(
      429,
      { statusCode: 429, message: Messages.rateLimited, error: 'Too Many Requests', retryAfter: error.retryAfterSeconds },
      { ...rateLimitHeaders(error.status), 'retry-after': String(error.retryAfterSeconds) },
    );
  }
  if (error instanceof DomainCheckedRecently) {
    return json(
      429,
      { statusCode: 429, message: Messages.rateLimited, error: 'Too Many Requests', retryAfter: error.retryAfterSeconds },
      { 'retry-after': String(error.retryAfterSeconds) },
    );
  }
  if (error instanceof QuotaExceeded) {
    return json(
      429,
      { statusCode: 429, message: error.message, limit: error.limit, resetDate: error.resetDate, upgradeUrl },
      rateLimitHeaders(error.status),
    );
  }
  if (error instanceof UnderMaintenance || error instanceof SafetyCheckUnavailable) {
    return json(
      503,
      { statusCode: 503, message: error.message, error: 'Service Unavailable' },
      { 'retry-after': String(RETRY_AFTER_UNAVAILABLE_SECONDS) },
    );
  }
  if (error instanceof DependencyUnavailable) {
    return json(
      503,
      { statusCode: 503, message: error.message, error: 'Service Unavailable' },
      { 'retry-after': String(RETRY_AFTER_OUTAGE_SECONDS) },
    );
  }
  return json(500, { statusCode: 500, message: OwnMessages.internal, error: 'Internal Server Error' });
}
