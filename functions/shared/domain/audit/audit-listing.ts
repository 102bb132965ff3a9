import * as z from 'zod/mini';
import { InvalidRequest } from '../errors';
import { OwnMessages } from '../messages';
import type { AuditFilter, AuditLog } from '../ports';
import { builtOnFirstUse, LIST_LIMIT, parseOrRefuse, wholeNumberParameter } from '../request-parsing';
import type { AuditRecord } from './audit-record';

/** A page reads at most this many records; the cursor then carries on where it stopped (as the links listing does). */
export const MAX_EXAMINED_PER_PAGE = 1_000;

/** A record's position in its workspace's log, as stored (`<ISO time>#<id>`): all a cursor holds. */
const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[A-Za-z0-9_-]{1,128}$/;

/** The cursor is opaque to clients, and refused unless it decodes to a position (links listing's scheme). */
export function encodeCursor(position: string): string {
  return Buffer.from(JSON.stringify([position]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 1 || typeof decoded[0] !== 'string' || !POSITION.test(decoded[0])) return undefined;
    return decoded[0];
  } catch {
    return undefined;
  }
}

/** The date part names a day of the calendar (Date.parse would take 30 February for 2 March). */
function realDay(value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** GET /v2/audit-log query parameters, as API Gateway passes them (strings); each bad one is a 400 naming it. */
export const auditQuerySchema = builtOnFirstUse(() => {
  /** An ISO 8601 date-time with its zone, as the records' own times are compared: turned into UTC with milliseconds. */
  const isoTime = (name: string) =>
    z.pipe(
      z.string().check(
        z.maxLength(40, OwnMessages.auditTimeParameter(name)),
        z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/, OwnMessages.auditTimeParameter(name)),
        z.refine((value) => !Number.isNaN(Date.parse(value)) && realDay(value), OwnMessages.auditTimeParameter(name)),
      ),
      z.transform((value: string) => new Date(value).toISOString()),
    );

  return z.object({
    limit: z.optional(wholeNumberParameter(LIST_LIMIT.min, LIST_LIMIT.max, OwnMessages.limitParameter)),
    cursor: z.optional(z.string().check(z.maxLength(512, OwnMessages.cursorParameter), z.refine((cursor) => decodeCursor(cursor) !== undefined, OwnMessages.cursorParameter))),
    actor: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_.@:-]{1,128}$/, OwnMessages.auditActorParameter))),
    action: z.optional(z.string().check(z.regex(/^[a-z]{1,20}\.[a-z-]{1,40}$/, OwnMessages.auditActionParameter))),
    target: z.optional(z.string().check(z.regex(/^[^\u0000-\u001f\u007f]{1,300}$/u, OwnMessages.auditTargetParameter))),
    from: z.optional(isoTime('from')),
    to: z.optional(isoTime('to')),
  });
});

export interface AuditQuery {
  limit: number;
  after?: string;
  filter: AuditFilter;
}

export function parseAuditQuery(parameters: Record<string, string | undefined> | null): AuditQuery {
  const { limit, cursor, actor, action, target, from, to } = parseOrRefuse(auditQuerySchema(), parameters ?? {});
  if (from !== undefined && to !== undefined && from > to) throw new InvalidRequest(OwnMessages.auditRangeParameter);
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  return {
    limit: limit ?? LIST_LIMIT.default,
    ...(after ? { after } : {}),
    filter: { ...(actor ? { actor } : {}), ...(action ? { action } : {}), ...(target ? { target } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) },
  };
}

/** A record as the API shows it: its workspace is the caller's own. */
export type AuditEntry = Omit<AuditRecord, 'workspaceId'>;

export interface AuditPage {
  records: AuditEntry[];
  nextCursor: string | null;
}

/** GET /v2/audit-log: the workspace's records, newest first, a page at a time. */
export async function listAuditLog(workspaceId: string, query: AuditQuery, log: Pick<AuditLog, 'page'>): Promise<AuditPage> {
  const page = await log.page(workspaceId, query.filter, { limit: query.limit, maxExamined: MAX_EXAMINED_PER_PAGE, ...(query.after ? { after: query.after } : {}) });
  return {
    records: page.records.map(({ workspaceId: _workspace, ...entry }) => entry),
    nextCursor: page.next === undefined ? null : encodeCursor(page.next),
  };
}
