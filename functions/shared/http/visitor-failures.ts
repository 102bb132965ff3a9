import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { DependencyUnavailable } from '../domain/errors';
import { logger } from '../observability';
import { visitFailureResponse } from './visit-responses';

/** A visit that fails becomes the visitor's 503 (an outage) or redacted 500, never API Gateway's bare 502. */
export function visitorFailures(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: (request) => {
      const outage = request.error instanceof DependencyUnavailable;
      logger.error(outage ? 'dependency unavailable' : 'visit failed', { error: (outage ? request.error?.cause : request.error) as Error });
      request.response = visitFailureResponse(request.error, request.event);
    },
  };
}
