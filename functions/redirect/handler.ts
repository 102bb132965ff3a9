import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { CachedDomainLookup } from '../shared/adapters/cached-domain-lookup';
import { CachedLinkStore } from '../shared/adapters/cached-link-store';
import { CLICK_LOG_MESSAGE, clickOf, withVisitor } from '../shared/http/click-report';
import { DynamoVisitorSaltStore } from '../shared/adapters/dynamo-visitor-salts';
import { dynamo } from '../shared/adapters/clients';
import { DailySalt } from '../shared/domain/analytics/daily-salt';
import { config } from '../shared/config';
import { resolveVisit } from '../shared/domain/visits/visit';
import { visitResponse } from '../shared/http/visit-responses';
import { visitorFailures } from '../shared/http/visitor-failures';
import { readVisitorRequest } from '../shared/http/visitor-request';
import { recordVisit } from '../shared/http/outcome-metrics';
import { logger, logLine, publishMetrics } from '../shared/observability';
import { clientKeys } from '../shared/client-key-wiring';
import { domainStore, flagSource, linkStore, originSecrets, usageCounter } from '../shared/wiring';

/** Hot plain links are served from memory under their cache lease (CachedLinkStore), customer domains for 5 s. */
const deps = {
  links: new CachedLinkStore(linkStore(), { maxEntries: 10_000 }),
  domains: new CachedDomainLookup(domainStore(), { maxEntries: 10_000 }),
  flags: flagSource(),
  usage: usageCounter(),
};
const cloudFrontSecrets = originSecrets();
const keyClient = clientKeys();
const salts = new DailySalt(new DynamoVisitorSaltStore(dynamo(), config.table('visitorSaltsTable')));

/** GET, HEAD and POST /{code}, GET and HEAD / (a customer domain's root): the visitor's side (spec section 3). */
async function visit(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const request = await readVisitorRequest(event, cloudFrontSecrets, keyClient);
  const nowMs = Date.now();
  // Read beside the visit (once per container and day): a salt that cannot be read costs the click its visitor only.
  const salt = salts.saltFor(nowMs).catch(() => undefined);
  const outcome = await resolveVisit(request.visit, deps, nowMs);
  recordVisit(outcome);
  // Counting costs the visitor nothing: one log line, aggregated later (the log group's subscription filter).
  const click = clickOf(outcome, request, event, nowMs);
  if (click) logLine(CLICK_LOG_MESSAGE, { click: await withVisitor(click, event, cloudFrontSecrets, await salt) });
  return visitResponse(outcome, request);
}

export const handler = middy(visit).use(injectLambdaContext(logger, { resetKeys: true })).use(publishMetrics()).use(visitorFailures());
