import { parse } from 'csv-parse/sync';

/**
 * The columns an import file may have, in the order they are named to the user: the fields of a link request
 * (a unit test holds this list to the API's schema).
 */
export const LINK_COLUMNS = ['url', 'alias', 'password', 'expiresIn', 'maxClicks', 'domain', 'tags', 'rules', 'variants', 'forwardQuery', 'utm', 'expiredUrl'] as const;

/** A file the import cannot read: its message names the file and what is wrong, in one line. */
export class ImportFileError extends Error {}

export interface LinkRows {
  columns: string[];
  rows: Array<Record<string, string>>;
}

/**
 * The rows of an import file: a header row naming at least `url`, quoted fields allowed, a BOM ignored.
 */
export function parseLinkRows(text: string, fileName: string): LinkRows {
  let columns: string[] = [];
  let rows: Array<Record<string, string>>;
  try {
    rows = parse(text, {
      bom: true,
      columns: (header: string[]) => (columns = header.map((name) => name.trim())),
      skip_empty_lines: true,
    }) as Array<Record<string, string>>;
  } catch (error) {
    throw new ImportFileError(`${fileName} is not a CSV file this command can read: ${(error as Error).message}`);
  }
  if (!columns.includes('url')) {
    throw new ImportFileError(`${fileName} has no url column: its header row must name the columns (${LINK_COLUMNS.join(',')}), url at least`);
  }
  return { columns, rows };
}

/** Whole numbers become numbers; anything else is sent as written, for the API to say what is wrong with it. */
const numberOrText = (value: string): number | string => (/^-?\d{1,16}$/.test(value.trim()) ? Number(value) : value);

/** A JSON cell (rules, variants, utm) as its value; anything that is not JSON is sent as written. */
function jsonOrText(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** `true`/`false` in any case become booleans; anything else is sent as written. */
const booleanOrText = (value: string): boolean | string => (/^(true|false)$/i.test(value.trim()) ? value.trim().toLowerCase() === 'true' : value);

/** One row as a link request: empty cells are fields not set. */
export function linkRequestOf(row: Record<string, string>): Record<string, unknown> {
  const request: Record<string, unknown> = { url: row.url ?? '' };
  for (const field of ['alias', 'password', 'domain', 'expiredUrl'] as const) if (row[field]) request[field] = row[field];
  for (const field of ['expiresIn', 'maxClicks'] as const) if (row[field]?.trim()) request[field] = numberOrText(row[field]);
  for (const field of ['rules', 'variants', 'utm'] as const) if (row[field]?.trim()) request[field] = jsonOrText(row[field]);
  if (row.forwardQuery?.trim()) request.forwardQuery = booleanOrText(row.forwardQuery);
  // Tags in one cell, separated by commas or spaces: `spring, promo`.
  if (row.tags?.trim()) request.tags = row.tags.split(/[\s,]+/).filter(Boolean);
  return request;
}
