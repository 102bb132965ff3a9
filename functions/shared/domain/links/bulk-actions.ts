/**
 * POST /v2/links/bulk (issue 31): one action on many links, each link changed by its own conditional write, as
 * PATCH and DELETE change one. Each write also requires the link to be the version this request read, so a change
 * made meanwhile by someone else is kept and that link's result says so. Webhooks and audit records follow each
 * write from the links table's stream, through the audit stamp it carries, as for a single change.
 */
import { mapWithConcurrency } from '../concurrency';
import type { LinkDomains, DomainHolder } from '../domains/link-domains';
import { DomainError, InvalidRequest, LinkDisabled, LinkGone, LinkNotFound } from '../errors';
import { BulkMessages, OwnMessages } from '../messages';
import type { LinkBatchReader, LinkChanges, LinkPosition } from '../ports';
import { BULK_TIME_BUDGET_MS, MAX_BULK_FILTER_LINKS, parseBulkRequest, type BulkAction, type BulkTarget } from './bulk-request';
import { keyOf, linkKey, statusOf, type LinkRecord } from './link';
import { encodeCursor, INDEX_PAGE, linkMatcher } from './link-listing';
import { changesOfPatch, deleteLink, writeChanges } from './link-management';
import { MAX_TAGS } from './link-request';
import { isManagedBy, type ManagementContext, type ManagementDeps } from './link-viewing';
import { looksLikeShortCode } from './short-code';

/** Writes in flight at once: enough to hide DynamoDB's round trips, few enough not to burst a table's capacity. */
const WRITES_IN_FLIGHT = 16;

export interface BulkResult {
  code: string;
  /** The custom domain the link was looked for on (the request's, or a filter's link's own); absent: the shared domain. */
  domain?: string;
  success: boolean;
  /** Why the link was not changed: the message PATCH or DELETE would answer for it, or that it changed meanwhile. */
  error?: string;
}

export interface BulkOutcome {
  results: BulkResult[];
  /** Where a filter's call stopped before its end (10,000 links or the time budget): pass it back to go on. */
  cursor?: string;
}

export interface BulkDeps extends ManagementDeps {
  links: ManagementDeps['links'] & LinkBatchReader;
  domains: LinkDomains;
}

/** The action, ready to apply to each link: an edit's changes are checked once for all (body, flags, plan, safety). */
type Apply = { kind: 'delete' } | { kind: 'update'; changes: LinkChanges } | { kind: 'tags'; next: (tags: readonly string[]) => string[] };

/** The link's tags with `added` after them; a tag it has stays where it is. */
export const withTags = (tags: readonly string[], added: readonly string[]) => [...tags, ...added.filter((tag) => !tags.includes(tag))];

export const withoutTags = (tags: readonly string[], removed: readonly string[]) => tags.filter((tag) => !removed.includes(tag));

async function prepare(action: BulkAction, context: ManagementContext, deps: ManagementDeps): Promise<Apply> {
  switch (action.action) {
    case 'delete':
      return { kind: 'delete' };
    case 'update':
      return { kind: 'update', changes: await changesOfPatch(action.changes, context, deps) };
    case 'addTags':
      return { kind: 'tags', next: (tags) => withTags(tags, action.tags) };
    case 'removeTags':
      return { kind: 'tags', next: (tags) => withoutTags(tags, action.tags) };
  }
}

/** What stops a change of the caller's link before any write, read from the link as this request saw it (the write checks it again). */
function stateRefusal(seen: LinkRecord, nowMs: number): DomainError | undefined {
  if (seen.disabled) return new LinkDisabled(OwnMessages.linkDisabled);
  const status = statusOf(seen, nowMs);
  if (status === 'used-up' || status === 'deleted') return new LinkGone(OwnMessages.linkGone);
  return undefined;
}

