import { parse } from 'csv-parse/sync';
import { ImportMessages } from '../messages';
import { ImportFileUnreadable, type ImportSource, type RowProblem } from './import-record';

/**
 * A header's name as the peers vary it: `Long URL`, `long_url` and `longUrl` are one column. Case, spaces,
 * underscores, hyphens and dots do not count.
 */
export const headerKey = (name: string): string => name.toLowerCase().replace(/[\s_.-]+/g, '');

/** For each field a parser reads, the headers it may go by in the peer's exports, in order of preference. */
export type ColumnNames<Field extends string> = Record<Field, readonly string[]>;

/** A row by field: `undefined` when the file has no column for it. */
export type CsvRow<Field extends string> = { row: number; cell: (field: Field) => string | undefined };

export interface CsvTable<Field extends string> {
  rows: Array<CsvRow<Field>>;
  problems: RowProblem[];
}

/**
 * A spreadsheet saved in a comma-decimal locale separates with `;`, some tools with a tab: the header line says which,
 * as a header holds no separator of its own. Only the header decides, so a `;` inside a comma file's cells stays text.
 */
function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/\r|\n|$/));
  if (header.includes(',')) return ',';
  if (header.includes('\t')) return '\t';
  return header.includes(';') ? ';' : ',';
}

/**
 * The rows of a peer's CSV export, RFC 4180 (quoted commas, quotes and line breaks; a BOM and CRLF ignored; a quote
 * inside an unquoted cell taken as text, as hand-edited files have them), read by the header names in `columns`.
 * A row whose cell count differs from the header's is that row's problem; a quote never closed, or no column for a
 * `required` field, is the file's. At most `maxRows` + 1 rows are read (ParseContext).
 */
export function readCsvTable<Field extends string>(text: string, source: ImportSource, columns: ColumnNames<Field>, required: ReadonlyArray<NoInfer<Field> | ReadonlyArray<NoInfer<Field>>>, maxRows?: number): CsvTable<Field> {
  let records: string[][];
  // `to` counts the header: csv-parse stops there, before it builds an error object for each short row of the rest.
  const stop = maxRows === undefined ? {} : { to: maxRows + 2 };
  try {
    records = parse(text, { bom: true, delimiter: delimiterOf(text.replace(/^\ufeff/, '')), relax_column_count: true, relax_quotes: true, skip_empty_lines: true, ...stop }) as string[][];
  } catch (error) {
    throw new ImportFileUnreadable(ImportMessages.notCsv(source, (error as Error).message));
  }
  const [header = [], ...body] = records;
  const keys = header.map((name) => headerKey(name));
  const positions = new Map<Field, number>();
  for (const field of Object.keys(columns) as Field[]) {
    const position = columns[field].map((name) => keys.indexOf(headerKey(name))).find((index) => index >= 0);
    if (position !== undefined) positions.set(field, position);
  }
  // An entry that is a list is met by any one of its fields (a slug column, or a short URL to take it from).
  for (const entry of required) {
    const fields: readonly Field[] = typeof entry === 'string' ? [entry] : entry;
    if (!fields.some((field) => positions.has(field))) {
      throw new ImportFileUnreadable(ImportMessages.columnMissing(source, fields[0] as string, fields.flatMap((field) => columns[field])));
    }
  }
  const table: CsvTable<Field> = { rows: [], problems: [] };
  body.forEach((cells, index) => {
    const row = index + 1;
    if (cells.length !== header.length) {
      table.problems.push({ row, reason: ImportMessages.cellCount(cells.length, header.length) });
      return;
    }
    table.rows.push({ row, cell: (field) => { const at = positions.get(field); return at === undefined ? undefined : cells[at]; } });
  });
  return table;
}
