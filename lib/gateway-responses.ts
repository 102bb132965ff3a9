import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Messages, OwnMessages } from '../functions/shared/domain/messages';
import { RETRY_AFTER_OUTAGE_SECONDS, STRICT_TRANSPORT_SECURITY } from '../functions/shared/http/headers';

interface GatewayAnswer {
  type: ResponseType;
  statusCode: number;
  error: string;
  /** A literal message, or a `$context` reference resolved by API Gateway. */
  message: string;
  /** Seconds a client should wait before trying again (Retry-After). */
  retryAfterSeconds?: number;
}

/**
 * Every answer API Gateway can produce by itself, as JSON in the spec's { statusCode, message, error } shape
 * instead of its default bare {"message": ...}. Unknown routes (MISSING_AUTHENTICATION_TOKEN) become 404.
 */
export const GATEWAY_ANSWERS: readonly GatewayAnswer[] = [
  { type: ResponseType.UNAUTHORIZED, statusCode: 401, error: 'Unauthorized', message: Messages.apiKeyRequired },
  // The authorizer denies with the exact spec message in its context (missing key or invalid key).
  { type: ResponseType.ACCESS_DENIED, statusCode: 401, error: 'Unauthorized', message: '$context.authorizer.message' },
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, statusCode: 404, error: 'Not Found', message: 'Not Found' },
  { type: ResponseType.RESOURCE_NOT_FOUND, statusCode: 404, error: 'Not Found', message: 'Not Found' },
  { type: ResponseType.THROTTLED, statusCode: 429, error: 'Too Many Requests', message: Messages.rateLimited },
  { type: ResponseType.QUOTA_EXCEEDED, statusCode: 429, error: 'Too Many Requests', message: Messages.rateLimited },
  { type: ResponseType.REQUEST_TOO_LARGE, statusCode: 413, error: 'Payload Too Large', message: OwnMessages.bodyTooLarge },
  { type: ResponseType.UNSUPPORTED_MEDIA_TYPE, statusCode: 415, error: 'Unsupported Media Type', message: OwnMessages.contentType },
  { type: ResponseType.BAD_REQUEST_BODY, statusCode: 400, error: 'Bad Request', message: '$context.error.validationErrorString' },
  { type: ResponseType.BAD_REQUEST_PARAMETERS, statusCode: 400, error: 'Bad Request', message: '$context.error.validationErrorString' },
  { type: ResponseType.WAF_FILTERED, statusCode: 403, error: 'Forbidden', message: 'Forbidden' },
  // The authorizer fails when it cannot read the key table (DynamoDB down or hung): an outage, not a bug of the caller's.
  {
    type: ResponseType.AUTHORIZER_FAILURE,
    statusCode: 503,
    error: 'Service Unavailable',
    message: OwnMessages.dependencyUnavailable,
    retryAfterSeconds: RETRY_AFTER_OUTAGE_SECONDS,
  },
  { type: ResponseType.AUTHORIZER_CONFIGURATION_ERROR, statusCode: 500, error: 'Internal Server Error', message: OwnMessages.internal },
  { type: ResponseType.INTEGRATION_TIMEOUT, statusCode: 504, error: 'Gateway Timeout', message: 'The request took too long' },
  { type: ResponseType.DEFAULT_4XX, statusCode: 400, error: 'Bad Request', message: 'Bad request' },
  { type: ResponseType.DEFAULT_5XX, statusCode: 500, error: 'Internal Server Error', message: OwnMessages.internal },
];

export function gatewayResponseTemplate(answer: Pick<GatewayAnswer, 'statusCode' | 'error' | 'message'>): string {
  return `{"statusCode":${answer.statusCode},"message":"${answer.message}","error":"${answer.error}"}`;
}

export function addGatewayResponses(api: RestApi): void {
  for (const answer of GATEWAY_ANSWERS) {
    api.addGatewayResponse(`Gateway${answer.type.responseType}`, {
      type: answer.type,
      statusCode: String(answer.statusCode),
      templates: { 'application/json': gatewayResponseTemplate(answer) },
      responseHeaders: {
        'Content-Type': "'application/json'",
        'Cache-Control': "'no-store'",
        'Strict-Transport-Security': `'${STRICT_TRANSPORT_SECURITY.value}'`,
        ...(answer.retryAfterSeconds ? { 'Retry-After': `'${answer.retryAfterSeconds}'` } : {}),
      },
    });
  }
}
