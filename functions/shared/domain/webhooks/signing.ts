import { createHmac, randomBytes } from 'node:crypto';

/** The Standard Webhooks scheme (standardwebhooks.com): secrets `whsec_<base64>`, signatures `v1,<base64>`. */
const SECRET_PREFIX = 'whsec_';

/** 24 random bytes, as the scheme's reference libraries make them. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under each secret, space-separated as the scheme allows. */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(content).digest('base64')}`).join(' ');
}

/** The headers of one delivery. */
export function signedHeaders(secrets: readonly string[], id: string, nowMs: number, body: string): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, id, timestamp, body),
  };
}
