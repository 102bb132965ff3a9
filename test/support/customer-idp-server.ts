import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { listen } from '../../bin/local/listen';

/** What the provider tells its parent on its first line of output. */
export interface CustomerIdpInfo {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * Run as its own process by test/support/customer-idp.ts (oidc-provider is ESM only, which jest's module system
 * cannot load). A company's own identity provider for the single sign-on tests: a second oidc-provider, with one confidential
 * client for the user pool (its redirect URI the pool's `/oauth2/idpresponse`), that signs in whoever the login hint
 * names at once (the company's own sign-in is not what is tested) and vouches for the email the test chose
 * (`POST /vouch {"hint", "email", "verified"}`).
 */
async function startCustomerIdp(port: number, poolRedirectUri: string): Promise<CustomerIdpInfo> {
  const server = createServer();
  await listen(server, port, '127.0.0.1');
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'shortener-sso';
  const clientSecret = `secret-${randomUUID()}`;
  const vouchFor = new Map<string, { email: string; verified: boolean }>();
  const signing = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
  const { default: OidcProvider } = await import('oidc-provider');
  const provider: Provider = new OidcProvider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [poolRedirectUri], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
    jwks: { keys: [signing] },
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    features: { devInteractions: { enabled: false } },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => {
        const vouched = vouchFor.get(id) ?? { email: id, verified: true };
        return { sub: id, email: vouched.email, email_verified: vouched.verified };
      },
    }),
    loadExistingGrant: async (ctx: { oidc: { client?: { clientId: string }; session?: { accountId?: string }; provider: Provider } }) => {
      const accountId = ctx.oidc.session?.accountId;
      if (!ctx.oidc.client || !accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  });
  const oidc = provider.callback();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'POST' && request.url === '/vouch') return void vouch(request, response, vouchFor);
    if (!(request.url ?? '').startsWith('/interaction/')) return oidc(request, response);
    void (async () => {
      const details = await provider.interactionDetails(request, response);
      await provider.interactionFinished(request, response, { login: { accountId: String(details.params.login_hint ?? 'nobody') } }, { mergeWithLastSubmission: false });
    })().catch(() => response.writeHead(400).end('interaction failed'));
  });
  return { issuer, clientId, clientSecret };
}

async function vouch(request: IncomingMessage, response: ServerResponse, vouchFor: Map<string, { email: string; verified: boolean }>): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  const { hint, email, verified } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { hint: string; email: string; verified: boolean };
  vouchFor.set(hint, { email, verified });
  response.writeHead(204).end();
}

const [port, redirectUri] = process.argv.slice(2);
startCustomerIdp(Number(port), String(redirectUri)).then(
  (info) => console.log(JSON.stringify(info)),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
