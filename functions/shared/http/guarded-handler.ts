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

/** An operation of a function serving several routes: parse, one domain call, the answer. */
export type Operation<Api> = (event: APIGatewayProxyEvent, admission: Admission, api: Api) => Promise<APIGatewayProxyResult>;

/** A guarded function serving several routes, each its operation keyed by `${method} ${resource}`. */
export function routedHandler<Api>(guard: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, GuardedContext>, operations: Record<string, Operation<Api>>, api: Api) {
  return guardedHandler(guard, async (event, admission) => {
    const operation = operations[`${event.httpMethod} ${event.resource}`];
    if (!operation) throw new Error(`no operation for ${event.httpMethod} ${event.resource}`);
    return operation(event, admission, api);
  });
}
