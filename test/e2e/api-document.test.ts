import { openApiDocument } from '../../functions/shared/http/openapi/document';
import { baseUrl, http } from '../support/local-stack';

/** Issue 12: the document and the reference page, served without a key. */
describe('GET /v2/openapi.json', () => {
  it('serves the document built from the schemas, naming this server, to anyone', async () => {
    const response = await http('GET', '/v2/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument(baseUrl()))));
  });
});

describe('GET /docs', () => {
  it('serves one self-contained page under a policy that allows no other host', async () => {
    const response = await http('GET', '/docs');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toMatch(/https?:/);
    expect(response.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    expect(response.text).toContain('"operationId":"createLink"');
  });
});
