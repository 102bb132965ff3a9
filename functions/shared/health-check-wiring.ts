import { dynamo } from './adapters/clients';
import { requestDestination } from './adapters/destination-prober';
import { DynamoHealthLinks } from './adapters/dynamo-health-links';
import { DynamoHostSlots, DynamoUrlChecks } from './adapters/dynamo-url-checks';
import { config } from './config';
import type { HealthCheckDeps } from './domain/health/health-checks';
import { parseLocalAllowList } from './domain/webhooks/address-policy';
import { mayCheckDestination } from './health-wiring';

/** The link health worker's adapters (issue 31): the links it writes, the URL checks and host seconds, the prober. */
export function healthCheckDeps(): HealthCheckDeps {
  const allowed = parseLocalAllowList(config.localHealthAllow());
  const hostsFile = config.localHostsFile();
  return {
    links: new DynamoHealthLinks(dynamo(), config.table('linksTable')),
    urls: new DynamoUrlChecks(dynamo(), config.table('linkHealthTable')),
    slots: new DynamoHostSlots(dynamo(), config.table('linkHealthTable')),
    request: (url, method) => requestDestination(url, method, { localAllow: allowed, ...(hostsFile ? { hostsFile } : {}) }),
    mayCheck: mayCheckDestination(),
    timeScale: config.healthTimeScale(),
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
