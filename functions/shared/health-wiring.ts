import { sqs } from './adapters/clients';
import { SqsHealthQueue } from './adapters/sqs-health-queue';
import { config } from './config';
import { hostPortOf, parseLocalAllowList } from './domain/webhooks/address-policy';

/**
 * What queues link health checks (issue 31): the links stream's router and the worker itself. Apart from the
 * worker's own adapters (health-check-wiring.ts), so the router's bundle carries no prober.
 */
export const healthQueue = () => new SqsHealthQueue(sqs(), config.healthQueueUrl());

/** Every destination on AWS; a local run (LOCAL_HEALTH_ALLOW set) checks its listed `host:port` names only. */
export function mayCheckDestination(): (url: string) => boolean {
  const local = config.localHealthAllow();
  const allowed = parseLocalAllowList(local);
  return (url) => local === undefined || allowed.has(hostPortOf(new URL(url)));
}
