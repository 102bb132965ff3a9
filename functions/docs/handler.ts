import type { APIGatewayProxyEvent } from 'aws-lambda';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BESIDE_THE_BUNDLE } from '../shared/config';
import { openApiDocument } from '../shared/http/openapi/document';
import { referencePage, serverUrlOf } from '../shared/http/openapi/reference-page';
import { json, type HttpResponse } from '../shared/http/responses';

/**
 * Redoc's standalone bundle, copied beside the handler at bundling time (see service-stack.ts). Its menu footer
 * loads Redocly's logo from their CDN: with an empty source the image fails and Redoc leaves it out, so the page
 * asks no other host for anything.
 */
const REDOCLY_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
let redocScript: string | undefined;
/** Read with the first page request: the document's own requests never load the 1 MB script. */
const redoc = () => (redocScript ??= readFileSync(path.join(process.env.LAMBDA_TASK_ROOT ?? '.', BESIDE_THE_BUNDLE.redoc), 'utf8').replaceAll(REDOCLY_LOGO, ''));

/** Built once per container (every request names the same server); a different one replaces it. */
let built: { serverUrl: string; document: unknown } | undefined;

function documentFor(serverUrl: string): unknown {
  if (built?.serverUrl !== serverUrl) built = { serverUrl, document: openApiDocument(serverUrl) };
  return built.document;
}

/**
 * GET /v2/openapi.json and GET /docs: open to everyone and the same for everyone, so caches may keep them. An
 * unexpected failure reaches API Gateway, whose 5XX answer is the redacted 500 body.
 */
export async function handler(event: APIGatewayProxyEvent): Promise<HttpResponse> {
  const document = documentFor(serverUrlOf(event));
  if (event.resource === '/docs') return referencePage(document, redoc());
  return json(200, document, { 'cache-control': 'public, max-age=300' });
}
