import { ALIAS_MAX_LENGTH } from '../../../functions/shared/domain/links/aliases';
import { MAX_BATCH_ITEMS } from '../../../functions/shared/domain/links/batch-request';
import { MAX_CLICKS_LIMIT } from '../../../functions/shared/domain/links/link-request';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../functions/shared/domain/links/password';
import { LIST_LIMIT } from '../../../functions/shared/domain/request-parsing';
import { Messages, OwnMessages } from '../../../functions/shared/domain/messages';
import { openApiDocument } from '../../../functions/shared/http/openapi/document';
import { permissionFor, ROUTES } from '../../../functions/shared/http/routes';
import { PEOPLE_POWERS, ROLES, roleAllows, SCOPES, needsMembership } from '../../../functions/shared/domain/accounts/permissions';
import { DESTINATION_LABEL_PATTERN, MAX_RULES, OPERATING_SYSTEMS, VARIANT_COUNT } from '../../../functions/shared/domain/destinations/smart-link';

/** Issue 12: the document describes every API route, and its facts come from where the handlers get theirs. */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const document = openApiDocument('https://api.test/prod') as Json;
const responses = document.components.responses as Json;
const operation = (method: string, path: string): Json => document.paths[path][method];
const jsonSchemaOf = (response: Json) => response.content['application/json'].schema;

