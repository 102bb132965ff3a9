import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { LocalStaticSite } from '../../../bin/local/static-site';
import { responseHeadersOf } from '../../../bin/local/template';
import { dashboardApiPathsCode, dashboardPagesCode } from '../../../lib/dashboard';

/** A response that keeps what the site wrote. */
function recorder() {
  const written: { status?: number; headers?: Record<string, unknown>; body?: string } = {};
  const response = {
    writeHead(status: number, headers: Record<string, unknown>) {
      written.status = status;
      written.headers = headers;
    },
    end(body?: Buffer | string) {
      written.body = body === undefined ? '' : body.toString();
    },
  };
  return { response: response as never, written };
}

const root = mkdtempSync(path.join(tmpdir(), 'static-site-'));
const filesDir = path.join(root, 'asset.abc');
mkdirSync(path.join(filesDir, 'assets'), { recursive: true });
writeFileSync(path.join(filesDir, 'index.html'), '<!doctype html><title>page</title>');
writeFileSync(path.join(filesDir, 'assets', 'main-X.js'), 'console.log(1)');
writeFileSync(path.join(root, 'secret.txt'), 'not served');

const site = new LocalStaticSite({
  filesDir,
  keyPrefix: 'app/',
  api: { viewerRequestCode: dashboardApiPathsCode(), originHeaders: [] },
  behaviors: [
    { pathPattern: '/app/assets/*', viewerRequestCode: dashboardPagesCode(), headers: { 'cache-control': 'immutable' } },
    { pathPattern: '/app', viewerRequestCode: dashboardPagesCode(), headers: { 'cache-control': 'no-cache' } },
    { pathPattern: '/app/*', viewerRequestCode: dashboardPagesCode(), headers: { 'cache-control': 'no-cache', 'content-security-policy': "default-src 'none'" } },
  ],
});

describe('the local static site (the dashboard\'s CloudFront behaviors)', () => {
  it('answers pages with index.html and the behavior\'s headers, files by path with their type', () => {
    for (const pathname of ['/app', '/app/', '/app/links/abc']) {
      const { response, written } = recorder();
      expect(site.serve('GET', pathname, response)).toBe(true);
      expect(written).toMatchObject({ status: 200, body: '<!doctype html><title>page</title>', headers: { 'content-type': 'text/html', 'cache-control': 'no-cache' } });
    }
    const { response, written } = recorder();
    site.serve('GET', '/app/assets/main-X.js', response);
    expect(written).toMatchObject({ status: 200, body: 'console.log(1)', headers: { 'content-type': 'text/javascript', 'cache-control': 'immutable' } });
  });

  it('leaves other paths to the API, even ones that start with the same letters', () => {
    for (const pathname of ['/apple', '/v2/links', '/', '/appx/index.html']) expect(site.serve('GET', pathname, recorder().response)).toBe(false);
  });

  it('answers a missing file or a path out of the folder 403, as S3 does to a reader that may not list', () => {
    for (const pathname of ['/app/assets/nope.js', '/app/assets/../../secret.txt', '/app/assets/..%2f..%2fsecret.txt']) {
      const { response, written } = recorder();
      site.serve('GET', pathname, response);
      expect(written.status).toBe(403);
      expect(written.body).toContain('AccessDenied');
    }
  });

  it('refuses methods other than GET and HEAD; HEAD has no body', () => {
    const post = recorder();
    site.serve('POST', '/app/', post.response);
    expect(post.written.status).toBe(403);
    const head = recorder();
    site.serve('HEAD', '/app/', head.response);
    expect(head.written).toMatchObject({ status: 200, body: '' });
  });
});

