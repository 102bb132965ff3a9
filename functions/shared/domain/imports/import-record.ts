import { InvalidRequest } from '../errors';

/** The peers whose exports an import reads, and `csv`, this service's own columns (docs/imports.md). */
export const IMPORT_SOURCES = ['bitly', 'rebrandly', 'shortio', 'dub', 'shlink', 'kutt', 'yourls', 'csv'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/**
 * One link as a peer's export describes it, before any of this service's rules: values as given (a slug or tag this
 * service cannot hold is the mapping's business, not the parser's). Dates are ISO 8601 UTC.
 */
export interface ImportedRecord {
  /** What the peer identifies the link by (its id, else its domain and slug): the import's idempotency key. */
  sourceId: string;
  domain?: string;
  slug: string;
  url: string;
  title?: string;
  tags: string[];
  createdAt?: string;
  expiresAt?: string;
  /** The peer's click total: becomes `importedClicks`. */
  clicks: number;
}

/** `row`: the record's place in the file, 1 for the first after the header (or the first link of a JSON file). */
export interface RowProblem {
  row: number;
  reason: string;
}

export interface ParsedImport {
  records: Array<{ row: number; record: ImportedRecord }>;
  problems: RowProblem[];
}

/** What a parser may need besides the text: the clock, for a relative expiry (the `csv` source's `expiresIn`). */
export interface ParseContext {
  nowMs: number;
  /**
   * The most rows an import takes: a parser reads one row past it, enough to show the file is over it, and stops (a
   * hostile file's millions of rows would otherwise hold the function for its whole timeout). Absent: every row.
   */
  maxRows?: number;
}

export type ImportParser = (text: string, context: ParseContext) => ParsedImport;

/** A file the import cannot read at all (not CSV or JSON of the source's shape): a 400, no row imported. */
export class ImportFileUnreadable extends InvalidRequest {}
