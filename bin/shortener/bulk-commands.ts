import type { ShortenerClient } from '../../clients/typescript/src';
import type { paths } from '../../clients/typescript/src/schema';
import { MAX_BULK_CODES } from '../../functions/shared/domain/links/bulk-request';
import { LINK_STATUSES } from '../../functions/shared/domain/links/link';
import { MAX_EXPIRES_IN_SECONDS, MAX_TAGS, MIN_EXPIRES_IN_SECONDS, TAG_PATTERN } from '../../functions/shared/domain/links/link-request';
import { BulkMessages, OwnMessages } from '../../functions/shared/domain/messages';
import { ApiRefusal, messageOf, type Io } from './commands';
import { UsageError } from './csv-links';

type BulkBody = paths['/v2/links/bulk']['post']['requestBody']['content']['application/json'];
type BulkAnswer = paths['/v2/links/bulk']['post']['responses'][200]['content']['application/json'];
type Filter = NonNullable<BulkBody['filter']>;
type Changes = Extract<BulkBody, { action: 'update' }>['changes'];

/** The command line's names of the API's actions. */
const ACTIONS = { delete: 'delete', 'add-tags': 'addTags', 'remove-tags': 'removeTags', update: 'update' } as const;
export const BULK_ACTIONS = Object.keys(ACTIONS);

export interface BulkOptions {
  /** `a,b,c`, or `-` for one code a line on stdin. */
  codes?: string;
  tag?: string;
  search?: string;
  /** With codes, the domain they are on (as for one link); with a filter, the filter's domain. */
  domain?: string;
  status?: string;
  tags?: string;
  url?: string;
  /** An ISO time with a zone, or `none` to remove the expiry. */
  expiresAt?: string;
  yes?: boolean;
}

export interface BulkDeps {
  /** The text of stdin, for `--codes -`. */
  readStdin: () => Promise<string>;
  now: () => number;
}

async function readProcessStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const DEFAULT_DEPS: BulkDeps = { readStdin: readProcessStdin, now: Date.now };

const listOf = (text: string, separator: RegExp) => text.split(separator).map((item) => item.trim()).filter(Boolean);

/** A code given twice would be answered twice and, across chunks, "not changed" the second time: each goes once. */
async function codesOf(given: string, deps: BulkDeps): Promise<string[]> {
  const codes = [...new Set(given === '-' ? listOf(await deps.readStdin(), /\r?\n/) : listOf(given, /,/))];
  if (codes.length === 0) throw new UsageError(given === '-' ? '--codes -: stdin held no codes (one a line)' : '--codes needs at least one code, e.g. --codes abc123,spring');
  return codes;
}

/** The list's filters, checked as the API checks them so a typo stops before any call. */
function filterOf(options: BulkOptions): Filter | undefined {
  const { tag, search, domain, status } = options;
  if (tag === undefined && search === undefined && status === undefined && (domain === undefined || options.codes !== undefined)) return undefined;
  if (tag !== undefined && !TAG_PATTERN.test(tag)) throw new UsageError(`--tag: ${OwnMessages.tagParameter}`);
  if (status !== undefined && !(LINK_STATUSES as readonly string[]).includes(status)) throw new UsageError(`--status must be one of ${LINK_STATUSES.join(', ')}`);
  return { ...(tag === undefined ? {} : { tag }), ...(search === undefined ? {} : { search }), ...(domain === undefined ? {} : { domain }), ...(status === undefined ? {} : { status: status as Filter['status'] }) };
}

function tagsOf(text: string | undefined): string[] {
  const tags = listOf(text ?? '', /,/);
  if (tags.length === 0 || tags.length > MAX_TAGS || !tags.every((tag) => TAG_PATTERN.test(tag))) throw new UsageError(`--tags: ${BulkMessages.tagsInvalid}`);
  return tags;
}

/** PATCH takes an expiry as seconds from now: worked out for each call, so every page of a filter gets the same instant. */
function expiryOf(text: string, nowMs: number): (callMs: number) => number | null {
  if (text === 'none') return () => null;
  const at = /T.*(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) throw new UsageError('--expires-at must be an ISO 8601 time with a time zone (2027-01-31T18:00:00Z), or none to remove the expiry');
  const secondsFrom = (from: number) => Math.round((at - from) / 1000);
  const seconds = secondsFrom(nowMs);
  if (seconds < MIN_EXPIRES_IN_SECONDS || seconds > MAX_EXPIRES_IN_SECONDS) throw new UsageError('--expires-at must be at least a minute and at most 10 years from now');
  return secondsFrom;
}

