import * as z from 'zod/mini';
import { parseOrRefuse, wholeNumberParameter } from '../request-parsing';
import { OwnMessages } from '../messages';
import type { LinkPosition, ManagedLinkStore } from '../ports';
import { LINK_STATUSES, statusOf, toLinkView, type LinkRecord, type LinkStatus, type LinkView } from './link';
import { looksLikeShortCode } from './short-code';

export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;
/** A status filter reads at most this many links per request; the cursor then carries on where it stopped. */
const MAX_EXAMINED_PER_PAGE = 1_000;
const INDEX_PAGE = 100;

/** The cursor is opaque to clients: the index position of the last link a page examined. */
export function encodeCursor(position: LinkPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.code]), 'utf8').toString('base64url');
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function decodeCursor(cursor: string): LinkPosition | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [createdAt, code] = decoded as unknown[];
    if (typeof createdAt !== 'string' || !ISO_TIMESTAMP.test(createdAt) || typeof code !== 'string' || !looksLikeShortCode(code)) return undefined;
    return { createdAt, code };
  } catch {
    return undefined;
  }
}

/** GET /v2/links query parameters, as API Gateway passes them (strings); each bad one is a 400 naming it. */
export const listQuerySchema = z.object({
  limit: z.optional(wholeNumberParameter(LIST_LIMIT.min, LIST_LIMIT.max, OwnMessages.limitParameter)),
  cursor: z.optional(z.string().check(z.maxLength(512, OwnMessages.cursorParameter), z.refine((cursor) => decodeCursor(cursor) !== undefined, OwnMessages.cursorParameter))),
  status: z.optional(z.enum(LINK_STATUSES, OwnMessages.statusParameter)),
});

export interface ListQuery {
  limit: number;
  after?: LinkPosition;
  status?: LinkStatus;
}

export function parseListQuery(parameters: Record<string, string | undefined> | null): ListQuery {
  const { limit, cursor, status } = parseOrRefuse(listQuerySchema, parameters ?? {});
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  return { limit: limit ?? LIST_LIMIT.default, ...(after ? { after } : {}), ...(status ? { status } : {}) };
}

export interface LinkPage {
  links: LinkView[];
  nextCursor: string | null;
}

/**
 * An account's links, newest first, from the owner index: Query pages, never a Scan. Without a filter one page
 * is one Query of `limit` links; with a status filter pages are read until `limit` links match or 1,000 were
 * examined. The cursor is where examination stopped, so a link is never returned twice nor skipped, whatever is
 * created meanwhile (new links sort before the cursor).
 */
export async function listLinks(
  owner: string,
  query: ListQuery,
  context: { nowMs: number; shortBaseUrl: string },
  links: Pick<ManagedLinkStore, 'listByOwner'>,
): Promise<LinkPage> {
  const matches = (link: LinkRecord) => query.status === undefined || statusOf(link, context.nowMs) === query.status;
  const chosen: LinkRecord[] = [];
  let after = query.after;
  let examined = 0;
  for (;;) {
    const page = await links.listByOwner(owner, { limit: query.status === undefined ? query.limit : INDEX_PAGE, ...(after ? { after } : {}) });
    let index = 0;
    while (index < page.links.length && chosen.length < query.limit) {
      const link = page.links[index] as LinkRecord;
      if (matches(link)) chosen.push(link);
      index += 1;
    }
    examined += index;
    const last = page.links[index - 1];
    if (last) after = { code: last.code, createdAt: last.createdAt };
    const more = index < page.links.length || page.more;
    if (!more || !last) return { links: chosen.map((link) => toLinkView(link, context.shortBaseUrl, context.nowMs)), nextCursor: null };
    if (chosen.length >= query.limit || examined >= MAX_EXAMINED_PER_PAGE) {
      return { links: chosen.map((link) => toLinkView(link, context.shortBaseUrl, context.nowMs)), nextCursor: encodeCursor(after as LinkPosition) };
    }
  }
}
