import * as z from 'zod/mini';
import { InvalidRequest } from '../errors';
import { BulkMessages } from '../messages';
import type { LinkPosition } from '../ports';
import { builtOnFirstUse, parseOrRefuse } from '../request-parsing';
import { decodeCursor, listQuerySchema, type LinkFilter } from './link-listing';
import { MAX_TAGS, TAG_PATTERN } from './link-request';

/** Codes one bulk request may name: a page of the dashboard's list, and one BatchGetItem. */
export const MAX_BULK_CODES = 100;

/** A filter changes at most this many links a call; the cursor goes on from there. */
export const MAX_BULK_FILTER_LINKS = 10_000;

/**
 * A filter stops starting new pages of links after this long and answers with a cursor: the links function has 10
 * seconds (lib/service-function.ts), and the page in flight and the answer need time too (infra test checks the margin).
 */
export const BULK_TIME_BUDGET_MS = 6_000;

/** The parts every action shares, built on first use (request-parsing.ts). */
const parts = builtOnFirstUse(() => {
  const listQuery = listQuerySchema();
  /** The tags to add or remove: as PATCH takes them (lower-cased, repeats dropped), at least one. */
  const tags = z.pipe(
    z.array(z.string({ error: BulkMessages.tagsInvalid }).check(z.regex(TAG_PATTERN, BulkMessages.tagsInvalid)), { error: BulkMessages.tagsInvalid }).check(
      z.minLength(1, BulkMessages.tagsInvalid),
      z.maxLength(MAX_TAGS, BulkMessages.tagsInvalid),
    ),
    z.transform((given: string[]) => [...new Set(given.map((tag) => tag.toLowerCase()))]),
  );
  /** The list route's filters (GET /v2/links), with its messages, in a JSON body. */
  const filter = z.object(
    { tag: listQuery.shape.tag, search: listQuery.shape.search, domain: listQuery.shape.domain, status: listQuery.shape.status },
    { error: BulkMessages.filterInvalid },
  );
  const target = {
    codes: z.optional(
      z.array(z.string({ error: BulkMessages.codesInvalid(MAX_BULK_CODES) }), { error: BulkMessages.codesInvalid(MAX_BULK_CODES) }).check(
        z.minLength(1, BulkMessages.codesInvalid(MAX_BULK_CODES)),
        z.maxLength(MAX_BULK_CODES, BulkMessages.codesInvalid(MAX_BULK_CODES)),
      ),
    ),
    filter: z.optional(filter),
    /** A previous answer's `cursor`: where the filter's last call stopped. */
    cursor: listQuery.shape.cursor,
  };
  return { tags, target };
});

/**
 * POST /v2/links/bulk: the links (codes or a filter) and one action. `changes` is PATCH's body: the document shows
 * its schema, while the handler passes it whole to PATCH's own parsing (link-management.ts changesOfPatch).
 */
export const bulkRequestSchema = <Changes extends z.ZodMiniType>(changes: Changes) => {
  const { tags, target } = parts();
  return z.discriminatedUnion(
    'action',
    [
      z.object({ ...target, action: z.literal('delete') }),
      z.object({ ...target, action: z.literal('update'), changes }),
      z.object({ ...target, action: z.literal('addTags'), tags }),
      z.object({ ...target, action: z.literal('removeTags'), tags }),
    ],
    { error: BulkMessages.actionInvalid },
  );
};

const parsingSchema = builtOnFirstUse(() => bulkRequestSchema(z.looseObject({}, { error: BulkMessages.changesInvalid })));

export type BulkAction =
  | { action: 'delete' }
  | { action: 'update'; changes: object }
  | { action: 'addTags' | 'removeTags'; tags: string[] };

/** Which links: the codes as given (on the request's domain), or a filter over the workspace's links from `after` on. */
export type BulkTarget = { codes: string[] } | { filter: LinkFilter; after?: LinkPosition };

export type BulkRequest = BulkAction & { target: BulkTarget };

export function parseBulkRequest(body: unknown): BulkRequest {
  const request = parseOrRefuse(parsingSchema(), body);
  const { codes, filter: chosen, cursor } = request;
  if ((codes === undefined) === (chosen === undefined)) throw new InvalidRequest(BulkMessages.targetInvalid(MAX_BULK_CODES));
  if (cursor !== undefined && chosen === undefined) throw new InvalidRequest(BulkMessages.cursorWithoutFilter);
  const action: BulkAction =
    request.action === 'delete' ? { action: 'delete' } : request.action === 'update' ? { action: 'update', changes: request.changes } : { action: request.action, tags: request.tags };
  if (codes !== undefined) return { ...action, target: { codes } };
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  const picked: LinkFilter = {
    ...(chosen?.status === undefined ? {} : { status: chosen.status }),
    ...(chosen?.domain === undefined ? {} : { domain: chosen.domain }),
    ...(chosen?.search === undefined ? {} : { search: chosen.search }),
    // Tags are stored lower-cased, as the list route compares them.
    ...(chosen?.tag === undefined ? {} : { tag: chosen.tag.toLowerCase() }),
  };
  return { ...action, target: { filter: picked, ...(after ? { after } : {}) } };
}