type Action = { body: (callMs: number) => Pick<BulkBody, 'action'> & Partial<{ tags: string[]; changes: Changes }> };

/** The action and its own options; an option another action would take is refused rather than ignored. */
function actionOf(name: string, options: BulkOptions, nowMs: number): Action {
  const action = (ACTIONS as Record<string, (typeof ACTIONS)[keyof typeof ACTIONS]>)[name];
  if (!action) throw new UsageError(`the action must be one of ${BULK_ACTIONS.join(', ')}`);
  const tagAction = action === 'addTags' || action === 'removeTags';
  if (!tagAction && options.tags !== undefined) throw new UsageError('--tags goes with add-tags or remove-tags');
  if (action !== 'update' && (options.url !== undefined || options.expiresAt !== undefined)) throw new UsageError('--url and --expires-at go with update');
  if (tagAction) {
    const tags = tagsOf(options.tags);
    return { body: () => ({ action, tags }) };
  }
  if (action === 'update') {
    if (options.url === undefined && options.expiresAt === undefined) throw new UsageError('update needs --url or --expires-at');
    const { url } = options;
    const expiry = options.expiresAt === undefined ? undefined : expiryOf(options.expiresAt, nowMs);
    return { body: (callMs) => ({ action, changes: { ...(url === undefined ? {} : { url }), ...(expiry ? { expiresIn: expiry(callMs) } : {}) } }) };
  }
  return { body: () => ({ action }) };
}

const chunksOf = <T>(items: readonly T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

/**
 * `shortener bulk <action>`: POST /v2/links/bulk over `--codes` (in calls of 100) or a filter (following its cursor
 * until done). Prints each link that did not change with its reason on stdout (so the output can be read back
 * as codes), a running count on stderr between calls, and the summary; exit 1 when any link did not change.
 * The client is made after the arguments are checked: a bad one stops before any call, a sign-in's renewal included.
 */
export async function bulkChange(connect: () => Promise<ShortenerClient>, actionName: string, options: BulkOptions, io: Io, deps: BulkDeps = DEFAULT_DEPS): Promise<void> {
  const action = actionOf(actionName, options, deps.now());
  const filter = filterOf(options);
  if (options.codes !== undefined && filter) throw new UsageError('give either --codes or a filter (--tag, --search, --status, --domain), not both');
  if (options.codes === undefined && !filter) throw new UsageError('say which links: --codes a,b,c (or --codes - to read them from stdin) or a filter (--tag, --search, --status, --domain)');
  if (filter && actionName === 'delete' && !options.yes) throw new UsageError('delete over a filter deletes every link it picks: check it with `shortener list`, then add --yes');
  const codeChunks = options.codes === undefined ? [] : chunksOf(await codesOf(options.codes, deps), MAX_BULK_CODES);
  const client = await connect();
  const domain = options.codes !== undefined && options.domain !== undefined ? { params: { query: { domain: options.domain } } } : {};

  let changed = 0;
  let unchanged = 0;
  const summary = () => `${changed} changed, ${unchanged} not changed`;
  const send = async (target: Pick<BulkBody, 'codes' | 'filter' | 'cursor'>): Promise<BulkAnswer> => {
    const { data, error, response } = await client.POST('/v2/links/bulk', { ...domain, body: { ...target, ...action.body(deps.now()) } as BulkBody });
    if (!data) {
      io.err(`${summary()} before the API refused:\n`);
      throw new ApiRefusal(messageOf(error, response.status));
    }
    for (const result of data.results) {
      if (result.success) changed += 1;
      else {
        unchanged += 1;
        io.out(`${result.domain ? `${result.domain}/` : ''}${result.code}\t${result.error ?? 'not changed'}\n`);
      }
    }
    return data;
  };

  if (filter) {
    let cursor: string | undefined;
    do {
      cursor = (await send({ filter, ...(cursor === undefined ? {} : { cursor }) })).cursor;
      if (cursor !== undefined) io.err(`${changed + unchanged} links so far (${unchanged} not changed), going on\n`);
    } while (cursor !== undefined);
  } else {
    for (const [index, codes] of codeChunks.entries()) {
      await send({ codes });
      if (index < codeChunks.length - 1) io.err(`${changed + unchanged} links so far (${unchanged} not changed), going on\n`);
    }
  }
  if (unchanged > 0) throw new ApiRefusal(summary());
  io.err(`${summary()}\n`);
}