describe('the local dashboard distribution\'s API behavior (issue 27)', () => {
  const edge = new LocalStaticSite(
    { filesDir, keyPrefix: 'app/', behaviors: [], api: { viewerRequestCode: dashboardApiPathsCode(), originHeaders: [] } },
    { 'x-origin-verify': 'the-secret' },
  );

  it.each(['dashboard.localhost:3000', 'DASHBOARD.localhost', 'dashboard.localhost'])('plays the distribution on %s', (host) => {
    expect(edge.servesHost(host)).toBe(true);
  });

  it.each(['localhost:3000', '127.0.0.1:3000', 'go.acme.com', 'dashboard.localhost.evil.example', undefined])('leaves %s to the other hosts', (host) => {
    expect(edge.servesHost(host)).toBe(false);
  });

  it('passes an API route on with the viewer\'s address and the origin secret, whatever the viewer claimed', () => {
    const claimed = { Host: 'dashboard.localhost:3000', 'CloudFront-Viewer-Address': '203.0.113.9:1', 'CloudFront-Viewer-Country': 'KP', 'X-Origin-Verify': 'a guess' };
    expect(edge.toApi('POST', '/v1/shorten', claimed, '127.0.0.5:40000')).toEqual({
      headers: { host: 'dashboard.localhost:3000', 'cloudfront-viewer-address': '127.0.0.5:40000', 'x-origin-verify': 'the-secret' },
    });
  });

  it('answers a short code 404 at the edge, in the API\'s words, before the API sees it', () => {
    expect(edge.toApi('GET', '/abc1234', {}, '127.0.0.1:1')).toEqual({
      response: { statusCode: 404, headers: expect.objectContaining({ 'content-type': 'application/json', 'cache-control': 'no-store' }), body: '{"statusCode":404,"message":"Not Found","error":"Not Found"}' },
    });
  });
});

describe('responseHeadersOf (a CloudFront response headers policy)', () => {
  it('writes the security headers and custom headers as CloudFront sends them', () => {
    expect(
      responseHeadersOf({
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: "default-src 'self'" },
          ContentTypeOptions: {},
          FrameOptions: { FrameOption: 'DENY' },
          ReferrerPolicy: { ReferrerPolicy: 'no-referrer' },
          StrictTransportSecurity: { AccessControlMaxAgeSec: 600, IncludeSubdomains: true },
        },
        CustomHeadersConfig: { Items: [{ Header: 'Cache-Control', Value: 'no-cache' }] },
      }),
    ).toEqual({
      'content-security-policy': "default-src 'self'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=600; includeSubDomains',
      'cache-control': 'no-cache',
    });
    expect(responseHeadersOf(undefined)).toEqual({});
  });

  it('plays the deployment\'s sign-in settings with the local provider: config.json, and its origin in connect-src (issue 29)', () => {
    const signIn = {
      config: { issuer: 'http://localhost:9229/UserPool', clientId: 'Client', redirectUri: 'http://dashboard.localhost:3000/app/signed-in', signOutRedirectUri: 'http://dashboard.localhost:3000/app/' },
      providerOrigins: ['http://localhost:9229'],
    };
    const cognitoPolicy = "default-src 'none'; connect-src 'self' https://cognito-idp.eu-west-1.amazonaws.com https://pool.auth.eu-west-1.amazoncognito.com; frame-ancestors 'none'";
    const withSignIn = new LocalStaticSite(
      { filesDir, keyPrefix: 'app/', api: { originHeaders: [] }, behaviors: [{ pathPattern: '/app/*', viewerRequestCode: dashboardPagesCode(), headers: { 'content-security-policy': cognitoPolicy } }] },
      {},
      signIn,
    );
    const { response, written } = recorder();
    expect(withSignIn.serve('GET', '/app/config.json', response)).toBe(true);
    expect(written).toMatchObject({ status: 200, headers: { 'content-type': 'application/json', 'content-security-policy': "default-src 'none'; connect-src 'self' http://localhost:9229; frame-ancestors 'none'" } });
    expect(JSON.parse(written.body ?? '')).toEqual(signIn.config);
    // Without a provider there is no such file, as in a bucket the deployment did not fill.
    const missing = recorder();
    site.serve('GET', '/app/config.json', missing.response);
    expect(missing.written.status).toBe(403);
  });
});
