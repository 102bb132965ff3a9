import { config } from '../shared/config';
import { apiGuard } from '../shared/http/api-guard';
import { routedHandler } from '../shared/http/guarded-handler';
import { flagSource, safetyChecker, usageCounter } from '../shared/wiring';
import { deliveryQueue, localReceivers, secretSealer, auditedWebhookStore } from '../shared/webhook-wiring';
import { OPERATIONS, type WebhooksApi } from './operations';

const api: WebhooksApi = {
  deps: { webhooks: auditedWebhookStore(), queue: deliveryQueue(), safety: safetyChecker(), secrets: secretSealer() },
  localReceivers: localReceivers(),
  timeScale: config.webhookTimeScale(),
};
const guard = apiGuard({ flags: flagSource(), usage: usageCounter(), upgradeUrl: config.upgradeUrl() });

/** /v2/webhooks and below: an account's webhooks, their secrets, tests and delivery log (issue 19). */
export const handler = routedHandler(guard, OPERATIONS, api);
