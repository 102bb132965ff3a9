import { config } from '../shared/config';
import { viewLink } from '../shared/domain/links/link-viewing';
import { apiGuard } from '../shared/http/api-guard';
import { guardedHandler } from '../shared/http/guarded-handler';
import { managementContext } from '../shared/http/account-caller';
import { parseQrQuery, qrResponse } from '../shared/http/qr-code';
import { domainStore, flagSource, linkStore, shortBaseUrlReader, usageCounter } from '../shared/wiring';

/** A function of its own: the QR library stays out of the other functions' cold starts (and the redirect's). */
const links = linkStore();
const domains = domainStore();
const shortBaseUrl = shortBaseUrlReader();
const guard = apiGuard({ flags: flagSource(), usage: usageCounter(), upgradeUrl: config.upgradeUrl() });

/** GET /v2/links/{code}/qr: the QR code of the owner's short link, SVG or PNG. */
export const handler = guardedHandler(guard, async (event, admission) => {
  const options = parseQrQuery(event.queryStringParameters);
  const link = await viewLink(event.pathParameters?.code ?? '', await managementContext(admission, event, shortBaseUrl, domains), { links });
  return qrResponse(link.shortUrl, options);
});
