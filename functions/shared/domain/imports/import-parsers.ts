import { parseBitly } from './bitly';
import { parseDub } from './dub';
import type { ImportParser, ImportSource } from './import-record';
import { parseKutt } from './kutt';
import { parseOwnCsv } from './own-csv';
import { parseRebrandly } from './rebrandly';
import { parseShlink } from './shlink';
import { parseShortio } from './shortio';
import { parseYourls } from './yourls';

/** Each source's reader of its export (docs/imports.md says what each keeps). */
export const IMPORT_PARSERS: Record<ImportSource, ImportParser> = {
  bitly: parseBitly,
  rebrandly: parseRebrandly,
  shortio: parseShortio,
  dub: parseDub,
  shlink: parseShlink,
  kutt: parseKutt,
  yourls: parseYourls,
  csv: parseOwnCsv,
};
