import { domainToUnicode } from 'node:url';
import * as z from 'zod/mini';
import { builtOnFirstUse, LIST_LIMIT, parseOrRefuse, wholeNumberParameter } from '../request-parsing';
import { OwnMessages } from '../messages';
import type { LinkPosition, ManagedLinkStore } from '../ports';
import { InvalidRequest } from '../errors';
import { assertPlanIncludes, type Plan } from '../limits/plans';
import { asciiDomain } from '../domains/host-name';
import { isSharedHost } from '../domains/link-domains';
import { keyOf, LINK_STATUSES, statusOf, toLinkView, type LinkRecord, type LinkStatus, type LinkView } from './link';
import { looksLikeShortCode } from './short-code';
import { TAG_PATTERN } from './link-request';

/** A status filter reads at most this many links per request; the cursor then carries on where it stopped. */
const MAX_EXAMINED_PER_PAGE = 1_000;
export const INDEX_PAGE = 100;

/** The cursor is opaque to clients: the index position of the last link a page examined. */
export function encodeCursor(position: LinkPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.code]), 'utf8').toString('base64url');
}

/** A link's key: a code, or `<domain>/<code>` (link.ts `linkKey`). */
function looksLikeLinkKey(key: string): boolean {
  const slash = key.lastIndexOf('/');
  if (slash === -1) return looksLikeShortCode(key);
  return asciiDomain(key.slice(0, slash)) === key.slice(0, slash) && looksLikeShortCode(key.slice(slash + 1));
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function decodeCursor(cursor: string): LinkPosition | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [createdAt, code] = decoded as unknown[];
    if (typeof createdAt !== 'string' || !ISO_TIMESTAMP.test(createdAt) || typeof code !== 'string' || !looksLikeLinkKey(code)) return undefined;
    return { createdAt, code };
  } catch {
    return undefined;
  }
}

/** GET /v2/links query parameters, as API Gateway passes them (strings); each bad one is a 400 naming it. */
export const listQuerySchema = builtOnFirstUse(() =>
  z.object({
    limit: z.optional(wholeNumberParameter(LIST_LIMIT.min, LIST_LIMIT.max, OwnMessages.limitParameter)),
    cursor: z.optional(z.string().check(z.maxLength(512, OwnMessages.cursorParameter), z.refine((cursor) => decodeCursor(cursor) !== undefined, OwnMessages.cursorParameter))),
    status: z.optional(z.enum(LINK_STATUSES, OwnMessages.statusParameter)),
    domain: z.optional(z.string().check(z.maxLength(300, OwnMessages.domainParameter))),
    search: z.optional(z.string().check(z.minLength(1, OwnMessages.searchParameter), z.maxLength(200, OwnMessages.searchParameter))),
    tag: z.optional(z.string().check(z.regex(TAG_PATTERN, OwnMessages.tagParameter))),
    health: z.optional(z.enum(['broken'], OwnMessages.healthParameter)),
  }),
);

export interface ListQuery {
  limit: number;
  after?: LinkPosition;
  status?: LinkStatus;
  /** Only links on this host: a custom domain, or the shared domain's host. */
  domain?: string;
  /** Only links whose code (or alias) or destination contains this, ignoring case (issue 20). */
  search?: string;
  /** Only links with this tag (lower-cased, as tags are stored). */
  tag?: string;
  /** Only links whose checks found them broken twice in a row and not recovered since (issue 31; PRO and up). */
  health?: 'broken';
}

export function parseListQuery(parameters: Record<string, string | undefined> | null): ListQuery {
  const { limit, cursor, status, domain, search, tag, health } = parseOrRefuse(listQuerySchema(), parameters ?? {});
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  return {
    limit: limit ?? LIST_LIMIT.default,
    ...(after ? { after } : {}),
    ...(status ? { status } : {}),
    ...(domain === undefined ? {} : { domain }),
    ...(search === undefined ? {} : { search }),
    ...(tag === undefined ? {} : { tag: tag.toLowerCase() }),
    ...(health === undefined ? {} : { health }),
  };
}

/** The broken-links filter is PRO's and up (the checks, and `health` in the view, are every plan's). */
export function assertListingAllowed(query: ListQuery, plan: Plan): void {
  if (query.health !== undefined) assertPlanIncludes(plan, 'linkHealth');
}

export interface LinkPage {
  links: LinkView[];
  nextCursor: string | null;
}

/** `?domain=`: the shared domain's host picks links without a custom domain; anything else must be a host name. */
function domainFilter(requested: string | undefined, shortBaseUrl: string): ((link: LinkRecord) => boolean) | undefined {
  if (requested === undefined) return undefined;
  if (isSharedHost(requested, shortBaseUrl)) return (link) => link.domain === undefined;
  const name = asciiDomain(requested);
  if (!name) throw new InvalidRequest(OwnMessages.domainParameter);
  return (link) => link.domain === name;
}

