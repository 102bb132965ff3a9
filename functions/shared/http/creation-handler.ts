import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BESIDE_THE_BUNDLE, config } from '../config';
import type { IdempotentRun, idempotencyStore } from '../adapters/idempotency-store';
import type { CreationContext, CreationDeps } from '../domain/links/link-creation';
import { defaultDomain } from '../domain/domains/link-domains';
import { countMonthlyCall } from '../domain/limits/rate-limits';
import type { Caller } from '../domain/accounts/caller';
import { DependencyUnavailable, IdempotencyKeyInProgress, IdempotencyKeyReused } from '../domain/errors';
import { OwnMessages } from '../domain/messages';
import { clientKeys, deploymentDigest } from '../client-key-wiring';
import { aliasOverrides, domainStore, flagSource, linkStore, originSecrets, safetyChecker, shortBaseUrlReader, smartFieldsOnFirstUse, usageCounter } from '../wiring';
import { apiGuard, type Admission } from './api-guard';
import { guardedHandler } from './guarded-handler';
import { creationAuthor } from './change-author';
import { header } from './headers';
import { idempotencyKeyOf } from './idempotency-key';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency-terms';
import { readJsonObject } from './json-body';
import type { HttpResponse } from './responses';

/** What the single and batch creation handlers share: their adapters, built once per container, and middleware. */
const deps: CreationDeps = { links: linkStore(), safety: safetyChecker(), aliasOverrides: aliasOverrides(), domains: domainStore(), smartFields: smartFieldsOnFirstUse() };
const usage = usageCounter();
const hasIdempotencyKey = (event: APIGatewayProxyEvent) => header(event, IDEMPOTENCY_KEY_HEADER) !== undefined;
const digest = deploymentDigest();
const guard = apiGuard({
  flags: flagSource(),
  usage,
  upgradeUrl: config.upgradeUrl(),
  keyClient: clientKeys(digest),
  originSecrets: originSecrets(),
  defersQuota: hasIdempotencyKey,
  defaultDomainOf: (caller, flags) => defaultDomain(caller, flags, deps.domains),
});
const shortBaseUrl = shortBaseUrlReader();

/**
 * Powertools' idempotency utility is a bundle of its own beside the function's (see service-stack.ts), loaded
 * with the first keyed request: requests without a key never parse or run it, nor touch its table.
 */
let store: Promise<IdempotentRun> | undefined;
function idempotent(): Promise<IdempotentRun> {
  store ??= import(pathToFileURL(path.join(process.env.LAMBDA_TASK_ROOT ?? '.', BESIDE_THE_BUNDLE.idempotency)).href).then(
    (bundle: { idempotencyStore: typeof idempotencyStore }) => bundle.idempotencyStore(config.table('idempotencyTable')),
    (error: unknown) => {
      store = undefined; // the next keyed request tries again
      throw error;
    },
  );
  return store;
}

/** The request's adapters, the account's default domain being the one the guard read beside its counters. */
function depsFor(admission: Admission): CreationDeps {
  const { defaultDomain: read } = admission;
  return read ? { ...deps, domains: { find: (name) => deps.domains.find(name), defaultOf: () => read } } : deps;
}

/** Keys are scoped to the account (all its keys), or to the source address on the anonymous v1 routes. */
const scopeOf = (caller: Caller) => (caller.kind === 'anonymous' ? `ip:${caller.client}` : caller.kind === 'apiKey' ? `account:${caller.accountId}` : `user:${caller.userId}`);

export type CreationHandler = (body: object, creation: { context: CreationContext; deps: CreationDeps }) => Promise<HttpResponse>;

/**
 * What the idempotency record keeps to compare a repeat with: the route (a key names one request, so the same key
 * on another route is a 422) and the body with every password replaced by its keyed hash. The record's payload
 * hash is a fast SHA-256; over a bare password it could be guessed offline, over an HMAC under a secret it cannot.
 */
async function comparablePayload(route: string, body: object): Promise<unknown> {
  const keyPasswords = async (value: unknown, name?: string): Promise<unknown> => {
    if (name === 'password' && typeof value === 'string') return `hmac:${await digest('password', value)}`;
    if (Array.isArray(value)) return Promise.all(value.map((item) => keyPasswords(item)));
    if (typeof value !== 'object' || value === null) return value;
    const entries = await Promise.all(Object.entries(value).map(async ([key, item]) => [key, await keyPasswords(item, key)] as const));
    return Object.fromEntries(entries);
  };
  return { route, body: await keyPasswords(body) };
}

/**
 * A creation route: its body read (at most `maxBodyBytes`), then handled once per Idempotency-Key when one is sent.
 * `keep` says whether a success is worth replaying for 24 hours (see the batch route).
 */
export function creationHandler(maxBodyBytes: number, handle: CreationHandler, keep?: (response: HttpResponse) => boolean) {
  return guardedHandler(guard, async (event, admission, lambdaContext) => {
    const key = idempotencyKeyOf(event);
    const body = readJsonObject(event, maxBodyBytes);
    const author = creationAuthor(admission.caller, event);
    const create = async () =>
      handle(body, { context: { caller: admission.caller, ...(author ? { author } : {}), flags: admission.flags, nowMs: Date.now(), shortBaseUrl: await shortBaseUrl() }, deps: depsFor(admission) });
    if (key === undefined) return create();
    const run = await idempotent();
    const payload = await comparablePayload(event.resource, body);
    const outcome = await run(
      `${scopeOf(admission.caller)} ${key}`,
      payload,
      lambdaContext,
      async () => {
        await countMonthlyCall(admission.caller, usage, Date.now(), admission.rateLimit);
        return create();
      },
      keep,
    );
    if (outcome.kind === 'answered') return outcome.response;
    if (outcome.kind === 'reused') throw new IdempotencyKeyReused(OwnMessages.idempotencyKeyReused);
    if (outcome.kind === 'in-progress') throw new IdempotencyKeyInProgress(OwnMessages.idempotencyKeyInProgress);
    throw new DependencyUnavailable(OwnMessages.dependencyUnavailable, { cause: outcome.cause });
  });
}
