import { dynamo, sqs } from './adapters/clients';
import { requestDestination } from './adapters/destination-prober';
import { DynamoHealthLinks } from './adapters/dynamo-health-links';
import { DynamoHostSlots, DynamoUrlChecks } from './adapters/dynamo-url-checks';
import { SqsHealthQueue } from './adapters/sqs-health-queue';
import { config } from './config';
import type { HealthCheckDeps } from './domain/health/health-checks';
import { hostPortOf, parseLocalAllowList } from './domain/webhooks/address-policy';

/** The link health worker's adapters (issue 31), apart from wiring.ts so no API bundle carries them. */
export const healthQueue = () => new SqsHealthQueue(sqs(), config.healthQueueUrl());
export const healthLinks = () => new DynamoHealthLinks(dynamo(), config.table('linksTable'));

/** Every destination on AWS; a local run (LOCAL_HEALTH_ALLOW set) checks its listed `host:port` names only. */
export function mayCheckDestination(): (url: string) => boolean {
  const local = config.localHealthAllow();
  const allowed = parseLocalAllowList(local);
  return (url) => local === undefined || allowed.has(hostPortOf(new URL(url)));
}

/** What a check needs. */
export function healthCheckDeps(): HealthCheckDeps {
  const allowed = parseLocalAllowList(config.localHealthAllow());
  const hostsFile = config.localHostsFile();
  return {
    links: healthLinks(),
    urls: new DynamoUrlChecks(dynamo(), config.table('linkHealthTable')),
    slots: new DynamoHostSlots(dynamo(), config.table('linkHealthTable')),
    request: (url, method) => requestDestination(url, method, { localAllow: allowed, ...(hostsFile ? { hostsFile } : {}) }),
    mayCheck: mayCheckDestination(),
    timeScale: config.healthTimeScale(),
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
