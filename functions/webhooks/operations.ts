import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  addWebhook,
  editWebhook,
  listDeliveries,
  listWebhooks,
  removeWebhook,
  rotateSecret,
  testWebhook,
  viewWebhook,
  type WebhookContext,
  type WebhookDeps,
} from '../shared/domain/webhooks/webhook-management';
import { accountCaller } from '../shared/http/account-caller';
import { changeAuthor } from '../shared/http/change-author';
import type { Admission } from '../shared/http/api-guard';
import type { Operation } from '../shared/http/guarded-handler';
import { MAX_BODY_BYTES } from '../shared/http/body-limits';
import { readJsonObject } from '../shared/http/json-body';
import { json, noContent } from '../shared/http/responses';

export interface WebhooksApi {
  deps: WebhookDeps;
  localReceivers: ReadonlySet<string>;
  timeScale: number;
}

const context = (event: APIGatewayProxyEvent, admission: Admission, api: WebhooksApi): WebhookContext => ({
  caller: accountCaller(admission),
  author: changeAuthor(accountCaller(admission), event),
  flags: admission.flags,
  nowMs: Date.now(),
  localReceivers: api.localReceivers,
  timeScale: api.timeScale,
});

const id = (event: APIGatewayProxyEvent) => event.pathParameters?.id ?? '';

/** Each route of the function: parse, one domain call, the answer. Keyed by `${method} ${resource}`. */
export const OPERATIONS: Record<string, Operation<WebhooksApi>> = {
  'GET /v2/webhooks': async (event, admission, api) => json(200, await listWebhooks(context(event, admission, api), api.deps)),
  'POST /v2/webhooks': async (event, admission, api) => json(201, await addWebhook(readJsonObject(event, MAX_BODY_BYTES.patch), context(event, admission, api), api.deps)),
  'GET /v2/webhooks/{id}': async (event, admission, api) => json(200, await viewWebhook(id(event), context(event, admission, api), api.deps)),
  'PATCH /v2/webhooks/{id}': async (event, admission, api) =>
    json(200, await editWebhook(id(event), readJsonObject(event, MAX_BODY_BYTES.patch), context(event, admission, api), api.deps)),
  'DELETE /v2/webhooks/{id}': async (event, admission, api) => {
    await removeWebhook(id(event), context(event, admission, api), api.deps);
    return noContent();
  },
  // Its body is optional: a rotation with nothing to say keeps the previous secret its 24 hours.
  'POST /v2/webhooks/{id}/rotate-secret': async (event, admission, api) =>
    json(200, await rotateSecret(id(event), event.body ? readJsonObject(event, MAX_BODY_BYTES.patch) : {}, context(event, admission, api), api.deps)),
  'POST /v2/webhooks/{id}/test': async (event, admission, api) => json(202, await testWebhook(id(event), context(event, admission, api), api.deps)),
  'GET /v2/webhooks/{id}/deliveries': async (event, admission, api) =>
    json(200, await listDeliveries(id(event), event.queryStringParameters, context(event, admission, api), api.deps)),
};
