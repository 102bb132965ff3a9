import type { APIGatewayProxyEvent } from 'aws-lambda';
import { addSsoConnection, listSsoConnections, removeSsoConnection, verifySsoConnection, viewSsoConnection, type SsoContext, type SsoDeps } from '../shared/domain/sso/sso-management';
import { accountCaller } from '../shared/http/account-caller';
import type { Admission } from '../shared/http/api-guard';
import { MAX_BODY_BYTES } from '../shared/http/body-limits';
import type { Operation } from '../shared/http/guarded-handler';
import { readJsonObject } from '../shared/http/json-body';
import { json, noContent } from '../shared/http/responses';

export interface SsoApi {
  deps: SsoDeps;
  localProviderHosts: ReadonlySet<string>;
}

const context = (event: APIGatewayProxyEvent, admission: Admission, api: SsoApi): SsoContext => ({
  caller: accountCaller(admission),
  nowMs: Date.now(),
  requestId: event.requestContext.requestId,
  localProviderHosts: api.localProviderHosts,
});

const domain = (event: APIGatewayProxyEvent) => event.pathParameters?.domain ?? '';

/** Each route of the function: parse, one domain call, the answer. Keyed by `${method} ${resource}`. */
export const OPERATIONS: Record<string, Operation<SsoApi>> = {
  'GET /v2/sso': async (event, admission, api) => json(200, await listSsoConnections(context(event, admission, api), api.deps)),
  'POST /v2/sso': async (event, admission, api) => json(201, await addSsoConnection(readJsonObject(event, MAX_BODY_BYTES.patch), context(event, admission, api), api.deps)),
  'GET /v2/sso/{domain}': async (event, admission, api) => json(200, await viewSsoConnection(domain(event), context(event, admission, api), api.deps)),
  'DELETE /v2/sso/{domain}': async (event, admission, api) => {
    await removeSsoConnection(domain(event), context(event, admission, api), api.deps);
    return noContent();
  },
  'POST /v2/sso/{domain}/verify': async (event, admission, api) => json(200, await verifySsoConnection(domain(event), context(event, admission, api), api.deps)),
};
