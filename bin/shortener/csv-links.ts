import { ImportFileError, parseLinkRows as parseRows, type LinkRows } from '../../clients/csv-import/link-rows';

export { linkRequestOf } from '../../clients/csv-import/link-rows';

/** A stop the user must fix (a bad file, a missing setting): one line, exit code 2. */
export class UsageError extends Error {}

/** The rows of an import file (the shared rules of clients/csv-import); a file it cannot read is a usage error. */
export function parseLinkRows(text: string, fileName: string): LinkRows {
  try {
    return parseRows(text, fileName);
  } catch (error) {
    throw error instanceof ImportFileError ? new UsageError(error.message) : error;
  }
}
