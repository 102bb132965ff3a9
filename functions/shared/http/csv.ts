import type { HttpResponse } from './responses';
import { HSTS_HEADER } from './headers';

/** A spreadsheet would run a cell starting with one of these as a formula: such a cell gets a leading apostrophe. */
export const spreadsheetSafeCell = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** RFC 4180: quoted when it holds a comma, quote or line break; a would-be formula made safe. */
function cell(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : spreadsheetSafeCell(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 text: a header row, then the rows, CRLF line ends. */
export function csvText(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** A CSV download: a header row, CRLF line ends, UTF-8, never cached, named for the browser's save dialog. */
export function csvDownload(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>, filename: string): HttpResponse {
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...HSTS_HEADER,
    },
    body: csvText(header, rows),
  };
}
