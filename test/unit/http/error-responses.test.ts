import {
  AliasTaken,
  BodyTooLarge,
  DependencyUnavailable,
  InvalidRequest,
  LinkDisabled,
  LinkGone,
  LinkNotFound,
  MfaRequired,
  PlanRequired,
  QuotaExceeded,
  RateLimited,
  SafetyCheckUnavailable,
  UnderMaintenance,
} from '../../../functions/shared/domain/errors';
import { Messages, OwnMessages } from '../../../functions/shared/domain/messages';
import { errorResponse } from '../../../functions/shared/http/error-responses';

const request = { path: '/v2/shorten', method: 'POST' };
const nowMs = Date.parse('2026-11-22T10:00:00.123Z');
const status = { limit: 1000, remaining: 0, resetsAt: 1_795_000_000 };
const answer = (error: unknown) => {
  const response = errorResponse(error, request, 'https://example.com/pricing', nowMs);
  return { status: response.statusCode, headers: response.headers, body: JSON.parse(response.body) as Record<string, unknown> };
};

describe('errors become the spec bodies', () => {
  it('400 carries statusCode, timestamp, path, method and message', () => {
    for (const error of [new InvalidRequest(Messages.invalidUrl), new AliasTaken(Messages.aliasTaken)]) {
      expect(answer(error)).toMatchObject({
        status: 400,
        body: { statusCode: 400, timestamp: '2026-11-22T10:00:00.123Z', path: '/v2/shorten', method: 'POST', message: error.message },
      });
    }
  });

  it('a sign-in without the MFA the workspace requires is a 403 saying what to do, marked requirement mfa', () => {
    expect(answer(new MfaRequired(OwnMessages.mfaRequired))).toMatchObject({ status: 403, body: { statusCode: 403, message: OwnMessages.mfaRequired, error: 'Forbidden', requirement: 'mfa' } });
  });

  it('413 uses the same shape', () => {
    expect(answer(new BodyTooLarge(OwnMessages.bodyTooLarge)).body).toEqual({
      statusCode: 413, timestamp: '2026-11-22T10:00:00.123Z', path: '/v2/shorten', method: 'POST', message: OwnMessages.bodyTooLarge,
    });
  });

  it('403 names the feature, the plan and where to upgrade', () => {
    expect(answer(new PlanRequired('customAliases', 'FREE', 'INDIE', 'Custom aliases require the INDIE plan or higher.')).body).toEqual({
      statusCode: 403,
      message: 'Custom aliases require the INDIE plan or higher.',
      error: 'Forbidden',
      feature: 'customAliases',
      currentPlan: 'FREE',
      upgradeUrl: 'https://example.com/pricing',
    });
  });

  it('per-minute 429 says when to retry, in the body and the headers', () => {
    const { status: code, headers, body } = answer(new RateLimited(status, 17));
    expect(code).toBe(429);
    expect(body).toEqual({ statusCode: 429, message: Messages.rateLimited, error: 'Too Many Requests', retryAfter: 17 });
    expect(headers).toMatchObject({ 'retry-after': '17', 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1795000000' });
  });

  it('monthly 429 carries limit, resetDate and upgradeUrl', () => {
    const { body } = answer(new QuotaExceeded(1000, '2026-12-01', status));
    expect(body).toEqual({ statusCode: 429, message: expect.any(String), limit: 1000, resetDate: '2026-12-01', upgradeUrl: 'https://example.com/pricing' });
  });

  it('503 for maintenance and for an unavailable safety check, with Retry-After', () => {
    expect(answer(new UnderMaintenance(Messages.maintenance))).toMatchObject({
      status: 503,
      headers: { 'retry-after': '60' },
      body: { statusCode: 503, message: Messages.maintenance, error: 'Service Unavailable' },
    });
    expect(answer(new SafetyCheckUnavailable(OwnMessages.safetyUnavailable))).toMatchObject({ status: 503, body: { message: OwnMessages.safetyUnavailable } });
  });

  it('a dependency outage is a 503 with a short Retry-After, never a 500', () => {
    expect(answer(new DependencyUnavailable(OwnMessages.dependencyUnavailable, { cause: new Error('socket hang up') }))).toEqual({
      status: 503,
      headers: expect.objectContaining({ 'retry-after': '5' }),
      body: { statusCode: 503, message: 'Service is temporarily unavailable, please try again later', error: 'Service Unavailable' },
    });
  });

  it.each([
    [new LinkNotFound(OwnMessages.linkNotFound), { statusCode: 404, message: 'Link not found', error: 'Not Found' }],
    [new LinkGone(OwnMessages.linkGone), { statusCode: 410, message: 'This link is no longer available', error: 'Gone' }],
    [new LinkDisabled(OwnMessages.linkDisabled), { statusCode: 409, message: 'This link has been disabled by the platform', error: 'Conflict' }],
  ])('link management errors use the 401 shape: %s', (error, body) => {
    expect(answer(error)).toMatchObject({ status: body.statusCode, body });
  });

  it('anything unexpected is a 500 that says nothing about the cause', () => {
    const { status: code, body } = answer(new Error('ConditionalCheckFailed at table Links, secret=abc'));
    expect(code).toBe(500);
    expect(body).toEqual({ statusCode: 500, message: OwnMessages.internal, error: 'Internal Server Error' });
  });
});
