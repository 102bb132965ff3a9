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

/**
 * A redirect is not counted here: each one writes its click line, which the aggregator counts (ClicksCounted), so a
 * metric of its own would put a second line (the EMF record) in the log for every visit (issue 28). Only the rare
 * outcomes make one.
 */
const VISIT_METRICS: Partial<Record<VisitOutcome['kind'], MetricName>> = {
  notFound: MetricName.notFound,
  gone: MetricName.gone,
};

export function recordVisit(outcome: VisitOutcome): void {
  const name = VISIT_METRICS[outcome.kind];
  if (name) count(name);
  if (outcome.kind === 'passwordRequired' && outcome.wrongPassword) count(MetricName.passwordFailures);
}
