import type { APIGatewayProxyEvent } from 'aws-lambda';
import { linkKey } from '../domain/links/link';
import { campaignOf, deviceClass, referrerHost, viewerCity, viewerCountry, viewerRegion, type Click } from '../domain/analytics/click';
import type { VisitOutcome } from '../domain/visits/visit';
import { header } from './headers';
import type { VisitorRequest } from './visitor-request';
import { countedNetwork } from './client-key';
import { trustedClientIp, type OriginSecrets } from './trusted-viewer';
import { visitorUpdate } from '../domain/analytics/visitor-sketch';

/** The log line's message: what the subscription filter on the redirect's log group selects. */
export const CLICK_LOG_MESSAGE = 'click';

/**
 * The click a visit makes, if any: a 302. HEAD requests, link-preview fetchers and the bots isbot knows make a bot's
 * click (counted apart, issue 30); everything else is not a 302. Of the User-Agent only its classes go out, of the
 * address nothing.
 */
export function clickOf(outcome: VisitOutcome, request: VisitorRequest, event: APIGatewayProxyEvent, nowMs: number): Click | undefined {
  if (outcome.kind !== 'redirect') return undefined;
  const { visit, agent, place } = request;
  const bot = visit.method === 'HEAD' || visit.previewBot || agent.bot;
  // As the visitor's request read it: CloudFront's country, region and city only beside the origin secret (trusted-viewer.ts).
  const country = viewerCountry(visit.signals.country);
  return {
    code: linkKey(visit.host, visit.code),
    at: new Date(nowMs).toISOString(),
    country,
    referrer: referrerHost(header(event, 'referer')),
    device: deviceClass(header(event, 'user-agent')),
    counted: outcome.counted,
    // The link's url is the usual case: only other destinations are written out.
    ...(outcome.destination === 'default' ? {} : { destination: outcome.destination }),
    ...(bot ? { bot: true } : {}),
    browser: agent.browser,
    os: agent.os,
    region: viewerRegion(country, place.region),
    city: viewerCity(place.city),
    ...campaignOf(visit.signals.query),
  };
}

/**
 * A person's click with its unique-visitor update (issue 30): the register and rank of a keyed hash of (the address
 * as password attempts count it: IPv6 by /64, IPv4 as it is; the User-Agent) under the day's salt. Only those two
 * small numbers leave the function. Bots' clicks, and any click while the salt cannot be read, go without.
 */
export async function withVisitor(click: Click, event: APIGatewayProxyEvent, originSecrets: OriginSecrets, salt: string | undefined): Promise<Click> {
  if (click.bot || salt === undefined) return click;
  const network = countedNetwork(await trustedClientIp(event, originSecrets));
  return { ...click, visitor: visitorUpdate(salt, network, header(event, 'user-agent')) };
}
