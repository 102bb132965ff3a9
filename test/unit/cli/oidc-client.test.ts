import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { authorizationUrl, discover, pkcePair } from '../../../bin/shortener/sign-in/oidc-client';

/** `shortener login`'s side of OpenID Connect: discovery as Cognito shapes it, and the request it sends. */
let server: Server;
let origin: string;
let documents: Record<string, unknown>;

beforeAll(async () => {
  server = createServer((request, response) => {
    const document = documents[request.url ?? ''];
    if (!document) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the sign-in provider seen from the command line', () => {
  it('revokes beside the token endpoint where discovery names no revocation endpoint (Cognito), else where it says', async () => {
    documents = {
      '/eu-west-1_pool/.well-known/openid-configuration': { issuer: `${origin}/eu-west-1_pool`, authorization_endpoint: `${origin}/oauth2/authorize`, token_endpoint: `${origin}/oauth2/token` },
      '/local/.well-known/openid-configuration': { authorization_endpoint: `${origin}/local/auth`, token_endpoint: `${origin}/local/token`, revocation_endpoint: `${origin}/local/token/revocation` },
    };
    await expect(discover(`${origin}/eu-west-1_pool`)).resolves.toEqual({ authorizationEndpoint: `${origin}/oauth2/authorize`, tokenEndpoint: `${origin}/oauth2/token`, revocationEndpoint: `${origin}/oauth2/revoke` });
    await expect(discover(`${origin}/local/`)).resolves.toMatchObject({ revocationEndpoint: `${origin}/local/token/revocation` });
  });

  it('says so when the issuer is not a provider, or cannot be reached', async () => {
    documents = {};
    await expect(discover(`${origin}/nothing`)).rejects.toThrow(`${origin}/nothing is not a sign-in provider (its discovery document answered 404)`);
    await expect(discover('http://127.0.0.1:9/pool')).rejects.toThrow('cannot reach the sign-in provider at http://127.0.0.1:9');
  });

  it('asks for a code with PKCE (S256), its state and the exact redirect URI', () => {
    const { verifier, challenge } = pkcePair();
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
    const url = new URL(authorizationUrl({ authorizationEndpoint: 'https://auth.example/oauth2/authorize', tokenEndpoint: '', revocationEndpoint: '' }, { clientId: 'cli', redirectUri: 'http://localhost:47821/callback', state: 's', challenge }));
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: 'cli', redirect_uri: 'http://localhost:47821/callback', response_type: 'code', scope: 'openid email profile', state: 's', code_challenge: challenge, code_challenge_method: 'S256' });
  });
});
