import { ImportMessages } from '../messages';
import { ImportFileUnreadable, type ImportSource } from './import-record';
import { isObject } from './import-rows';

/**
 * The links of a JSON export that comes in pages: one page, a list of pages (the pages of a listing saved one after
 * the other and put in a list), or a bare list of links. `linksOf` finds a page's links; anything else is the file's
 * problem. Rows are numbered across pages, from 1; at most `maxRows` + 1 are kept (ParseContext).
 */
export function linksOfPages(value: unknown, source: ImportSource, expected: string, linksOf: (page: Record<string, unknown>) => unknown[] | undefined, maxRows?: number): Array<{ row: number; item: unknown }> {
  const pageLinks = (page: unknown): unknown[] | undefined => (isObject(page) ? linksOf(page) : undefined);
  let items: unknown[] | undefined;
  if (pageLinks(value) !== undefined) items = pageLinks(value);
  else if (Array.isArray(value) && value.length > 0 && value.every((page) => pageLinks(page) !== undefined)) items = value.flatMap((page) => pageLinks(page) ?? []);
  else if (Array.isArray(value)) items = value;
  if (items === undefined) throw new ImportFileUnreadable(ImportMessages.jsonShape(source, expected));
  return items.slice(0, maxRows === undefined ? undefined : maxRows + 1).map((item, index) => ({ row: index + 1, item }));
}
