import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { config } from '../config';
import type { CreationContext, CreationDeps } from '../domain/links/link-creation';
import { logger, publishMetrics } from '../observability';
import { aliasOverrides, flagSource, linkStore, safetyChecker, shortBaseUrlReader, usageCounter } from '../wiring';
import { apiGuard, type GuardedContext } from './api-guard';

/** What the single and batch creation handlers share: their adapters, built once per container, and middleware. */
const deps: CreationDeps = { links: linkStore(), safety: safetyChecker(), aliasOverrides: aliasOverrides() };
const guard = apiGuard({ flags: flagSource(), usage: usageCounter(), upgradeUrl: config.upgradeUrl() });
const shortBaseUrl = shortBaseUrlReader();

export type CreationHandler = (
  event: APIGatewayProxyEvent,
  creation: { context: CreationContext; deps: CreationDeps },
) => Promise<APIGatewayProxyResult>;

export function creationHandler(handle: CreationHandler) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, GuardedContext>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(publishMetrics())
    .use(guard)
    .handler(async (event, context) => {
      const { caller, flags } = context.admission;
      return handle(event, { context: { caller, flags, nowMs: Date.now(), shortBaseUrl: await shortBaseUrl() }, deps });
    });
}
