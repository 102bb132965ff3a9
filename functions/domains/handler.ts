import { config } from '../shared/config';
import { apiGuard } from '../shared/http/api-guard';
import { guardedHandler } from '../shared/http/guarded-handler';
import { claimRulesOnFirstUse, domainAttachments } from '../shared/domain-wiring';
import { domainStore, flagSource, safetyChecker, shortBaseUrlReader, usageCounter } from '../shared/wiring';
import { OPERATIONS, type DomainsApi } from './operations';

const api: DomainsApi = {
  deps: { domains: domainStore(), attachments: domainAttachments(), safety: safetyChecker(), claimable: claimRulesOnFirstUse() },
  shortBaseUrl: shortBaseUrlReader(),
};
const guard = apiGuard({ flags: flagSource(), usage: usageCounter(), upgradeUrl: config.upgradeUrl() });

/** /v2/domains and below: an account's custom domains (issue 17). */
export const handler = guardedHandler(guard, async (event, admission) => {
  const operation = OPERATIONS[`${event.httpMethod} ${event.resource}`];
  if (!operation) throw new Error(`no operation for ${event.httpMethod} ${event.resource}`);
  return operation(event, admission, api);
});
