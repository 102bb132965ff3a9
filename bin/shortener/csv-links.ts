import { ImportFileError, parseLinkRows as parseRows, type LinkRows } from '../../clients/csv-import/link-rows';
import { linkRequestSchema } from '../../functions/shared/domain/links/link-request';
import { SMART_FIELD_NAMES } from '../../functions/shared/domain/destinations/smart-link';

export { linkRequestOf } from '../../clients/csv-import/link-rows';

/** A stop the user must fix (a bad file, a missing setting): one line, exit code 2. */
export class UsageError extends Error {}

/** The columns are the fields of a link request, as the API parses them. */
export const LINK_COLUMNS = [...Object.keys(linkRequestSchema.shape), ...SMART_FIELD_NAMES];

/** The rows of an import file (the shared rules of clients/csv-import); a file it cannot read is a usage error. */
export function parseLinkRows(text: string, fileName: string): LinkRows {
  try {
    return parseRows(text, fileName, LINK_COLUMNS);
  } catch (error) {
    throw error instanceof ImportFileError ? new UsageError(error.message) : error;
  }
}
