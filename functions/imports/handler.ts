import { config } from '../shared/config';
import { apiGuard } from '../shared/http/api-guard';
import { routedHandler } from '../shared/http/guarded-handler';
import { importQueue, importStore } from '../shared/import-wiring';
import { domainStore, flagSource, usageCounter } from '../shared/wiring';
import { OPERATIONS } from './operations';

const usage = usageCounter();
const guard = apiGuard({ flags: flagSource(), usage, upgradeUrl: config.upgradeUrl() });

/** /v2/imports and below: a workspace's imports from other shorteners, started and followed (issue 31). */
export const handler = routedHandler(guard, OPERATIONS, { jobs: importStore(), queue: importQueue(), domains: domainStore(), usage });
