import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { resolveVisit } from '../shared/domain/visit';
import { logger } from '../shared/observability';
import { flagSource, linkStore } from '../shared/wiring';
import { visitResponse } from '../shared/http/visit-responses';

const deps = { links: linkStore(), flags: flagSource() };

/** GET, HEAD and POST /{code}: the visitor's side (spec section 3). */
async function visit(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const outcome = await resolveVisit(event.pathParameters?.code ?? '', deps, Date.now());
  return visitResponse(outcome, event);
}

export const handler = middy(visit).use(injectLambdaContext(logger, { resetKeys: true }));
