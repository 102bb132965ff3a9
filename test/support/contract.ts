import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../functions/shared/http/openapi/document';
import { ResponseType } from 'aws-cdk-lib/aws-apigateway';
import { API_PATH_SEGMENTS } from '../../functions/shared/http/routes';
import { GATEWAY_ANSWERS, gatewayResponseTemplate } from '../../lib/gateway-responses';
import { BASE as DASHBOARD_BASE } from '../../web/dashboard/places';

/**
 * The contract test (issue 12): every answer the stack tests receive through `http` or `rawHttp` is checked
 * against the OpenAPI document the service serves. The status must be listed for the operation, the body must
 * match its schema, the headers it marks required must be there. Requests that reach no documented operation
 * must get the gateway's JSON 404; visitors' pages (GET, HEAD and POST of a short code, GET and HEAD of the root)
 * are not API operations.
 */
type Json = Record<string, unknown>;
interface DocumentedResponse {
  content?: Record<string, { schema?: Json }>;
  headers?: Record<string, Json>;
}

const document = openApiDocument('http://localhost') as { paths: Record<string, Record<string, { responses: Record<string, Json> }>>; components: Json };
const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);

/** Local `$ref`s (components.responses and headers) resolved against the document. */
function resolve<T>(node: Json): T {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node as T;
  return ref
    .slice(2)
    .split('/')
    .reduce<Json>((at, key) => at[key] as Json, document as unknown as Json) as T;
}

const validators = new Map<Json, ValidateFunction>();
function validatorOf(schema: Json): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
  return validate;
}

const templates = Object.keys(document.paths).map((template) => ({ template, segments: template.split('/') }));

/** The template API Gateway picks: a literal segment wins over a variable (`/v2/links/bulk` over `/v2/links/{code}`). */
function documentedPath(pathname: string): string | undefined {
  const segments = pathname.split('/');
  const variables = (candidate: { segments: string[] }) => candidate.segments.filter((part) => part.startsWith('{')).length;
  return templates
    .filter((candidate) => candidate.segments.length === segments.length && candidate.segments.every((part, index) => (part.startsWith('{') ? (segments[index] ?? '') !== '' : part === segments[index])))
    .sort((a, b) => variables(a) - variables(b))[0]?.template;
}

/** A short code (GET, HEAD, POST), or the root (GET, HEAD), which a customer domain redirects to its rootUrl. */
function isVisitorRequest(method: string, pathname: string): boolean {
  const segments = pathname.split('/');
  if (segments.length !== 2 || API_PATH_SEGMENTS.includes(segments[1] ?? '')) return false;
  return segments[1] === '' ? ['GET', 'HEAD'].includes(method) : ['GET', 'HEAD', 'POST'].includes(method);
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** What API Gateway answers for a route it does not have (gateway-responses.ts). */
const unknownRoute = GATEWAY_ANSWERS.find((answer) => answer.type === ResponseType.MISSING_AUTHENTICATION_TOKEN);
if (!unknownRoute) throw new Error('gateway-responses.ts no longer answers unknown routes');
const GATEWAY_NOT_FOUND = gatewayResponseTemplate(unknownRoute);

/** Throws when the answer is not one the document describes. */
export function assertDescribedByContract(method: string, requestPath: string, answer: Answer): void {
  // The local gateway reads the path the way API Gateway does: as a URL, dot segments resolved.
  const pathname = new URL(`http://localhost${requestPath.startsWith('/') ? requestPath : '/'}`).pathname;
  const template = documentedPath(pathname);
  const operation = template ? document.paths[template]?.[method.toLowerCase()] : undefined;
  const where = `${method} ${requestPath} → ${answer.status}`;
  if (!operation) {
    if (isVisitorRequest(method, pathname)) return;
    // The dashboard's pages are files of the static site, not operations of the API (its own tests hold them).
    if (pathname === DASHBOARD_BASE || pathname.startsWith(`${DASHBOARD_BASE}/`)) return;
    const expectedBody = method === 'HEAD' ? '' : GATEWAY_NOT_FOUND;
    if (answer.status !== 404 || answer.text !== expectedBody) throw new Error(`contract: ${where} reaches no documented operation, yet is not the gateway's 404: ${answer.text.slice(0, 200)}`);
    return;
  }
  const listed = operation.responses[String(answer.status)];
  if (!listed) throw new Error(`contract: ${where}: the document does not list ${answer.status} for ${method} ${template}: ${answer.text.slice(0, 200)}`);
  const response = resolve<DocumentedResponse>(listed);

  for (const [name, declared] of Object.entries(response.headers ?? {})) {
    if (resolve<{ required?: boolean }>(declared).required && answer.headers[name.toLowerCase()] === undefined) throw new Error(`contract: ${where} lacks the required header ${name}`);
  }

  const contentType = String(answer.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
  if (!response.content) {
    if (answer.text !== '') throw new Error(`contract: ${where} has a body, the document says none`);
    return;
  }
  const media = response.content[contentType];
  if (!media) throw new Error(`contract: ${where} is ${contentType || 'without a type'}; the document lists ${Object.keys(response.content).join(', ')}`);
  if (contentType !== 'application/json' || !media.schema) return;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new Error(`contract: ${where} is not JSON: ${answer.text.slice(0, 200)}`);
  }
  const validate = validatorOf(media.schema);
  if (!validate(body)) throw new Error(`contract: ${where} does not match the document: ${ajv.errorsText(validate.errors)} in ${answer.text.slice(0, 300)}`);
}
