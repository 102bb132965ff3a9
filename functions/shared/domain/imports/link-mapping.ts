import { createHash } from 'node:crypto';
import { ALIAS_MAX_LENGTH, ALIAS_MIN_LENGTH, ALIAS_PATTERN, isReservedAlias } from '../links/aliases';
import { MAX_EXPIRES_IN_SECONDS, MAX_TAGS, TAG_PATTERN, parseLinkRequest, type LinkRequest } from '../links/link-request';
import { asciiDomain, MAX_DOMAIN_LENGTH } from '../domains/host-name';
import { DomainError } from '../errors';
import { ImportMessages, Messages, OwnMessages } from '../messages';
import type { ImportedRecord, ImportSource, ParsedImport, RowProblem } from './import-record';

export const ON_CONFLICT = ['skip', 'rename'] as const;
/** What happens to a row whose slug cannot be had: `skip` leaves it out, `rename` makes the link under a new code. */
export type OnConflict = (typeof ON_CONFLICT)[number];

/** Titles are for people; a longer one is a paste gone wrong, and every byte is carried by each listing of the link. */
export const MAX_TITLE_LENGTH = 500;
/**
 * Shlink's short codes hold 255 characters, a database column's usual size: a longer slug is a paste gone wrong, and
 * the row's problem. A shorter one that our alias rules refuse (over 50) is settled like a taken one, as any refused
 * slug is.
 */
export const MAX_SLUG_LENGTH = 255;
/**
 * What a link keeps of its peer's id, for people to see. The id is never compared (the idempotency key is made from the
 * whole of it), so a longer one is cut rather than its row refused: the `csv` source names a row without a slug by its
 * destination, up to 2,048 characters, and that row is good. Cut, no id carries a chunk past DynamoDB's 400 KB.
 */
export const MAX_SOURCE_ID_LENGTH = 255;

/**
 * One imported row as this service makes links: the creation request's own fields (checked by the same rules and
 * messages), the history it keeps besides, where it came from, and what of the row was not kept and why.
 */
export interface ImportDraft {
  /** `alias` absent: the row had no slug, a code is generated (no rename to report). */
  request: { url: string; alias?: string; domain?: string; tags?: string[] };
  /** Why the row's slug cannot be the link's code whatever is stored (not our alias rules): settled like a conflict. */
  slugRefusal?: string;
  title?: string;
  createdAt: string;
  expiresAt?: string;
  /** The peer's click total: shown apart from this service's clicks and never counted toward maxClicks. */
  importedClicks: number;
  /** `sourceId` at most MAX_SOURCE_ID_LENGTH characters; the key below is made from the whole id. */
  importedFrom: { source: ImportSource; sourceId: string };
  /** One link per (workspace, source, original id), however often the file is imported: the key of that promise. */
  idempotencyKey: string;
  /** What of the row was changed or left out (tags, a long title, a far expiry), for the results file. */
  notes: string[];
}

export interface MappingContext {
  source: ImportSource;
  /** The workspace's active custom domains (ASCII, lower case): a link whose domain is one of them stays on it. */
  workspaceDomains: ReadonlySet<string>;
  nowMs: number;
}

/** The key under which a link's import is remembered: the source and its original id, hashed to a fixed length. */
export function importIdempotencyKey(source: ImportSource, sourceId: string): string {
  return `${source}#${createHash('sha256').update(sourceId, 'utf8').digest('base64url')}`;
}

/** Why a slug cannot be an alias here, in the creation path's own words; undefined when it can. */
function aliasRefusal(slug: string): string | undefined {
  if (slug.length < ALIAS_MIN_LENGTH || slug.length > ALIAS_MAX_LENGTH) return Messages.aliasLength;
  if (!ALIAS_PATTERN.test(slug)) return OwnMessages.aliasCharacters;
  return isReservedAlias(slug) ? Messages.aliasReserved : undefined;
}

/**
 * Tags as the creation path keeps them: lower case, 1–32 letters, digits, `-` or `_`, no repeats, ten at most. A
 * peer's `Spring Sale` becomes `spring-sale`; a tag no rewriting makes fit (`日本`) is counted as not kept.
 */
function keptTags(given: readonly string[]): { tags: string[]; dropped: number } {
  const fitting = given.map((tag) => tag.trim().replace(/\s+/g, '-').toLowerCase()).filter((tag) => TAG_PATTERN.test(tag));
  const tags = [...new Set(fitting)].slice(0, MAX_TAGS);
  return { tags, dropped: given.length - fitting.length + Math.max(0, new Set(fitting).size - MAX_TAGS) };
}

/**
 * Why a row's slug or domain cannot be one at all, whatever our alias rules; undefined when both can. Counted in
 * characters (code points): an IDN's Unicode form never has more of them than its ASCII form, which DNS caps at 253.
 */
function lengthRefusal(record: ImportedRecord): string | undefined {
  if ([...record.slug].length > MAX_SLUG_LENGTH) return ImportMessages.fieldTooLong('slug', MAX_SLUG_LENGTH);
  const host = record.domain?.replace(/:\d+$/, '');
  return host !== undefined && [...host].length > MAX_DOMAIN_LENGTH ? ImportMessages.fieldTooLong('domain', MAX_DOMAIN_LENGTH) : undefined;
}

