import type { APIGatewayProxyEvent } from 'aws-lambda';
import { listImports, previewImportOf, startImport, viewImport, type ImportDeps } from '../shared/domain/imports/import-management';
import { accountCaller } from '../shared/http/account-caller';
import { changeAuthor } from '../shared/http/change-author';
import { MAX_BODY_BYTES } from '../shared/http/body-limits';
import type { Operation } from '../shared/http/guarded-handler';
import { readJsonObject } from '../shared/http/json-body';
import { json } from '../shared/http/responses';

const id = (event: APIGatewayProxyEvent) => event.pathParameters?.id ?? '';

/** Each route of the function: parse, one domain call, the answer. Keyed by `${method} ${resource}`. */
export const OPERATIONS: Record<string, Operation<ImportDeps>> = {
  'POST /v2/imports': async (event, admission, deps) =>
    json(202, await startImport(readJsonObject(event, MAX_BODY_BYTES.import), { caller: accountCaller(admission), author: changeAuthor(accountCaller(admission), event), rateLimit: admission.rateLimit, nowMs: Date.now() }, deps)),
  'POST /v2/imports/preview': async (event, admission, deps) =>
    json(200, await previewImportOf(readJsonObject(event, MAX_BODY_BYTES.import), { caller: accountCaller(admission), nowMs: Date.now() }, deps)),
  'GET /v2/imports': async (_event, admission, deps) => json(200, await listImports({ caller: accountCaller(admission) }, deps)),
  'GET /v2/imports/{id}': async (event, admission, deps) => json(200, await viewImport(id(event), { caller: accountCaller(admission) }, deps)),
};
