import middy, { type MiddlewareObj } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { logger, publishMetrics } from '../observability';
import type { Admission, GuardedContext } from './api-guard';

export type GuardedHandler = (event: APIGatewayProxyEvent, admission: Admission, lambdaContext: Context) => Promise<APIGatewayProxyResult>;

/** Every API function's middleware: logging with the request id, metrics, and the guard (see api-guard.ts). */
export function guardedHandler(guard: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, GuardedContext>, handle: GuardedHandler) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, GuardedContext>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(publishMetrics())
    .use(guard)
    .handler((event, context) => handle(event, context.admission, context));
}