/** The peer's id as its link shows it: past MAX_SOURCE_ID_LENGTH characters, cut and ended with `…`. */
function shownSourceId(sourceId: string): string {
  const characters = [...sourceId];
  return characters.length <= MAX_SOURCE_ID_LENGTH ? sourceId : `${characters.slice(0, MAX_SOURCE_ID_LENGTH - 1).join('')}…`;
}

/** The domain of the same name when the workspace has it, else the shared domain (undefined). */
function placeOf(domain: string | undefined, workspaceDomains: ReadonlySet<string>): string | undefined {
  const name = domain === undefined ? undefined : asciiDomain(domain.replace(/:\d+$/, ''));
  return name !== undefined && workspaceDomains.has(name) ? name : undefined;
}

/** A record as a draft link, or the reason the row cannot be one at all (an over-long slug or domain, its destination). */
export function draftOf(record: ImportedRecord, context: MappingContext): { ok: true; draft: ImportDraft } | { ok: false; reason: string } {
  const tooLong = lengthRefusal(record);
  if (tooLong !== undefined) return { ok: false, reason: tooLong };
  const notes: string[] = [];
  const { tags, dropped } = keptTags(record.tags);
  if (dropped > 0) notes.push(ImportMessages.tagsNotKept(dropped));
  let request: LinkRequest;
  try {
    // The creation path's own check of the destination (public http(s), stored in its ASCII form).
    request = parseLinkRequest({ url: record.url, ...(tags.length > 0 ? { tags } : {}) });
  } catch (error) {
    if (error instanceof DomainError) return { ok: false, reason: error.message };
    throw error;
  }
  const domain = placeOf(record.domain, context.workspaceDomains);
  const slugRefusal = record.slug === '' ? undefined : aliasRefusal(record.slug);
  const title = record.title === undefined ? undefined : [...record.title].slice(0, MAX_TITLE_LENGTH).join('');
  if (title !== undefined && title !== record.title) notes.push(ImportMessages.titleShortened(MAX_TITLE_LENGTH));
  const createdMs = record.createdAt === undefined ? context.nowMs : Date.parse(record.createdAt);
  if (createdMs > context.nowMs) notes.push(ImportMessages.createdInFuture);
  const tooFar = record.expiresAt !== undefined && Date.parse(record.expiresAt) > context.nowMs + MAX_EXPIRES_IN_SECONDS * 1000;
  if (tooFar) notes.push(ImportMessages.expiryTooFar);
  return {
    ok: true,
    draft: {
      request: { url: request.url, ...(record.slug === '' ? {} : { alias: record.slug }), ...(domain === undefined ? {} : { domain }), ...(request.tags ? { tags: request.tags } : {}) },
      ...(slugRefusal === undefined ? {} : { slugRefusal: ImportMessages.slugNotKept(slugRefusal) }),
      ...(title === undefined ? {} : { title }),
      createdAt: new Date(Math.min(createdMs, context.nowMs)).toISOString(),
      ...(record.expiresAt === undefined || tooFar ? {} : { expiresAt: record.expiresAt }),
      importedClicks: record.clicks,
      importedFrom: { source: context.source, sourceId: shownSourceId(record.sourceId) },
      idempotencyKey: importIdempotencyKey(context.source, record.sourceId),
      notes,
    },
  };
}

export interface ImportPlan {
  drafts: Array<{ row: number; draft: ImportDraft }>;
  /** The parser's problems, the rows whose destination is refused, and repeats of an earlier row: none is imported. */
  problems: RowProblem[];
}

/** Every record of a file as a draft, in file order; a row repeating an earlier row's original id is imported once. */
export function planImport(parsed: ParsedImport, context: MappingContext): ImportPlan {
  const plan: ImportPlan = { drafts: [], problems: [...parsed.problems] };
  const firstRowOf = new Map<string, number>();
  for (const { row, record } of parsed.records) {
    const first = firstRowOf.get(record.sourceId);
    if (first !== undefined) {
      plan.problems.push({ row, reason: ImportMessages.repeats(first) });
      continue;
    }
    firstRowOf.set(record.sourceId, row);
    const drafted = draftOf(record, context);
    if (drafted.ok) plan.drafts.push({ row, draft: drafted.draft });
    else plan.problems.push({ row, reason: drafted.reason });
  }
  plan.problems.sort((a, b) => a.row - b.row);
  return plan;
}

/** What becomes of a draft: made under a code (its own slug, a generated one, or a rename that says why), or skipped. */
export type Placement = { kind: 'create'; code: string; isAlias: boolean; renamed?: string } | { kind: 'skip'; reason: string };

/** The first try: the row's own slug when our rules allow it, a generated code when it has none. */
export function firstPlacement(draft: ImportDraft, onConflict: OnConflict, generateCode: () => string): Placement {
  if (draft.slugRefusal !== undefined) return settleConflict(draft.slugRefusal, onConflict, generateCode);
  return draft.request.alias === undefined ? { kind: 'create', code: generateCode(), isAlias: false } : { kind: 'create', code: draft.request.alias, isAlias: true };
}

/** A slug that cannot be had (taken, or refused by our rules): skipped, or made under a generated code that says so. */
export function settleConflict(why: string, onConflict: OnConflict, generateCode: () => string): Placement {
  if (onConflict === 'skip') return { kind: 'skip', reason: why };
  const code = generateCode();
  return { kind: 'create', code, isAlias: false, renamed: ImportMessages.renamed(why, code) };
}