describe('the OpenAPI document', () => {
  it('describes exactly the API routes (the redirect is a visitor page, not an API operation)', () => {
    const routes = ROUTES.filter((route) => route.target !== 'redirect').flatMap((route) => route.methods.map((method) => `${method.toLowerCase()} ${route.path}`));
    const described = Object.entries(document.paths as Json).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
    expect(described.sort()).toEqual(routes.sort());
  });

  it('is OpenAPI 3.1 with bearer authentication on the keyed routes only', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'https://api.test/prod', description: 'This deployment' }]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const route of ROUTES.filter((candidate) => candidate.target !== 'redirect')) {
      for (const method of route.methods) {
        expect([route.path, operation(method.toLowerCase(), route.path).security]).toEqual([route.path, route.apiKey ? [{ bearerAuth: [] }] : []]);
      }
    }
  });

  it('takes its limits from the request schemas', () => {
    const single = operation('post', '/v2/shorten').requestBody.content['application/json'].schema;
    expect(single.required).toEqual(['url']);
    expect(single.properties.alias.anyOf[0].maxLength).toBe(ALIAS_MAX_LENGTH);
    expect(single.properties.password.anyOf[0]).toMatchObject({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });
    expect(single.properties.maxClicks.anyOf[0].maximum).toBe(MAX_CLICKS_LIMIT);
    const batch = operation('post', '/v2/shorten/batch').requestBody.content['application/json'].schema;
    expect(batch.properties.urls).toMatchObject({ minItems: 1, maxItems: MAX_BATCH_ITEMS, items: single });
    const limit = operation('get', '/v2/links').parameters.find((parameter: Json) => parameter.name === 'limit');
    expect(limit.schema).toEqual({ type: 'integer', minimum: LIST_LIMIT.min, maximum: LIST_LIMIT.max });
  });

  it('describes the smart-link fields (issue 18) from their own schemas: on creation, batch items, edits, views and stats', () => {
    const single = operation('post', '/v2/shorten').requestBody.content['application/json'].schema;
    const rules = single.properties.rules.anyOf[0];
    expect(rules).toMatchObject({ type: 'array', minItems: 1, maxItems: MAX_RULES });
    expect(rules.items.properties.when.properties.os.items.enum).toEqual([...OPERATING_SYSTEMS]);
    expect(rules.items.properties.when.additionalProperties).toBe(false);
    expect(single.properties.variants.anyOf[0]).toMatchObject({ minItems: VARIANT_COUNT.min, maxItems: VARIANT_COUNT.max });
    expect(Object.keys(single.properties)).toEqual(expect.arrayContaining(['forwardQuery', 'utm', 'expiredUrl']));
    const patch = operation('patch', '/v2/links/{code}').requestBody.content['application/json'].schema;
    expect(Object.keys(patch.properties)).toEqual(expect.arrayContaining(['rules', 'variants', 'forwardQuery', 'utm', 'expiredUrl']));
    const view = jsonSchemaOf(operation('get', '/v2/links/{code}').responses['200']);
    expect(Object.keys(view.properties)).toEqual(expect.arrayContaining(['rules', 'variants', 'forwardQuery', 'utm', 'expiredUrl']));
    const stats = jsonSchemaOf(operation('get', '/v2/links/{code}/stats').responses['200']);
    expect(stats.properties.destinations.propertyNames.pattern).toBe(DESTINATION_LABEL_PATTERN.source);
  });

  it("takes its messages from the message table: the spec's 401, 429 and 503 strings exactly", () => {
    expect(jsonSchemaOf(responses.Unauthorized).properties.message.enum).toEqual([Messages.apiKeyRequired, Messages.apiKeyInvalid]);
    expect(jsonSchemaOf(responses.TooManyRequests).oneOf[0].properties.message.const).toBe(Messages.rateLimited);
    expect(jsonSchemaOf(responses.ServiceUnavailable).properties.message.enum).toContain(Messages.maintenance);
    expect(jsonSchemaOf(responses.IdempotencyKeyReused).properties.message.enum).toEqual([OwnMessages.idempotencyKeyReused]);
    expect(jsonSchemaOf(responses.Conflict).properties.message.enum).toContain(OwnMessages.idempotencyKeyInProgress);
    for (const message of [Messages.invalidUrl, Messages.batchTooLarge, Messages.aliasTaken]) expect(responses.BadRequest.description).toContain(`- ${message}`);
  });

  it("gives the spec's 400 and 403 shapes exactly", () => {
    const badRequest = jsonSchemaOf(responses.BadRequest).anyOf[0];
    expect(Object.keys(badRequest.properties)).toEqual(['statusCode', 'timestamp', 'path', 'method', 'message']);
    expect(badRequest.additionalProperties).toBe(false);
    const [notPermitted, planRequired] = jsonSchemaOf(responses.Forbidden).anyOf;
    expect(planRequired.required).toEqual(['statusCode', 'message', 'error', 'feature', 'currentPlan', 'upgradeUrl']);
    expect(notPermitted.required).toEqual(['statusCode', 'message', 'error', 'permission']);
    expect(notPermitted.properties.permission.enum).toEqual([...SCOPES, ...PEOPLE_POWERS]);
    const quota = jsonSchemaOf(responses.TooManyRequests).oneOf[1];
    expect(quota.required).toEqual(['statusCode', 'message', 'limit', 'resetDate', 'upgradeUrl']);
  });

  it('lists the rate-limit headers on guarded answers, Retry-After on 503, and the Idempotency-Key on creations', () => {
    const created = operation('post', '/v2/shorten').responses['201'];
    expect(Object.keys(created.headers)).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Idempotent-Replayed']);
    expect(responses.ServiceUnavailable.headers['Retry-After']).toEqual({ $ref: '#/components/headers/RetryAfter' });
    for (const path of ['/v2/shorten', '/v2/shorten/batch', '/v1/shorten', '/v1/shorten/batch']) {
      expect(operation('post', path).parameters.map((parameter: Json) => parameter.name)).toContain('Idempotency-Key');
    }
    expect(operation('get', '/health').responses['200'].headers).toBeUndefined();
  });

  it('states each guarded operation\'s permission from routes.ts, who holds it from the permission table, and its 403', () => {
    const operations = ROUTES.filter((candidate) => candidate.target !== 'redirect').flatMap((route) => route.methods.map((method) => ({ method, path: route.path, permission: permissionFor(route.path, method) })));
    for (const { method, path, permission } of operations) expect([path, method, operation(method.toLowerCase(), path)['x-permission']]).toEqual([path, method, permission]);
    const open = operations.filter((candidate) => candidate.permission === undefined);
    expect(open.map(({ method, path }) => `${method} ${path}`)).toEqual(expect.arrayContaining(['POST /v1/shorten', 'GET /health']));
    for (const { method, path } of open) expect(operation(method.toLowerCase(), path).description).not.toContain('Permission:');
    for (const { method, path, permission = 'links:read' } of operations.filter((candidate) => candidate.permission !== undefined)) {
      const described = operation(method.toLowerCase(), path);
      expect(described.responses['403']).toEqual({ $ref: '#/components/responses/Forbidden' });
      expect(described.description).toContain(`Permission: \`${permission}\``);
      expect(described.description).toContain(needsMembership(permission) ? `role is ${ROLES.filter((role) => roleAllows(role, permission)).join(', ')}` : 'any signed-in person');
    }
    expect(operation('post', '/v2/keys').description).toContain('API keys are refused');
    expect(operation('post', '/v2/shorten')['x-permission']).toBe('links:write');
  });

  it('describes the keys routes: the request from the schema the handler parses, the secret only in the creation\'s answer', () => {
    const body = operation('post', '/v2/keys').requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['name', 'scopes']);
    expect(body.properties.scopes).toMatchObject({ type: 'array', minItems: 1, maxItems: SCOPES.length, items: { enum: [...SCOPES] } });
    expect(jsonSchemaOf(operation('post', '/v2/keys').responses['201']).required).toContain('secret');
    const listed = jsonSchemaOf(operation('get', '/v2/keys').responses['200']).properties.keys.items;
    expect(Object.keys(listed.properties)).not.toContain('secret');
    expect(Object.keys(listed.properties)).not.toContain('keyHash');
    expect(operation('delete', '/v2/keys/{id}').parameters[0].description).toContain('key_');
  });
});
