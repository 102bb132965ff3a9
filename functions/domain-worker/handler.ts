import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { runDomainWork } from '../shared/domain/domains/domain-work';
import { logger, publishMetrics } from '../shared/observability';
import { domainAttachments, txtRecords } from '../shared/domain-wiring';
import { domainStore, linkStore } from '../shared/wiring';

const deps = {
  domains: domainStore(),
  attachments: domainAttachments(),
  txt: txtRecords(),
  links: linkStore(),
  // One domain's failure is logged and the run goes on (issue 27): the domain carries the reason its owner sees.
  workFailed: (domain: string, error: unknown) => logger.warn('domain work failed', { domain, error }),
};

/** Run every minute by the schedule: due checks of pending domains, then removed domains' cleanups. */
async function work(): Promise<void> {
  const done = await runDomainWork(Date.now(), deps);
  if (done.checked + done.linksDeleted + done.cleanupsFinished > 0) logger.info('domain work done', { ...done });
}

export const handler = middy(work).use(injectLambdaContext(logger, { resetKeys: true })).use(publishMetrics());
