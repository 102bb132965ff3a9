import { config } from '../shared/config';
import { apiGuard } from '../shared/http/api-guard';
import { routedHandler } from '../shared/http/guarded-handler';
import { identityProviders, ssoStore, ssoTxtRecords } from '../shared/sso-wiring';
import { flagSource, usageCounter } from '../shared/wiring';
import { OPERATIONS, type SsoApi } from './operations';

const api: SsoApi = {
  deps: { sso: ssoStore(), providers: identityProviders(), txt: ssoTxtRecords() },
  localProviderHosts: config.localSsoHosts(),
};
const guard = apiGuard({ flags: flagSource(), usage: usageCounter(), upgradeUrl: config.upgradeUrl() });

/** /v2/sso and below: an ENTERPRISE workspace's email domains signing in through its own identity provider (issue 29). */
export const handler = routedHandler(guard, OPERATIONS, api);
