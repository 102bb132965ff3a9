import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { config } from '../config';
import type { CreationContext, CreationDeps } from '../domain/links/link-creation';
import { aliasOverrides, flagSource, linkStore, safetyChecker, shortBaseUrlReader, usageCounter } from '../wiring';
import { apiGuard } from './api-guard';
import { guardedHandler } from './guarded-handler';

/** What the single and batch creation handlers share: their adapters, built once per container, and middleware. */
const deps: CreationDeps = { links: linkStore(), safety: safetyChecker(), aliasOverrides: aliasOverrides() };
const guard = apiGuard({ flags: flagSource(), usage: usageCounter(), upgradeUrl: config.upgradeUrl() });
const shortBaseUrl = shortBaseUrlReader();

export type CreationHandler = (
  event: APIGatewayProxyEvent,
  creation: { context: CreationContext; deps: CreationDeps },
) => Promise<APIGatewayProxyResult>;

export function creationHandler(handle: CreationHandler) {
  return guardedHandler(guard, async (event, { caller, flags }) =>
    handle(event, { context: { caller, flags, nowMs: Date.now(), shortBaseUrl: await shortBaseUrl() }, deps }),
  );
}
