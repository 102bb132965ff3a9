import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { runDomainWork } from '../shared/domain/domains/domain-work';
import { logger, publishMetrics } from '../shared/observability';
import { domainAttachments } from '../shared/domain-wiring';
import { domainStore, linkStore } from '../shared/wiring';

const deps = { domains: domainStore(), attachments: domainAttachments(), links: linkStore() };

/** Run every minute by the schedule: due checks of pending domains, then removed domains' cleanups. */
async function work(): Promise<void> {
  const done = await runDomainWork(Date.now(), deps);
  if (done.cleanupsFailed.length > 0) logger.warn('domain cleanups failed, tried again later', { failed: done.cleanupsFailed });
  if (done.checked + done.linksDeleted + done.cleanupsFinished > 0) logger.info('domain work done', { ...done });
}

export const handler = middy(work).use(injectLambdaContext(logger, { resetKeys: true })).use(publishMetrics());