/** One link's change, conditional on the version read: its result, never an exception for a reason of the link's own. */
async function applyTo(code: string, seen: LinkRecord | undefined, context: ManagementContext, apply: Apply, deps: BulkDeps): Promise<BulkResult> {
  const result = { code, ...(context.domain === undefined ? {} : { domain: context.domain }) };
  try {
    // Another workspace's link and no link at all answer the same, as GET /v2/links/{code} does.
    if (!seen || !isManagedBy(seen, context)) throw new LinkNotFound(OwnMessages.linkNotFound);
    const refused = stateRefusal(seen, context.nowMs);
    if (refused) throw refused;
    const version = { ...(seen.updatedAt === undefined ? {} : { updatedAt: seen.updatedAt }) };
    if (apply.kind === 'delete') await deleteLink(code, context, deps, version);
    else if (apply.kind === 'update') await writeChanges(code, apply.changes, context, deps, version);
    else {
      const tags = seen.tags ?? [];
      const next = apply.next(tags);
      // Adding a tag the link has, or removing one it lacks, changes nothing: no write, no webhook, no audit record.
      if (next.length === tags.length && next.every((tag, index) => tag === tags[index])) return { ...result, success: true };
      if (next.length > MAX_TAGS) throw new InvalidRequest(BulkMessages.tooManyTags(MAX_TAGS));
      await writeChanges(code, { tags: next.length === 0 ? null : next }, context, deps, version);
    }
    return { ...result, success: true };
  } catch (error) {
    if (error instanceof DomainError) return { ...result, success: false, error: error.message };
    throw error;
  }
}

/** The request's codes on its domain, read in one call; a code given twice is changed once and answered twice. */
async function onCodes(codes: readonly string[], context: ManagementContext, apply: Apply, deps: BulkDeps): Promise<BulkOutcome> {
  const unique = [...new Set(codes)];
  const found = await deps.links.findMany(unique.filter(looksLikeShortCode).map((code) => linkKey(context.domain, code)));
  const answered = await mapWithConcurrency(unique, WRITES_IN_FLIGHT, (code) =>
    applyTo(code, looksLikeShortCode(code) ? found.get(linkKey(context.domain, code)) : undefined, context, apply, deps),
  );
  const byCode = new Map(answered.map((result) => [result.code, result]));
  return { results: codes.map((code) => byCode.get(code) as BulkResult) };
}

/** Each link is managed through its own domain, with whoever holds the name now (one lookup per name). */
function contextsByDomain(context: ManagementContext, domains: LinkDomains): (link: LinkRecord) => Promise<ManagementContext> {
  const holders = new Map<string, Promise<DomainHolder | undefined>>();
  return async (link) => {
    const { domain: _asked, holder: _its, ...base } = context;
    if (link.domain === undefined) return base;
    let holder = holders.get(link.domain);
    if (!holder) {
      holder = domains.find(link.domain).then((record) => (record ? { owner: record.owner, claimId: record.claimId } : undefined));
      holders.set(link.domain, holder);
    }
    const found = await holder;
    return { ...base, domain: link.domain, ...(found ? { holder: found } : {}) };
  };
}

/**
 * The workspace's links the filter picks, newest first from the owner index as GET /v2/links reads them, a page at a
 * time; each page's links are changed before the next is read, so the cursor (the last link examined) never skips one.
 */
async function onFilter(target: Extract<BulkTarget, { filter: unknown }>, context: ManagementContext, apply: Apply, deps: BulkDeps, clock: () => number): Promise<BulkOutcome> {
  const started = clock();
  const matches = linkMatcher(target.filter, context);
  const contextOf = contextsByDomain(context, deps.domains);
  const results: BulkResult[] = [];
  let after: LinkPosition | undefined = target.after;
  for (;;) {
    const page = await deps.links.listByOwner(context.caller.owner, { limit: INDEX_PAGE, ...(after ? { after } : {}) });
    const chosen: LinkRecord[] = [];
    let index = 0;
    while (index < page.links.length && results.length + chosen.length < MAX_BULK_FILTER_LINKS) {
      const link = page.links[index] as LinkRecord;
      if (matches?.(link) ?? true) chosen.push(link);
      index += 1;
    }
    results.push(...(await mapWithConcurrency(chosen, WRITES_IN_FLIGHT, async (link) => applyTo(link.code, link, await contextOf(link), apply, deps))));
    const last = page.links[index - 1];
    if (last) after = { code: keyOf(last), createdAt: last.createdAt };
    const more = index < page.links.length || page.more;
    if (!more || !last) return { results };
    if (results.length >= MAX_BULK_FILTER_LINKS || clock() - started >= BULK_TIME_BUDGET_MS) return { results, cursor: encodeCursor(after as LinkPosition) };
  }
}

/** The request checked as a whole first (a 400 changes nothing), then each link: one result per link. */
export async function runBulk(body: unknown, context: ManagementContext, deps: BulkDeps, clock: () => number): Promise<BulkOutcome> {
  const request = parseBulkRequest(body);
  const apply = await prepare(request, context, deps);
  if ('codes' in request.target) return onCodes(request.target.codes, context, apply, deps);
  return onFilter(request.target, context, apply, deps, clock);
}
