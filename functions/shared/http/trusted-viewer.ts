import type { APIGatewayProxyEvent } from 'aws-lambda';
import { header } from './headers';
import { sameText } from './same-text';

/**
 * The service's CloudFront distribution adds this header, holding a secret generated at deploy time (Secrets
 * Manager), to every request it forwards. The API Gateway endpoint is public too, so CloudFront-Viewer-Address
 * means something only on a request that carries the secret: anyone can send that header straight to the API.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

export type OriginSecret = () => Promise<string | undefined>;

/**
 * The visitor's address for counting password attempts: CloudFront's viewer address when the request provably
 * came through the distribution, else API Gateway's source IP (which a client cannot choose). When the secret
 * cannot be read, nothing is trusted.
 */
export async function trustedClientIp(event: APIGatewayProxyEvent, originSecret: OriginSecret): Promise<string> {
  const sourceIp = event.requestContext.identity.sourceIp;
  const viewer = header(event, 'cloudfront-viewer-address');
  const presented = header(event, ORIGIN_VERIFY_HEADER);
  if (!viewer || !presented) return sourceIp;
  const secret = await originSecret().catch(() => undefined);
  // "ip:port", IPv6 addresses included ("2001:db8::1:443"): the port is what follows the last colon.
  return secret && sameText(presented, secret) ? viewer.replace(/:\d+$/, '') : sourceIp;
}
