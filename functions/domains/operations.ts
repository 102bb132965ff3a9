import type { APIGatewayProxyEvent } from 'aws-lambda';
import { addDomain, editDomain, listDomains, removeDomain, verifyDomain, viewDomain, type DomainContext, type DomainDeps } from '../shared/domain/domains/domain-management';
import { accountCaller } from '../shared/http/account-caller';
import { changeAuthor } from '../shared/http/change-author';
import type { Admission } from '../shared/http/api-guard';
import type { Operation } from '../shared/http/guarded-handler';
import { MAX_BODY_BYTES } from '../shared/http/body-limits';
import { readJsonObject } from '../shared/http/json-body';
import { json, noContent } from '../shared/http/responses';

export interface DomainsApi {
  deps: DomainDeps;
  shortBaseUrl: () => Promise<string>;
}

/** Nobody may claim this deployment's own hosts: the short domain and the API's (as this request reached it). */
async function ownHosts(event: APIGatewayProxyEvent, api: DomainsApi): Promise<string[]> {
  const apiHost = (event.requestContext as { domainName?: string }).domainName;
  return [new URL(await api.shortBaseUrl()).hostname, ...(apiHost ? [apiHost.toLowerCase()] : [])];
}

const context = async (event: APIGatewayProxyEvent, admission: Admission, api: DomainsApi): Promise<DomainContext> => ({
  caller: accountCaller(admission),
  author: changeAuthor(accountCaller(admission), event),
  flags: admission.flags,
  nowMs: Date.now(),
  ownHosts: await ownHosts(event, api),
});

const name = (event: APIGatewayProxyEvent) => event.pathParameters?.domain ?? '';

/** Each route of the function: parse, one domain call, the answer. Keyed by `${method} ${resource}`. */
export const OPERATIONS: Record<string, Operation<DomainsApi>> = {
  'GET /v2/domains': async (event, admission, api) => json(200, await listDomains(await context(event, admission, api), api.deps)),
  'POST /v2/domains': async (event, admission, api) => {
    const body = readJsonObject(event, MAX_BODY_BYTES.patch);
    return json(201, await addDomain(body, await context(event, admission, api), api.deps));
  },
  'GET /v2/domains/{domain}': async (event, admission, api) => json(200, await viewDomain(name(event), await context(event, admission, api), api.deps)),
  'PATCH /v2/domains/{domain}': async (event, admission, api) => {
    const body = readJsonObject(event, MAX_BODY_BYTES.patch);
    return json(200, await editDomain(name(event), body, await context(event, admission, api), api.deps));
  },
  'DELETE /v2/domains/{domain}': async (event, admission, api) => {
    await removeDomain(name(event), await context(event, admission, api), api.deps);
    return noContent();
  },
  'POST /v2/domains/{domain}/verify': async (event, admission, api) => json(200, await verifyDomain(name(event), await context(event, admission, api), api.deps)),
};
