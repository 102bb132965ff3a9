import type { CreationOutcome } from '../domain/links/link-creation';
import { Messages } from '../domain/messages';
import type { VisitOutcome } from '../domain/visits/visit';
import { MetricName } from '../metric-names';
import { count } from '../observability';

/** Counts what a creation call produced: links made, items refused, and how many the safety check flagged. */
export function recordCreations(outcomes: readonly CreationOutcome[], kind: 'single' | 'batch'): void {
  const created = outcomes.filter((outcome) => outcome.ok).length;
  count(MetricName.linksCreated, created);
  if (kind === 'batch') {
    count(MetricName.batchItemsCreated, created);
    count(MetricName.batchItemsFailed, outcomes.length - created);
  }
  count(MetricName.safetyRejections, outcomes.filter((outcome) => !outcome.ok && outcome.error.message === Messages.unsafeUrl).length);
}

const VISIT_METRICS: Partial<Record<VisitOutcome['kind'], MetricName>> = {
  redirect: MetricName.redirects,
  notFound: MetricName.notFound,
  gone: MetricName.gone,
};

export function recordVisit(outcome: VisitOutcome): void {
  const name = VISIT_METRICS[outcome.kind];
  if (name) count(name);
  if (outcome.kind === 'passwordRequired' && outcome.wrongPassword) count(MetricName.passwordFailures);
}
