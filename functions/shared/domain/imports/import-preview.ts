import { InvalidRequest } from '../errors';
import { ImportMessages } from '../messages';
import type { ImportSource } from './import-record';
import { IMPORT_PARSERS } from './import-parsers';
import { planImport } from './link-mapping';

/** Rows a preview shows: the dashboard's wizard lets a person check the mapping on a screenful before going. */
export const PREVIEW_ROWS = 20;

/** One of the first rows as the import would make it, before anything is stored (a taken slug shows only then). */
export type PreviewRow =
  | {
      row: number;
      outcome: 'ready';
      url: string;
      /** Absent: a code is generated. */
      slug?: string;
      /** The workspace's domain the link goes on; absent: the shared domain. */
      domain?: string;
      title?: string;
      tags?: string[];
      createdAt: string;
      expiresAt?: string;
      importedClicks: number;
      /** What will not be kept as given: a slug refused here (skipped or renamed as `onConflict` says), tags, a long title. */
      notes: string[];
    }
  | { row: number; outcome: 'failed'; reason: string };

export interface ImportPreview {
  source: ImportSource;
  /** Rows in the whole file. */
  read: number;
  rows: PreviewRow[];
}

/**
 * POST /v2/imports/preview: the file read by the same parser and mapped by the same rules as the import, its first
 * rows shown; nothing stored, nothing queued. A file the import would refuse (unreadable, too many rows) is refused
 * here with the same 400.
 */
export function previewImport(
  request: { source: ImportSource; content: string },
  context: { nowMs: number; workspaceDomains: ReadonlySet<string>; maxRows: number },
): ImportPreview {
  const parsed = IMPORT_PARSERS[request.source](request.content, { nowMs: context.nowMs, maxRows: context.maxRows });
  const read = parsed.records.length + parsed.problems.length;
  if (read > context.maxRows) throw new InvalidRequest(ImportMessages.tooManyRows(context.maxRows));
  const shown = (row: number) => row <= PREVIEW_ROWS;
  // Only the rows shown are mapped: a repeat of an earlier id can only point back at a row shown too.
  const plan = planImport(
    { records: parsed.records.filter(({ row }) => shown(row)), problems: parsed.problems.filter(({ row }) => shown(row)) },
    { source: request.source, workspaceDomains: context.workspaceDomains, nowMs: context.nowMs },
  );
  const rows: PreviewRow[] = [
    ...plan.drafts.map(({ row, draft }): PreviewRow => ({
      row,
      outcome: 'ready',
      url: draft.request.url,
      ...(draft.request.alias === undefined ? {} : { slug: draft.request.alias }),
      ...(draft.request.domain === undefined ? {} : { domain: draft.request.domain }),
      ...(draft.title === undefined ? {} : { title: draft.title }),
      ...(draft.request.tags === undefined ? {} : { tags: draft.request.tags }),
      createdAt: draft.createdAt,
      ...(draft.expiresAt === undefined ? {} : { expiresAt: draft.expiresAt }),
      importedClicks: draft.importedClicks,
      notes: [...(draft.slugRefusal === undefined ? [] : [draft.slugRefusal]), ...draft.notes],
    })),
    ...plan.problems.map(({ row, reason }): PreviewRow => ({ row, outcome: 'failed', reason })),
  ];
  return { source: request.source, read, rows: rows.sort((a, b) => a.row - b.row) };
}
