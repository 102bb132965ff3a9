import type { APIGatewayProxyEvent } from 'aws-lambda';
import { header } from './headers';
import { sameText } from './same-text';

/**
 * The service's CloudFront distribution adds this header, holding a secret generated at deploy time (Secrets
 * Manager), to every request it forwards. The API Gateway endpoint is public too, so CloudFront-Viewer-Address
 * means something only on a request that carries the secret: anyone can send that header straight to the API.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

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

/**
 * The visitor's address for counting password attempts: CloudFront's viewer address when the request provably
 * came through the distribution, else API Gateway's source IP (which a client cannot choose). When the secret
 * cannot be read, nothing is trusted.
 */
export async function trustedClientIp(event: APIGatewayProxyEvent, originSecrets: OriginSecrets): Promise<string> {
  const sourceIp = event.requestContext.identity.sourceIp;
  const viewer = header(event, 'cloudfront-viewer-address');
  const presented = header(event, ORIGIN_VERIFY_HEADER);
  if (!viewer || !presented) return sourceIp;
  const secrets = await originSecrets().catch(() => []);
  // Every value is compared, so the time taken does not tell which one matched.
  const matches = secrets.map((secret) => sameText(presented, secret));
  // "ip:port", IPv6 addresses included ("2001:db8::1:443"): the port is what follows the last colon.
  return matches.includes(true) ? viewer.replace(/:\d+$/, '') : sourceIp;
}
