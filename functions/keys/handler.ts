import { config } from '../shared/config';
import { apiGuard } from '../shared/http/api-guard';
import { routedHandler } from '../shared/http/guarded-handler';
import { flagSource, usageCounter, workspaceKeyStore } from '../shared/wiring';
import { OPERATIONS, type KeysApi } from './operations';

const api: KeysApi = { keys: workspaceKeyStore() };
const guard = apiGuard({ flags: flagSource(), usage: usageCounter(), upgradeUrl: config.upgradeUrl() });

/** /v2/keys and below: a workspace's API keys, made and revoked by its people (issue 29). */
export const handler = routedHandler(guard, OPERATIONS, api);
