import { config } from '../shared/config';
import { apiGuard } from '../shared/http/api-guard';
import { routedHandler } from '../shared/http/guarded-handler';
import { clickStats, domainStore, flagSource, linkStore, safetyChecker, shortBaseUrlReader, smartFieldsOnFirstUse, usageCounter } from '../shared/wiring';
import { OPERATIONS, type LinksApi } from './operations';

const usage = usageCounter();
const api: LinksApi = {
  deps: { links: linkStore(), safety: safetyChecker(), usage, stats: clickStats(), domains: domainStore(), smartFields: smartFieldsOnFirstUse() },
  shortBaseUrl: shortBaseUrlReader(),
};
const guard = apiGuard({ flags: flagSource(), usage, upgradeUrl: config.upgradeUrl() });

/** /v2/links, /v2/links/{code}, its /stats, /v2/links/bulk and /v2/usage: an account managing and measuring its links. */
export const handler = routedHandler(guard, OPERATIONS, api);
