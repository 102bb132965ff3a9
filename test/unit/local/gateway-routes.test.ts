import { compileRoutes, matchRoute } from '../../../bin/local/gateway';
import type { RouteSpec } from '../../../bin/local/template';

const route = (method: string, resourcePath: string): RouteSpec => ({ method, resourcePath, integration: { kind: 'mock', statusCode: 200, body: '' } });
const routes = compileRoutes([route('GET', '/{code}'), route('POST', '/{code}'), route('GET', '/health'), route('GET', '/v2/links/{code}'), route('GET', '/v2/links/{code}/qr')]);

describe("the local gateway's route matching", () => {
  it('prefers a static segment over a {parameter}, as API Gateway does', () => {
    expect(matchRoute(routes, 'GET', '/health')).toEqual({ route: routes[2]?.route, pathParameters: null });
    expect(matchRoute(routes, 'GET', '/abc123')).toEqual({ route: routes[0]?.route, pathParameters: { code: 'abc123' } });
    expect(matchRoute(routes, 'GET', '/v2/links/abc/qr')).toEqual({ route: routes[4]?.route, pathParameters: { code: 'abc' } });
  });

  it('answers method-not-allowed on a known resource, nothing on an unknown one or an empty parameter', () => {
    expect(matchRoute(routes, 'POST', '/health')).toBe('methodNotAllowed');
    expect(matchRoute(routes, 'GET', '/v2/links')).toBeUndefined();
    expect(matchRoute(routes, 'GET', '/v2/links/')).toBeUndefined();
  });

  it('decodes parameters, passing a malformed escape on as it came', () => {
    expect(matchRoute(routes, 'GET', '/caf%C3%A9')).toMatchObject({ pathParameters: { code: 'café' } });
    expect(matchRoute(routes, 'GET', '/%ff%fe')).toMatchObject({ pathParameters: { code: '%ff%fe' } });
  });
});
