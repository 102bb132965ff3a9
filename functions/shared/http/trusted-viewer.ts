import type { APIGatewayProxyEvent } from 'aws-lambda';
import { header } from './headers';
import { timingSafeEqual } from 'node:crypto';
import { textDigest } from './same-text';
import { asciiDomain } from '../domain/domains/host-name';
import { DependencyUnavailable } from '../domain/errors';
import { DEPENDENCY_UNAVAILABLE_MESSAGE } from '../domain/messages';

/**
 * The service's CloudFront distribution adds this header, holding a secret generated at deploy time (Secrets
 * Manager), to every request it forwards. The API Gateway endpoint is public too, so CloudFront-Viewer-Address
 * means something only on a request that carries the secret: anyone can send that header straight to the API.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/**
 * The host a visitor asked for on a customer's domain. API Gateway needs its own Host header, so the customer
 * domains' distribution copies the viewer's Host here (its viewer-request function, which overwrites whatever the
 * viewer sent); the shared domain's function removes it. It means something only beside the origin secret.
 */
export const VIEWER_HOST_HEADER = 'x-viewer-host';

/** The values CloudFront may be sending: the current one and, during a rotation, the one before it. */
export type OriginSecrets = () => Promise<readonly string[]>;

/**
 * The secret's stored form: `{"current": "...", "previous": "..."}` (previous only while a rotation runs; see the
 * README's runbook), or a bare value as deployments before rotation stored it.
 */
export function originSecretValues(stored: string): string[] {
  try {
    const parsed: unknown = JSON.parse(stored);
    if (typeof parsed === 'object' && parsed !== null) {
      const { current, previous } = parsed as Record<string, unknown>;
      return [current, previous].filter((value): value is string => typeof value === 'string' && value.length > 0);
    }
  } catch {
    // not JSON: a bare value
  }
  return stored ? [stored] : [];
}

/** The digests of the secret values seen (current and previous, a few over a container's life): hashed once each. */
const secretDigests = new Map<string, Buffer>();
function digestOfSecret(secret: string): Buffer {
  let digest = secretDigests.get(secret);
  if (!digest) {
    if (secretDigests.size >= 8) secretDigests.clear();
    digest = textDigest(secret);
    secretDigests.set(secret, digest);
  }
  return digest;
}

/**
 * Where a request came from, as far as the origin secret tells: through CloudFront, from elsewhere (no secret, or a
 * wrong one), or unknown, when the secret itself could not be read.
 */
type Provenance = 'cloudFront' | 'elsewhere' | 'unknown';

/** Each request's verdict, so that its host, address and country cost one comparison between them. */
const verdicts = new WeakMap<APIGatewayProxyEvent, Promise<Provenance>>();

/**
 * Where the request came from, by whether it carries one of the origin secrets, compared as sameText does (32-byte
 * digests, constant time, every value compared so timing tells nothing), with the secrets' digests kept: one hash
 * per request.
 */
function provenanceOf(event: APIGatewayProxyEvent, originSecrets: OriginSecrets): Promise<Provenance> {
  let verdict = verdicts.get(event);
  if (!verdict) {
    verdict = compareOriginSecret(event, originSecrets);
    verdicts.set(event, verdict);
  }
  return verdict;
}

const cameThroughCloudFront = async (event: APIGatewayProxyEvent, originSecrets: OriginSecrets) => (await provenanceOf(event, originSecrets)) === 'cloudFront';

async function compareOriginSecret(event: APIGatewayProxyEvent, originSecrets: OriginSecrets): Promise<Provenance> {
  const presented = header(event, ORIGIN_VERIFY_HEADER);
  if (!presented) return 'elsewhere';
  let secrets: readonly string[];
  try {
    secrets = await originSecrets();
  } catch {
    return 'unknown';
  }
  const digest = textDigest(presented);
  return secrets.map((secret) => timingSafeEqual(digest, digestOfSecret(secret))).includes(true) ? 'cloudFront' : 'elsewhere';
}

/** Host names as the redirect has read them, once verified: the tenants of one distribution, a bounded few. */
const asciiHosts = new Map<string, string>();
function asciiHost(host: string): string {
  let ascii = asciiHosts.get(host);
  if (ascii === undefined) {
    if (asciiHosts.size >= 10_000) asciiHosts.clear();
    ascii = asciiDomain(host.replace(/:\d+$/, '')) ?? '';
    asciiHosts.set(host, ascii);
  }
  return ascii;
}

/**
 * The customer domain of the request (port dropped, lower-case ASCII), or undefined on the shared domain: only a
 * request that came through CloudFront can name one. Requests without the header (every shared-domain visit) read
 * no secret. A request that names a host never falls back to the shared domain, whose codes anyone may claim: named
 * without the secret (or with an empty name) it is on no domain (''), which knows no link; when the secret cannot be
 * read, the visit is an outage (503), never a shared link's redirect.
 */
export async function trustedViewerHost(event: APIGatewayProxyEvent, originSecrets: OriginSecrets): Promise<string | undefined> {
  const host = header(event, VIEWER_HOST_HEADER);
  if (host === undefined) return undefined;
  const provenance = await provenanceOf(event, originSecrets);
  if (provenance === 'unknown') throw new DependencyUnavailable(DEPENDENCY_UNAVAILABLE_MESSAGE);
  return provenance === 'cloudFront' && host ? asciiHost(host) : '';
}

/**
 * The visitor's address for counting password attempts: CloudFront's viewer address when the request provably
 * came through the distribution, else API Gateway's source IP (which a client cannot choose). When the secret
 * cannot be read, nothing is trusted.
 */
export async function trustedClientIp(event: APIGatewayProxyEvent, originSecrets: OriginSecrets): Promise<string> {
  const sourceIp = event.requestContext.identity.sourceIp;
  const viewer = header(event, 'cloudfront-viewer-address');
  if (!viewer || !(await cameThroughCloudFront(event, originSecrets))) return sourceIp;
  // "ip:port", IPv6 addresses included ("2001:db8::1:443"): the port is what follows the last colon.
  return viewer.replace(/:\d+$/, '');
}

/**
 * CloudFront's country of the viewer (`CloudFront-Viewer-Country`), believed as the address is: only beside the
 * origin secret. Anyone can send the header straight to the API's own URL, and a forged country would choose a smart
 * link's destination and write the stats; such a request counts as a viewer of unknown country.
 */
export async function trustedViewerCountry(event: APIGatewayProxyEvent, originSecrets: OriginSecrets): Promise<string | undefined> {
  const country = header(event, 'cloudfront-viewer-country');
  if (country === undefined || !(await cameThroughCloudFront(event, originSecrets))) return undefined;
  return country;
}

/**
 * CloudFront's region and city of the viewer (`CloudFront-Viewer-Country-Region`, `CloudFront-Viewer-City`; issue 30),
 * believed as the country is: only beside the origin secret. Both are stats only, never a destination's choice.
 */
export async function trustedViewerPlace(event: APIGatewayProxyEvent, originSecrets: OriginSecrets): Promise<{ region?: string; city?: string }> {
  const region = header(event, 'cloudfront-viewer-country-region');
  const city = header(event, 'cloudfront-viewer-city');
  if ((region === undefined && city === undefined) || !(await cameThroughCloudFront(event, originSecrets))) return {};
  return { ...(region === undefined ? {} : { region }), ...(city === undefined ? {} : { city }) };
}
