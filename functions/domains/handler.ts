import { config } from '../shared/config';
import { apiGuard } from '../shared/http/api-guard';
import { routedHandler } from '../shared/http/guarded-handler';
import { claimRulesOnFirstUse, domainAttachments, txtRecords } from '../shared/domain-wiring';
import { logger } from '../shared/observability';
import { auditedDomainStore, flagSource, safetyChecker, shortBaseUrlReader, usageCounter } from '../shared/wiring';
import { OPERATIONS, type DomainsApi } from './operations';

const api: DomainsApi = {
  deps: {
    domains: auditedDomainStore(),
    attachments: domainAttachments(),
    txt: txtRecords(),
    safety: safetyChecker(),
    claimable: claimRulesOnFirstUse(),
    checkFailed: (domain, error) => logger.warn('domain check failed', { domain, error }),
  },
  shortBaseUrl: shortBaseUrlReader(),
};
const guard = apiGuard({ flags: flagSource(), usage: usageCounter(), upgradeUrl: config.upgradeUrl() });

/** /v2/domains and below: an account's custom domains (issue 17). */
export const handler = routedHandler(guard, OPERATIONS, api);
