import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { referencePage, serverUrlOf } from '../../../functions/shared/http/openapi/reference-page';

const hashOf = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
const scripts = (html: string) => [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');

describe('the API reference page', () => {
  it('holds both scripts, and its policy allows exactly those two and no other host', () => {
    const page = referencePage({ openapi: '3.1.0' }, 'window.Redoc = {};');
    const found = scripts(page.body);
    expect(found).toHaveLength(2);
    const policy = page.headers['content-security-policy'] ?? '';
    for (const script of found) expect(policy).toContain(hashOf(script));
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toMatch(/https?:/);
  });

  it('cannot be broken out of by text in the document', () => {
    const page = referencePage({ description: '</script><script>alert(1)</script>' }, '');
    expect(scripts(page.body)).toHaveLength(2);
    expect(page.body).not.toContain('<script>alert(1)');
  });
});

const event = (headers: Record<string, string>, path: string, contextPath: string) =>
  ({ headers, path, requestContext: { path: contextPath, domainName: 'fallback.test' } }) as unknown as APIGatewayProxyEvent;

describe('serverUrlOf', () => {
  it('keeps the stage of an execute-api URL', () => {
    expect(serverUrlOf(event({ Host: 'abc.execute-api.eu-west-1.amazonaws.com', 'X-Forwarded-Proto': 'https' }, '/v2/openapi.json', '/prod/v2/openapi.json'))).toBe(
      'https://abc.execute-api.eu-west-1.amazonaws.com/prod',
    );
  });

  it('has no prefix when the path is the route itself', () => {
    expect(serverUrlOf(event({ host: 'localhost:3000', 'x-forwarded-proto': 'http' }, '/docs', '/docs'))).toBe('http://localhost:3000');
  });
});
