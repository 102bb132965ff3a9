import type { APIGatewayProxyEvent } from 'aws-lambda';
import { config } from '../config';
import type { IdempotentRun } from '../adapters/idempotency-store';
import type { CreationContext, CreationDeps } from '../domain/links/link-creation';
import { countMonthlyCall } from '../domain/limits/rate-limits';
import type { Caller } from '../domain/accounts/caller';
import { aliasOverrides, flagSource, linkStore, safetyChecker, shortBaseUrlReader, usageCounter } from '../wiring';
import { apiGuard } from './api-guard';
import { guardedHandler } from './guarded-handler';
import { header } from './headers';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyOf } from './idempotency-key';
import { readJsonObject } from './json-body';
import type { HttpResponse } from './responses';

/** What the single and batch creation handlers share: their adapters, built once per container, and middleware. */
const deps: CreationDeps = { links: linkStore(), safety: safetyChecker(), aliasOverrides: aliasOverrides() };
const usage = usageCounter();
const hasIdempotencyKey = (event: APIGatewayProxyEvent) => header(event, IDEMPOTENCY_KEY_HEADER) !== undefined;
const guard = apiGuard({ flags: flagSource(), usage, upgradeUrl: config.upgradeUrl(), defersQuota: hasIdempotencyKey });
const shortBaseUrl = shortBaseUrlReader();

/**
 * The idempotency store, loaded with the first keyed request: requests without a key (most) never load
 * Powertools' idempotency code nor touch its table.
 */
let idempotencyStore: Promise<IdempotentRun> | undefined;
const idempotent = () => (idempotencyStore ??= import('../adapters/idempotency-store').then((store) => store.idempotencyStore(config.table('idempotencyTable'))));

/** Keys are scoped to the account (all its keys), or to the source address on the anonymous v1 routes. */
const scopeOf = (caller: Caller) => (caller.kind === 'apiKey' ? `account:${caller.accountId}` : `ip:${caller.clientIp}`);

export type CreationHandler = (body: object, creation: { context: CreationContext; deps: CreationDeps }) => Promise<HttpResponse>;

/** A creation route: its body read (at most `maxBodyBytes`), then handled once per Idempotency-Key when one is sent. */
export function creationHandler(maxBodyBytes: number, handle: CreationHandler) {
  return guardedHandler(guard, async (event, admission, lambdaContext) => {
    const key = idempotencyKeyOf(event);
    const body = readJsonObject(event, maxBodyBytes);
    const create = async () => handle(body, { context: { caller: admission.caller, flags: admission.flags, nowMs: Date.now(), shortBaseUrl: await shortBaseUrl() }, deps });
    if (key === undefined) return create();
    const run = await idempotent();
    return run(`${scopeOf(admission.caller)} ${key}`, body, lambdaContext, async () => {
      await countMonthlyCall(admission.caller, usage, Date.now(), admission.rateLimit);
      return create();
    });
  });
}
