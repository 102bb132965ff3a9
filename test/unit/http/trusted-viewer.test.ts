import type { APIGatewayProxyEvent } from 'aws-lambda';
import { clickOf } from '../../../functions/shared/http/click-report';
import { CSRF_COOKIE } from '../../../functions/shared/http/csrf';
import { callerFrom } from '../../../functions/shared/http/request-info';
import { DependencyUnavailable } from '../../../functions/shared/domain/errors';
import { ORIGIN_VERIFY_HEADER, trustedViewerCountry, trustedViewerHost, VIEWER_HOST_HEADER, type OriginSecrets } from '../../../functions/shared/http/trusted-viewer';
import { readVisitorRequest } from '../../../functions/shared/http/visitor-request';

/**
 * Issue 27: what CloudFront says about the viewer (its country, its address) is believed only beside the origin
 * secret; anyone can send those headers straight to the API's own URL.
 */

const SECRET = 'the-origin-secret';
const secrets: OriginSecrets = async () => [SECRET];
const keyClient = async (address: string) => `key(${address})`;

function event(headers: Record<string, string>, fields: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    httpMethod: 'GET',
    path: '/abc1234',
    resource: '/{code}',
    pathParameters: { code: 'abc1234' },
    headers,
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { identity: { sourceIp: '192.0.2.9' } },
    ...fields,
  } as unknown as APIGatewayProxyEvent;
}

const redirect = { kind: 'redirect', url: 'https://example.com/', cacheable: true, counted: false, destination: 'default', perVisitor: false } as const;

describe('the viewer\'s country', () => {
  it('is believed beside the origin secret, under no other value, and not when the secret cannot be read', async () => {
    expect(await trustedViewerCountry(event({ 'cloudfront-viewer-country': 'DE', [ORIGIN_VERIFY_HEADER]: SECRET }), secrets)).toBe('DE');
    expect(await trustedViewerCountry(event({ 'CloudFront-Viewer-Country': 'DE' }), secrets)).toBeUndefined();
    expect(await trustedViewerCountry(event({ 'cloudfront-viewer-country': 'DE', [ORIGIN_VERIFY_HEADER]: 'a guess' }), secrets)).toBeUndefined();
    expect(await trustedViewerCountry(event({ 'cloudfront-viewer-country': 'DE', [ORIGIN_VERIFY_HEADER]: SECRET }), () => Promise.reject(new Error('SSM down')))).toBeUndefined();
  });

  it('forged without the secret, chooses no smart link\'s destination and writes no country into the stats', async () => {
    const forged = event({ 'cloudfront-viewer-country': 'KP' });
    const request = await readVisitorRequest(forged, secrets, keyClient);
    expect(request.visit.signals.country).toBeUndefined();
    expect(clickOf(redirect, request, forged, 0)?.country).toBe('unknown');

    const vouched = event({ 'cloudfront-viewer-country': 'de', [ORIGIN_VERIFY_HEADER]: SECRET });
    const trusted = await readVisitorRequest(vouched, secrets, keyClient);
    expect(trusted.visit.signals.country).toBe('de');
    expect(clickOf(redirect, trusted, vouched, 0)?.country).toBe('DE');
  });

  it('costs a visit without the header no secret read, and one with host, country and a password one comparison', async () => {
    let reads = 0;
    const counting: OriginSecrets = async () => {
      reads += 1;
      return [SECRET];
    };
    await readVisitorRequest(event({ 'user-agent': 'curl/8' }), counting, keyClient);
    expect(reads).toBe(0);
    const form = event(
      { 'cloudfront-viewer-country': 'DE', 'cloudfront-viewer-address': '198.51.100.4:443', 'x-viewer-host': 'go.acme.com', [ORIGIN_VERIFY_HEADER]: SECRET, 'content-type': 'application/x-www-form-urlencoded', cookie: `${CSRF_COOKIE}=t` },
      { httpMethod: 'POST', body: 'password=p&csrf=t' },
    );
    const request = await readVisitorRequest(form, counting, keyClient);
    expect(reads).toBe(1);
    expect(request.visit).toMatchObject({ host: 'go.acme.com', client: 'key(198.51.100.4)', signals: { country: 'DE' } });
  });
});

