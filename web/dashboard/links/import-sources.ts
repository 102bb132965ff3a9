import type { ImportSource } from '../../../functions/shared/domain/imports/import-record';

/** Each import source by name, as a link's page says where it came from. */
export const SOURCE_NAMES: Record<ImportSource, string> = {
  bitly: 'Bitly',
  rebrandly: 'Rebrandly',
  shortio: 'Short.io',
  dub: 'Dub',
  shlink: 'Shlink',
  kutt: 'Kutt',
  yourls: 'YOURLS',
  csv: 'a CSV file',
};

/** What each source's file is (docs/imports.md): the words the import wizard offers them in. */
export const SOURCE_FILES: Record<ImportSource, string> = {
  bitly: 'Bitly: its CSV export',
  rebrandly: 'Rebrandly: its CSV export',
  shortio: 'Short.io: its CSV export',
  dub: 'Dub: its CSV export',
  shlink: "Shlink: the web client's CSV export, or the API's JSON listing",
  kutt: 'Kutt: the /api/v2/links JSON pages',
  yourls: 'YOURLS: the yourls_url table as CSV',
  csv: "This service's own CSV columns",
};
