import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { countClicks } from '../shared/domain/analytics/click-counts';
import { clickInLogLine } from '../shared/domain/analytics/click-lines';
import { rollupClicks } from '../shared/domain/analytics/rollups';
import { rememberedPlaces } from '../shared/domain/analytics/remembered-places';
import { forgetUnrecordedDimensions, UnrecordedDimensions } from '../shared/domain/analytics/unrecorded-dimensions';
import { ClickFanout } from '../shared/domain/webhooks/click-fanout';
import { decodeLogDelivery, deliveryId } from '../shared/http/log-delivery';
import { MetricName } from '../shared/metric-names';
import { count, logger, metrics, publishMetrics } from '../shared/observability';
import { deliveryQueue, webhookStore } from '../shared/webhook-wiring';
import { analyticsSwitches, clickStats, flagSource, linkStore } from '../shared/wiring';
import { MetricUnit } from '@aws-lambda-powertools/metrics';

const stats = clickStats();
const links = linkStore();
const flags = flagSource();
const placeOf = rememberedPlaces((key) => links.placeOf(key));
const unrecorded = new UnrecordedDimensions(analyticsSwitches());
const fanout = new ClickFanout({ ownerOf: (key) => links.ownerOf(key), webhooks: webhookStore(), queue: deliveryQueue() });

/**
 * The redirect's click lines, delivered in batches by the log group's subscription filter: summed per (link, day,
 * dimension) and added exactly once per delivery, then each person's click queued as link.clicked for the owners'
 * webhooks (accounts that take none cost nothing: see click-fanout.ts). A failure throws, so the delivery is retried (and, past the retries, kept in the dead-letter queue);
 * parts already applied are not applied again, and events already queued are queued again with the same ids.
 */
async function aggregate(event: { awslogs?: { data?: string } }): Promise<void> {
  const delivery = decodeLogDelivery(event);
  if (delivery.messageType !== 'DATA_MESSAGE') return;
  const clicks = delivery.logEvents.flatMap((logEvent) => clickInLogLine(logEvent.message) ?? []);
  if (clicks.length === 0) return;
  const nowMs = Date.now();
  const id = deliveryId(delivery);
  // Each clicked link's owner and tags, for the workspace's items and live hours (issue 30): remembered for a while;
  // and what each owner's workspace switched off, remembered a few seconds (see unrecorded-dimensions.ts).
  const keys = [...new Set(clicks.map((click) => click.code))];
  const places = new Map(await Promise.all(keys.map(async (key) => [key, await placeOf(key, nowMs)] as const)));
  const unrecordedByOwner = await unrecorded.byOwner([...places.values()].flatMap((place) => (place ? [place.owner] : [])), nowMs);
  const counts = countClicks(clicks);
  const rollups = rollupClicks(clicks, places);
  forgetUnrecordedDimensions(counts, rollups.workspaces, places, unrecordedByOwner);
  await stats.apply(id, counts, nowMs, rollups);
  count(MetricName.clicksCounted, clicks.length);
  // How long the oldest click of the batch waited to be counted: the delivery-lag alarm watches its maximum.
  metrics.addMetric(MetricName.clickDeliveryLag, MetricUnit.Milliseconds, nowMs - Math.min(...clicks.map((click) => Date.parse(click.at))));
  if ((await flags.current()).webhooks) {
    // Bots' visits are counted apart and never a link.clicked event (issue 30).
    count(MetricName.webhookEventsQueued, await fanout.queue(clicks.filter((click) => click.bot !== true), id, nowMs));
  }
}

export const handler = middy(aggregate).use(injectLambdaContext(logger, { resetKeys: true })).use(publishMetrics());
