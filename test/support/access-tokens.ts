import { createHmac, createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/**
 * A signing key and its JWKS served over HTTP, and tokens signed with it (or forged), for the access-token
 * verifier's tests: what Cognito or the local provider would issue, and what an attacker would try.
 */
export interface TokenIssuer {
  issuer: string;
  jwksUrl: string;
  publicKeyPem: string;
  /** An RS256 token with Cognito's access-token claims for `sub` (15 minutes), `claims` overriding them. */
  accessToken(claims?: Record<string, unknown>, options?: { key?: KeyObject; kid?: string }): string;
  close(): Promise<void>;
  /** How many times the JWKS was fetched. */
  fetches(): number;
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function unsignedToken(header: Record<string, unknown>, claims: Record<string, unknown>): string {
  return `${encode(header)}.${encode(claims)}.`;
}

export function hmacToken(header: Record<string, unknown>, claims: Record<string, unknown>, secret: string | Buffer): string {
  const input = `${encode(header)}.${encode(claims)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

export function rsaToken(header: Record<string, unknown>, claims: Record<string, unknown>, key: KeyObject): string {
  const input = `${encode(header)}.${encode(claims)}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(key).toString('base64url')}`;
}

export async function startTokenIssuer(clientId: string): Promise<TokenIssuer> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  let fetches = 0;
  const server: Server = createServer((request, response) => {
    fetches += 1;
    if (!request.url?.endsWith('/.well-known/jwks.json')) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const issuer = `http://127.0.0.1:${port}/eu-west-1_TestPool`;
  return {
    issuer,
    jwksUrl: `${issuer}/.well-known/jwks.json`,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    accessToken: (claims = {}, options = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return rsaToken(
        { alg: 'RS256', kid: options.kid ?? kid },
        { sub: 'user-1', iss: issuer, client_id: clientId, token_use: 'access', scope: 'openid email', iat: now, exp: now + 900, email: 'ada@example.com', ...claims },
        options.key ?? privateKey,
      );
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
    fetches: () => fetches,
  };
}