/** A destination as people type it: stored URLs are ASCII (punycode hosts, percent-encoded paths). */
function readable(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${domainToUnicode(parsed.hostname)}${parsed.port ? `:${parsed.port}` : ''}${decodeURIComponent(parsed.pathname + parsed.search + parsed.hash)}`;
  } catch {
    return url;
  }
}

/** `?search=`: a case-insensitive substring of the code (an alias is its code) or of the destination, either form. */
function searchFilter(search: string | undefined): ((link: LinkRecord) => boolean) | undefined {
  if (search === undefined) return undefined;
  const needle = search.toLowerCase();
  return (link) => [link.code, link.url ?? '', link.url ? readable(link.url) : ''].some((haystack) => haystack.toLowerCase().includes(needle));
}

/** What a list (GET /v2/links) or a bulk action (POST /v2/links/bulk) picks links by; all given must hold. */
export type LinkFilter = Pick<ListQuery, 'status' | 'domain' | 'search' | 'tag'>;

/** Whether a link passes the filter; undefined when the filter asks nothing (every link passes). */
export function linkMatcher(filter: LinkFilter, context: { nowMs: number; shortBaseUrl: string }): ((link: LinkRecord) => boolean) | undefined {
  const onDomain = domainFilter(filter.domain, context.shortBaseUrl);
  const searched = searchFilter(filter.search);
  const { status, tag } = filter;
  if (status === undefined && onDomain === undefined && searched === undefined && tag === undefined) return undefined;
  return (link) =>
    (status === undefined || statusOf(link, context.nowMs) === status) &&
    (onDomain?.(link) ?? true) &&
    (searched?.(link) ?? true) &&
    (tag === undefined || (link.tags ?? []).includes(tag));
}

/**
 * An account's links, newest first, from the owner index: Query pages, never a Scan. Without a filter one page
 * is one Query of `limit` links; with a status, domain, search, tag or health filter pages are read until `limit` links match or 1,000 were
 * examined. The cursor is where examination stopped, so a link is never returned twice nor skipped, whatever is
 * created meanwhile (new links sort before the cursor).
 */
export async function listLinks(
  owner: string,
  query: ListQuery,
  context: { nowMs: number; shortBaseUrl: string },
  links: Pick<ManagedLinkStore, 'listByOwner'>,
): Promise<LinkPage> {
  const byFilter = linkMatcher(query, context);
  // The broken-links filter (issue 31): announced broken (two checks in a row), and still active.
  const byHealth = query.health === undefined ? undefined : (link: LinkRecord) => link.health?.broken === true && statusOf(link, context.nowMs) === 'active';
  const matches = byFilter && byHealth ? (link: LinkRecord) => byFilter(link) && byHealth(link) : (byFilter ?? byHealth);
  const filtered = matches !== undefined;
  const chosen: LinkRecord[] = [];
  let after = query.after;
  let examined = 0;
  for (;;) {
    const page = await links.listByOwner(owner, { limit: filtered ? INDEX_PAGE : query.limit, ...(after ? { after } : {}) });
    let index = 0;
    while (index < page.links.length && chosen.length < query.limit) {
      const link = page.links[index] as LinkRecord;
      if (matches?.(link) ?? true) chosen.push(link);
      index += 1;
    }
    examined += index;
    const last = page.links[index - 1];
    if (last) after = { code: keyOf(last), createdAt: last.createdAt };
    const more = index < page.links.length || page.more;
    if (!more || !last) return { links: chosen.map((link) => toLinkView(link, context.shortBaseUrl, context.nowMs)), nextCursor: null };
    if (chosen.length >= query.limit || examined >= MAX_EXAMINED_PER_PAGE) {
      return { links: chosen.map((link) => toLinkView(link, context.shortBaseUrl, context.nowMs)), nextCursor: encodeCursor(after as LinkPosition) };
    }
  }
}

/** GET /v2/tags reads at most this many of an account's links (newest first), and says when it stopped short. */
export const MAX_LINKS_FOR_TAGS = 10_000;

export interface TagCounts {
  tags: Array<{ tag: string; links: number }>;
  /** False when the account has more links than were read: the counts are those of its newest MAX_LINKS_FOR_TAGS. */
  complete: boolean;
}

/** The account's tags with how many of its links carry each, most used first (ties by name). */
export async function countTags(owner: string, links: Pick<ManagedLinkStore, 'listByOwner'>): Promise<TagCounts> {
  const counts = new Map<string, number>();
  let after: LinkPosition | undefined;
  let read = 0;
  for (;;) {
    const page = await links.listByOwner(owner, { limit: INDEX_PAGE, ...(after ? { after } : {}) });
    for (const link of page.links) for (const tag of link.tags ?? []) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    read += page.links.length;
    const last = page.links.at(-1);
    if (!page.more || !last) return { tags: sortedCounts(counts), complete: true };
    if (read >= MAX_LINKS_FOR_TAGS) return { tags: sortedCounts(counts), complete: false };
    after = { code: keyOf(last), createdAt: last.createdAt };
  }
}

const sortedCounts = (counts: Map<string, number>) =>
  [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)).map(([tag, links]) => ({ tag, links }));
