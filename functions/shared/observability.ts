// First: Powertools reads the environment on every call (plain-environment.ts).
import './plain-environment';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MiddlewareObj } from '@middy/core';
import { METRICS_NAMESPACE, type MetricName } from './metric-names';

/** One structured JSON logger and one metrics buffer per container; the service name is POWERTOOLS_SERVICE_NAME. */
export const logger = new Logger();
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE });

/**
 * Flushes the request's metrics as one EMF log line. Unlike Powertools' logMetrics middleware it stays quiet
 * when a request counted nothing (a 400, say), instead of warning on every such request.
 */
export function publishMetrics(): MiddlewareObj {
  const flush = () => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  };
  return { after: flush, onError: flush };
}

export function count(name: MetricName, value = 1): void {
  if (value > 0) metrics.addMetric(name, MetricUnit.Count, value);
}

/**
 * One line in the function's log, written straight to stdout as Powertools' own lines are: for the hot path
 * (a click per redirect), without the logger's per-line context, which a click must not carry anyway.
 */
export function logLine(message: string, fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ level: 'INFO', message, timestamp: new Date().toISOString(), ...fields })}\n`);
}
