import { ImportMessages } from '../messages';
import type { Read } from './field-readers';
import { ImportFileUnreadable, type ImportedRecord, type ImportSource, type ParsedImport } from './import-record';

/** A row's record, or the reason it has none (the first problem found in it). */
export type RowOutcome = ImportedRecord | { reason: string };

/** Each row through `toRecord`, in file order; the problems of the file's reading (cell counts) go first. */
export function collectRows<Row extends { row: number }>(rows: readonly Row[], toRecord: (row: Row) => RowOutcome, earlier: ParsedImport['problems'] = []): ParsedImport {
  const parsed: ParsedImport = { records: [], problems: [...earlier] };
  for (const row of rows) {
    const outcome = toRecord(row);
    if ('reason' in outcome) parsed.problems.push({ row: row.row, reason: outcome.reason });
    else parsed.records.push({ row: row.row, record: outcome });
  }
  parsed.problems.sort((a, b) => a.row - b.row);
  return parsed;
}

/** The first refusal among a row's reads, as the row's reason. */
export function firstRefusal(...reads: ReadonlyArray<Read<unknown>>): { reason: string } | undefined {
  for (const read of reads) if (!read.ok) return { reason: read.reason };
  return undefined;
}

/** The value of a read known to be accepted (after `firstRefusal` found none). */
export const valueOf = <T>(read: Read<T>): T => (read as { ok: true; value: T }).value;

/** A JSON file's text as its value; text that is not JSON is the file's problem. */
export function parseJsonFile(text: string, source: ImportSource): unknown {
  try {
    return JSON.parse(text.replace(/^\ufeff/, '')) as unknown;
  } catch (error) {
    throw new ImportFileUnreadable(ImportMessages.notJson(source, (error as Error).message));
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON field that must hold text when present: null and absent are absent. */
export function jsonText(item: Record<string, unknown>, key: string): Read<string | undefined> {
  const value = item[key];
  if (value === undefined || value === null) return { ok: true, value: undefined };
  return typeof value === 'string' ? { ok: true, value } : { ok: false, reason: ImportMessages.fieldType(key, 'text') };
}

/** A JSON list of text (tags): absent is none. */
export function jsonTextList(item: Record<string, unknown>, key: string): Read<string[]> {
  const value = item[key];
  if (value === undefined || value === null) return { ok: true, value: [] };
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string') ? { ok: true, value } : { ok: false, reason: ImportMessages.fieldType(key, 'a list of text') };
}

/** A required text field: absent or empty is the row's problem. */
export function requiredText(field: string, value: string | undefined): Read<string> {
  return value === undefined || value.trim() === '' ? { ok: false, reason: ImportMessages.fieldEmpty(field) } : { ok: true, value };
}

/** The host of a short URL (`https://s.test/abc` → `s.test`), for a JSON entry that names no domain of its own. */
export function hostOf(shortUrl: string | undefined): string | undefined {
  const host = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(shortUrl ?? '')?.[1];
  return host?.toLowerCase();
}

/** A record with its absent optional fields left out rather than set to `undefined` (records compare exactly). */
export function recordOf(fields: Omit<ImportedRecord, 'domain' | 'title' | 'createdAt' | 'expiresAt'> & { domain?: string | undefined; title?: string | undefined; createdAt?: string | undefined; expiresAt?: string | undefined }): ImportedRecord {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as unknown as ImportedRecord;
}
