import type { APIGatewayProxyEvent } from 'aws-lambda';
import { assertListingAllowed, countTags, listLinks, parseListQuery } from '../shared/domain/links/link-listing';
import { deleteLink, editLink } from '../shared/domain/links/link-management';
import { runBulk } from '../shared/domain/links/bulk-actions';
import { viewLink, type ManagementDeps } from '../shared/domain/links/link-viewing';
import { usageReport } from '../shared/domain/limits/usage-report';
import type { ClickStatsStore, LinkBatchReader, UsageCounter } from '../shared/domain/ports';
import type { LinkDomains } from '../shared/domain/domains/link-domains';
import { parseStatsQuery, statsOfLink, statsRowsOfLink } from '../shared/domain/analytics/link-stats';
import { STATS_ROW_HEADER } from '../shared/domain/analytics/stats-rows';
import { parseWorkspaceStatsQuery, statsOfWorkspace } from '../shared/domain/analytics/workspace-stats';
import { liveOfLink, liveOfWorkspace } from '../shared/domain/analytics/live-stats';
import { csvDownload } from '../shared/http/csv';
import { accountCaller, managementContext } from '../shared/http/account-caller';
import type { Admission } from '../shared/http/api-guard';
import type { Operation } from '../shared/http/guarded-handler';
import { MAX_BODY_BYTES } from '../shared/http/body-limits';
import { readJsonObject } from '../shared/http/json-body';
import { json, noContent } from '../shared/http/responses';

export interface LinksApi {
  deps: ManagementDeps & { links: ManagementDeps['links'] & LinkBatchReader; usage: UsageCounter; stats: Pick<ClickStatsStore, 'days' | 'hours'>; domains: LinkDomains };
  shortBaseUrl: () => Promise<string>;
}

const context = (event: APIGatewayProxyEvent, admission: Admission, api: LinksApi) => managementContext(admission, event, api.shortBaseUrl, api.deps.domains);

const code = (event: APIGatewayProxyEvent) => event.pathParameters?.code ?? '';

/** Each route of the function: parse, one domain call, the answer. Keyed by `${method} ${resource}`. */
export const OPERATIONS: Record<string, Operation<LinksApi>> = {
  'GET /v2/links': async (event, admission, api) => {
    const query = parseListQuery(event.queryStringParameters);
    assertListingAllowed(query, accountCaller(admission).plan);
    return json(200, await listLinks(accountCaller(admission).owner, query, { nowMs: Date.now(), shortBaseUrl: await api.shortBaseUrl() }, api.deps.links));
  },
  'GET /v2/links/{code}': async (event, admission, api) => json(200, await viewLink(code(event), await context(event, admission, api), api.deps)),
  'PATCH /v2/links/{code}': async (event, admission, api) => {
    const body = readJsonObject(event, MAX_BODY_BYTES.patch);
    return json(200, await editLink(code(event), body, await context(event, admission, api), api.deps));
  },
  'DELETE /v2/links/{code}': async (event, admission, api) => {
    await deleteLink(code(event), await context(event, admission, api), api.deps);
    return noContent();
  },
  'POST /v2/links/bulk': async (event, admission, api) => {
    const body = readJsonObject(event, MAX_BODY_BYTES.bulk);
    return json(200, await runBulk(body, await context(event, admission, api), api.deps, Date.now));
  },
  'GET /v2/links/{code}/stats': async (event, admission, api) => {
    const query = parseStatsQuery(event.queryStringParameters);
    if (query.format === 'json') return json(200, await statsOfLink(code(event), query, await context(event, admission, api), api.deps));
    const { shortCode, rows } = await statsRowsOfLink(code(event), query, await context(event, admission, api), api.deps);
    return csvDownload(STATS_ROW_HEADER, rows, `${shortCode}-clicks-${query.days}d.csv`);
  },
  'GET /v2/links/{code}/stats/live': async (event, admission, api) => json(200, await liveOfLink(code(event), await context(event, admission, api), api.deps)),
  'GET /v2/stats': async (event, admission, api) =>
    json(200, await statsOfWorkspace(accountCaller(admission).owner, parseWorkspaceStatsQuery(event.queryStringParameters), Date.now(), api.deps.stats)),
  'GET /v2/stats/live': async (_event, admission, api) => json(200, await liveOfWorkspace(accountCaller(admission).owner, Date.now(), api.deps.stats)),
  'GET /v2/tags': async (_event, admission, api) => json(200, await countTags(accountCaller(admission).owner, api.deps.links)),
  'GET /v2/usage': async (_event, admission, api) =>
    json(200, await usageReport(accountCaller(admission), admission.rateLimit, api.deps.usage, Date.now())),
};
