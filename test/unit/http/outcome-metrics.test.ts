import { InvalidRequest } from '../../../functions/shared/domain/errors';
import type { CreationOutcome } from '../../../functions/shared/domain/links/link-creation';
import { Messages } from '../../../functions/shared/domain/messages';
import { recordCreations, recordVisit } from '../../../functions/shared/http/outcome-metrics';
import { metrics } from '../../../functions/shared/observability';

/** The EMF line the request would print, as { metric name: value }. */
function emitted(): Record<string, unknown> {
  const output = metrics.serializeMetrics() as unknown as Record<string, unknown> & { _aws: { CloudWatchMetrics: Array<{ Namespace: string; Metrics: Array<{ Name: string }> }> } };
  const names = output._aws.CloudWatchMetrics[0]?.Metrics.map((metric) => metric.Name) ?? [];
  expect(output._aws.CloudWatchMetrics[0]?.Namespace).toBe('UrlShortener');
  return Object.fromEntries(names.map((name) => [name, output[name]]));
}

const created: CreationOutcome = { ok: true, link: { shortUrl: 'https://s/a', shortCode: 'a', url: 'https://e', createdAt: '' } };
const unsafe: CreationOutcome = { ok: false, error: new InvalidRequest(Messages.unsafeUrl) };
const invalid: CreationOutcome = { ok: false, error: new InvalidRequest(Messages.invalidUrl) };

afterEach(() => metrics.clearMetrics());

describe('metrics', () => {
  it('count a batch\'s created and failed items and its safety rejections', () => {
    recordCreations([created, created, unsafe, invalid], 'batch');
    expect(emitted()).toEqual({ LinksCreated: 2, BatchItemsCreated: 2, BatchItemsFailed: 2, SafetyRejections: 1 });
  });

  it('count a single creation', () => {
    recordCreations([created], 'single');
    expect(emitted()).toEqual({ LinksCreated: 1 });
  });

  it('count 404s, 410s and wrong passwords, and write no metric for a redirect (its click line counts it)', () => {
    recordVisit({ kind: 'redirect', url: 'https://e', cacheable: true, counted: false, destination: 'default', perVisitor: false });
    recordVisit({ kind: 'redirect', url: 'https://e', cacheable: true, counted: false, destination: 'default', perVisitor: false });
    recordVisit({ kind: 'notFound' });
    recordVisit({ kind: 'gone', reason: 'usedUp' });
    recordVisit({ kind: 'passwordRequired', wrongPassword: true });
    recordVisit({ kind: 'passwordRequired', wrongPassword: false });
    expect(emitted()).toEqual({ NotFound: 1, Gone: 1, PasswordFailures: 1 });
  });
});
