import type { APIGatewayProxyEvent } from 'aws-lambda';
import { createKey, listKeys, revokeKey, type KeyContext } from '../shared/domain/accounts/key-management';
import type { WorkspaceKeyStore } from '../shared/domain/ports';
import { accountCaller } from '../shared/http/account-caller';
import type { Admission } from '../shared/http/api-guard';
import type { Operation } from '../shared/http/guarded-handler';
import { MAX_BODY_BYTES } from '../shared/http/body-limits';
import { readJsonObject } from '../shared/http/json-body';
import { json, noContent } from '../shared/http/responses';

export interface KeysApi {
  keys: WorkspaceKeyStore;
}

const context = (event: APIGatewayProxyEvent, admission: Admission): KeyContext => ({
  caller: accountCaller(admission),
  nowMs: Date.now(),
  requestId: event.requestContext.requestId,
});

/** Each route of the function: parse, one domain call, the answer. Keyed by `${method} ${resource}`. */
export const OPERATIONS: Record<string, Operation<KeysApi>> = {
  'GET /v2/keys': async (event, admission, api) => json(200, await listKeys(context(event, admission), api.keys)),
  'POST /v2/keys': async (event, admission, api) => json(201, await createKey(readJsonObject(event, MAX_BODY_BYTES.patch), context(event, admission), api.keys)),
  'DELETE /v2/keys/{id}': async (event, admission, api) => {
    await revokeKey(event.pathParameters?.id ?? '', context(event, admission), api.keys);
    return noContent();
  },
};
