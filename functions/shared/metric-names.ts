/** The custom metrics the functions emit (embedded metric format) and the alarms read: one list for both. */
export const METRICS_NAMESPACE = 'UrlShortener';

export const MetricName = {
  linksCreated: 'LinksCreated',
  batchItemsCreated: 'BatchItemsCreated',
  batchItemsFailed: 'BatchItemsFailed',
  notFound: 'NotFound',
  gone: 'Gone',
  safetyRejections: 'SafetyRejections',
  safetyCheckFailures: 'SafetyCheckFailures',
  rateLimitRejections: 'RateLimitRejections',
  quotaRejections: 'QuotaRejections',
  passwordFailures: 'PasswordFailures',
  clicksCounted: 'ClicksCounted',
  clickDeliveryLag: 'ClickDeliveryLag',
  webhookEventsQueued: 'WebhookEventsQueued',
  webhookDeliveries: 'WebhookDeliveries',
  webhookDeliveryFailures: 'WebhookDeliveryFailures',
  webhooksDisabled: 'WebhooksDisabled',
  webhookDeliveryLag: 'WebhookDeliveryLag',
  linkHealthChecks: 'LinkHealthChecks',
  linkHealthQueued: 'LinkHealthQueued',
} as const;

export type MetricName = (typeof MetricName)[keyof typeof MetricName];
