import type { APIGatewayProxyEvent } from 'aws-lambda';
import { linkKey } from '../domain/links/link';
import { deviceClass, referrerHost, viewerCountry, type Click } from '../domain/analytics/click';
import type { VisitOutcome } from '../domain/visits/visit';
import { header } from './headers';
import type { VisitorRequest } from './visitor-request';

/** The log line's message: what the subscription filter on the redirect's log group selects. */
export const CLICK_LOG_MESSAGE = 'click';

/**
 * The click a visit makes, if any: a 302 answered to a GET or a password POST. HEAD requests and link-preview
 * bots get their answer without a click (they fetch a card, nobody clicked); everything else is not a 302.
 */
export function clickOf(outcome: VisitOutcome, request: VisitorRequest, event: APIGatewayProxyEvent, nowMs: number): Click | undefined {
  if (outcome.kind !== 'redirect' || request.visit.method === 'HEAD' || request.visit.previewBot) return undefined;
  return {
    code: linkKey(request.visit.host, request.visit.code),
    at: new Date(nowMs).toISOString(),
    // As the visitor's request read it: CloudFront's country only beside the origin secret (trusted-viewer.ts).
    country: viewerCountry(request.visit.signals.country),
    referrer: referrerHost(header(event, 'referer')),
    device: deviceClass(header(event, 'user-agent')),
    counted: outcome.counted,
    // The link's url is the usual case: only other destinations are written out.
    ...(outcome.destination === 'default' ? {} : { destination: outcome.destination }),
  };
}