describe('the customer domain a visit names', () => {
  const unreadable: OriginSecrets = () => Promise.reject(new Error('SSM down'));

  it('is believed beside the origin secret; a request without the header is on the shared domain', async () => {
    expect(await trustedViewerHost(event({ [VIEWER_HOST_HEADER]: 'Go.Acme.com:443', [ORIGIN_VERIFY_HEADER]: SECRET }), secrets)).toBe('go.acme.com');
    expect(await trustedViewerHost(event({}), unreadable)).toBeUndefined();
  });

  it('never falls back to the shared domain, whose codes anyone can claim: forged or empty, it is on no domain', async () => {
    expect(await trustedViewerHost(event({ [VIEWER_HOST_HEADER]: 'go.acme.com' }), secrets)).toBe('');
    expect(await trustedViewerHost(event({ [VIEWER_HOST_HEADER]: 'go.acme.com', [ORIGIN_VERIFY_HEADER]: 'a guess' }), secrets)).toBe('');
    expect(await trustedViewerHost(event({ [VIEWER_HOST_HEADER]: '', [ORIGIN_VERIFY_HEADER]: SECRET }), secrets)).toBe('');
    // A rotation gone wrong (CloudFront sending a value that is neither current nor previous) is a wrong secret too.
    expect((await readVisitorRequest(event({ [VIEWER_HOST_HEADER]: 'go.acme.com', [ORIGIN_VERIFY_HEADER]: 'old-secret' }), secrets, keyClient)).visit.host).toBe('');
  });

  it('is an outage when the secret cannot be read: the visit fails (503), it is never served a shared link', async () => {
    const visit = event({ [VIEWER_HOST_HEADER]: 'go.acme.com', [ORIGIN_VERIFY_HEADER]: SECRET });
    await expect(trustedViewerHost(visit, unreadable)).rejects.toBeInstanceOf(DependencyUnavailable);
    await expect(readVisitorRequest(visit, unreadable, keyClient)).rejects.toBeInstanceOf(DependencyUnavailable);
  });
});

describe('an anonymous (v1) caller', () => {
  const v1 = (headers: Record<string, string>) => event(headers, { httpMethod: 'POST', path: '/v1/shorten', resource: '/v1/shorten', pathParameters: null });

  it('is counted by the viewer\'s address through the dashboard\'s distribution, not by the edge\'s', async () => {
    expect(await callerFrom(v1({ 'cloudfront-viewer-address': '198.51.100.4:51234', [ORIGIN_VERIFY_HEADER]: SECRET }), keyClient, secrets)).toEqual({ kind: 'anonymous', client: 'key(198.51.100.4)' });
    expect(await callerFrom(v1({ 'cloudfront-viewer-address': '[2001:db8::1]:443', [ORIGIN_VERIFY_HEADER]: SECRET }), keyClient, secrets)).toMatchObject({ client: expect.stringContaining('2001:db8::1') });
  });

  it('is counted by API Gateway\'s source IP when the viewer address is forged or the secret unreadable', async () => {
    expect(await callerFrom(v1({ 'cloudfront-viewer-address': '198.51.100.4:51234' }), keyClient, secrets)).toEqual({ kind: 'anonymous', client: 'key(192.0.2.9)' });
    expect(await callerFrom(v1({ 'cloudfront-viewer-address': '198.51.100.4:51234', [ORIGIN_VERIFY_HEADER]: 'a guess' }), keyClient, secrets)).toEqual({ kind: 'anonymous', client: 'key(192.0.2.9)' });
    expect(await callerFrom(v1({ 'cloudfront-viewer-address': '198.51.100.4:51234', [ORIGIN_VERIFY_HEADER]: SECRET }), keyClient, () => Promise.reject(new Error('SSM down')))).toEqual({ kind: 'anonymous', client: 'key(192.0.2.9)' });
  });
});
