import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import { openApiDocument } from '../functions/shared/http/openapi/document';

/**
 * Writes the OpenAPI document the service serves at /v2/openapi.json, for the linter and the client's type
 * generation (`npm run openapi -- --out file`). Without --out it goes to stdout.
 */
const options = new Command('openapi')
  .option('--server <url>', 'the server URL the document names', 'http://localhost:3000')
  .option('--out <file>', 'where to write it')
  .parse()
  .opts<{ server: string; out?: string }>();

const text = `${JSON.stringify(openApiDocument(options.server), null, 2)}\n`;
if (options.out) {
  mkdirSync(path.dirname(options.out), { recursive: true });
  writeFileSync(options.out, text);
} else {
  process.stdout.write(text);
}
