import { generateKeyPairSync, randomBytes, randomUUID, type JsonWebKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import * as path from 'node:path';
import type Provider from 'oidc-provider';
import type { GrantInstance } from 'oidc-provider';
import { CLI_CALLBACK_PORTS, cliCallbackUrl } from '../../clients/sign-in/cli-callback';
import { PAGE_CONTENT_SECURITY_POLICY } from '../../functions/shared/http/pages';
import { CognitoAccessTokens } from '../../functions/shared/adapters/cognito-access-tokens';
import { AUTHENTICATOR_APP, MFA_CLAIM, SignInMethods, signInMethodsGiveMfa } from '../../functions/shared/domain/accounts/sign-in-mfa';
import { awsJsonListener } from './aws-json-server';
import { COGNITO_PROTOCOL, CognitoStandIn, USER_API_SCOPE } from './cognito-standin';
import { LocalFederation } from './federation';
import { IdentityProviderRegistry } from './identity-provider-registry';
import { listen } from './listen';
import { LocalPasskeys } from './passkeys';
import { signInPage, signOutPage, type SignInPageState } from './sign-in-page';
import { totpMatches } from './totp';
import type { UserPoolClientSpec, UserPoolSpec } from './template';
import type { LocalUserDirectory } from './user-directory';

/**
 * The template's user pool played by an OpenID Connect provider (oidc-provider, OpenID-certified): the same issuer
 * shape as Cognito's (`http://localhost:<port>/<poolId>`, JWKS at `<issuer>/.well-known/jwks.json`), access tokens
 * as JWTs signed RS256 with Cognito's claims (`sub`, `token_use: access`, `client_id`, `scope`, `username`, and the
 * person's `email` and `email_verified`), the clients' exact redirect URIs and token lifetimes, PKCE (S256)
 * required, and a plain sign-in page (email and password, then an authenticator code for people who turned MFA
 * on; or a passkey, when the template's pool allows them: passkeys.ts). The same port answers Cognito's user API (cognito-standin.ts) for the pool's users. One pool: the template
 * has one.
 */
export interface LocalSignIn {
  issuer: string;
  jwksUrl: string;
  poolId: string;
  /** The template's app client (the dashboard's). */
  client: UserPoolClientSpec;
  /** The command line's app client (`shortener login`), played as the template has it: loopback callbacks only. */
  cliClient?: UserPoolClientSpec;
  /** Where the SDK's Cognito client reaches the admin API (AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER). */
  adminEndpoint: string;
  close(): Promise<void>;
}

const isCliCallback = (url: string) => CLI_CALLBACK_PORTS.some((port) => cliCallbackUrl(port) === url);

/** Every access token names this resource: it is what makes oidc-provider issue them as JWTs (resource indicators). */
const API_RESOURCE = 'urn:shortener:api';
/** Sign-in forms are small; anything larger is not one. */
const MAX_FORM_BYTES = 16 * 1024;
const INTERACTION_SECONDS = 10 * 60;
/** The passkey button's scripts: @simplewebauthn/browser's bundle and the page's own, served under the pool's path. */
const PASSKEY_SCRIPTS: Record<string, string> = {
  'webauthn.js': path.resolve(path.dirname(require.resolve('@simplewebauthn/browser')), '..', 'dist', 'bundle', 'index.umd.min.js'),
  'sign-in.js': path.join(__dirname, 'passkey-sign-in.browser.js'),
};

interface KeyMaterial {
  signing: JsonWebKey & { kid: string };
  cookieKeys: string[];
}

/** The signing key and cookie keys, kept beside the users (tokens stay valid across restarts) unless in memory. */
function keyMaterial(file: string | undefined): KeyMaterial {
  if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as KeyMaterial;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const material: KeyMaterial = { signing: { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' } as KeyMaterial['signing'], cookieKeys: [randomBytes(32).toString('base64url')] };
  if (file) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(material), { mode: 0o600 });
  }
  return material;
}

/** What a token's sign-in said of itself: the authentication methods the sign-in page recorded (`otp` after the code). */
interface SignInRecord {
  amr?: string[];
}

interface TokenContext {
  oidc: {
    entities: { AuthorizationCode?: SignInRecord; RefreshToken?: SignInRecord };
    client?: { clientId: string };
    session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
    result?: { consent?: { grantId?: string } };
    provider: Provider;
  };
}

export async function startLocalSignIn(options: { pool: UserPoolSpec; users: LocalUserDirectory; port: number; keysFile?: string }): Promise<LocalSignIn> {
  const { pool, users } = options;
  const cliClient = pool.clients.find((spec) => spec.callbackUrls.length > 0 && spec.callbackUrls.every(isCliCallback));
  const client = pool.clients.find((spec) => spec !== cliClient);
  if (!client) throw new Error(`user pool ${pool.id} has no app client to play`);
  const server = createServer();
  const port = await listen(server, options.port, '127.0.0.1');
  const issuer = `http://localhost:${port}/${pool.id}`;
  const keys = keyMaterial(options.keysFile);
  const longestRefresh = Math.max(...pool.clients.map((spec) => spec.refreshTokenSeconds));
  const clientOf = (clientId: string | undefined) => pool.clients.find((candidate) => candidate.id === clientId) ?? client;
  // Each person's grants (what their refresh tokens hang on), for AdminUserGlobalSignOut to end.
  const grantsOf = new Map<string, Set<string>>();

  // ESM only: loaded when a local stack starts, never by a Lambda bundle.
  const { default: OidcProvider } = await import('oidc-provider');
  const provider = new OidcProvider(issuer, {
    clients: pool.clients.map((spec) => ({
      client_id: spec.id,
      // Public clients, as the template's (GenerateSecret false): PKCE binds the code to whoever asked for it.
      token_endpoint_auth_method: 'none',
      redirect_uris: spec.callbackUrls,
      post_logout_redirect_uris: spec.logoutUrls,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: spec.scopes.join(' '),
    })),
    jwks: { keys: [keys.signing] },
    cookies: { keys: keys.cookieKeys },
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile', USER_API_SCOPE],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: [] },
    routes: { jwks: '/.well-known/jwks.json' },
    findAccount: (_ctx: unknown, sub: string) => {
      const user = users.find(sub);
      return user && { accountId: sub, claims: () => ({ sub, email: user.email, email_verified: user.emailVerified }) };
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/${pool.id}/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      // The end-session question in the sign-in page's layout: oidc-provider's own page loads a web font from Google.
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: { body: string }, form: string) => {
          ctx.body = signOutPage(form);
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => API_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, _resource: string, requester: { clientId: string }) => ({
          scope: clientOf(requester.clientId).scopes.join(' '),
          accessTokenTTL: clientOf(requester.clientId).accessTokenSeconds,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    // The dashboard and the command line are the pool's own clients: signing in is consent, as on Cognito's managed pages.
    loadExistingGrant: async (ctx: TokenContext): Promise<GrantInstance | undefined> => {
      const clientId = ctx.oidc.client?.clientId;
      const accountId = ctx.oidc.session?.accountId;
      if (!clientId || !accountId) return undefined;
      const existing = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(clientId);
      // A grant ended by a global sign-out is gone: the person's next sign-in makes a new one.
      const found = existing ? await ctx.oidc.provider.Grant.find(existing) : undefined;
      if (found) return found;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      const scopes = clientOf(clientId).scopes.join(' ');
      grant.addOIDCScope(scopes);
      grant.addResourceScope(API_RESOURCE, scopes);
      const grantId = await grant.save();
      grantsOf.set(accountId, (grantsOf.get(accountId) ?? new Set()).add(grantId));
      return grant;
    },
    // Cognito's access-token claims (its access tokens carry no email; the local ones do), and the `mfa` claim the
    // pool's pre-token-generation trigger adds on AWS: here from the methods this token's sign-in used, as recorded on
    // the code it was redeemed for, or on the refresh token that code brought (sign-in-mfa.ts).
    extraTokenClaims: (ctx: TokenContext, token: { kind: string; accountId?: string }) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const user = users.find(token.accountId);
      const signIn = ctx.oidc.entities.AuthorizationCode ?? ctx.oidc.entities.RefreshToken;
      return {
        token_use: 'access',
        username: token.accountId,
        ...(user ? { email: user.email, email_verified: user.emailVerified } : {}),
        ...(signInMethodsGiveMfa(signIn?.amr ?? [], { mfaMethods: user?.mfaEnabled && user.totpSecret ? [AUTHENTICATOR_APP] : [] }) ? { [MFA_CLAIM]: true } : {}),
      };
    },
    issueRefreshToken: (_ctx: unknown, requester: { grantTypeAllowed(type: string): boolean }) => requester.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: false,
    ttl: {
      AccessToken: (_ctx: unknown, _token: unknown, requester: { clientId: string }) => clientOf(requester.clientId).accessTokenSeconds,
      IdToken: (_ctx: unknown, _token: unknown, requester: { clientId: string }) => clientOf(requester.clientId).idTokenSeconds,
      RefreshToken: (_ctx: unknown, _token: unknown, requester: { clientId: string }) => clientOf(requester.clientId).refreshTokenSeconds,
      AuthorizationCode: 60,
      Interaction: INTERACTION_SECONDS,
      // A refresh token lives no longer than its grant: the longest of the clients' (the command line's).
      Session: longestRefresh,
      Grant: longestRefresh,
    },
    renderError: (ctx: { type: string; body: string; status: number }, out: { error?: string; error_description?: string }) => {
      ctx.type = 'html';
      ctx.body = signInPage({ kind: 'error', message: out.error_description ?? out.error ?? 'Sign-in failed.' });
    },
  });
  // Workspaces' identity providers (SSO, issue 29) and the sign-ins sent to them.
  const registry = new IdentityProviderRegistry(pool.id, pool.clients);
  const federation = new LocalFederation(registry, users, issuer);
  // The dashboard (its callbacks' origins) calls the person's own user API from the page, as on Cognito's endpoint.
  const dashboardOrigins = new Set(client.callbackUrls.map((url) => new URL(url).origin));
  // Every local page is on localhost: the relying party for the dashboard's registrations and the sign-in page's use.
  const passkeys = pool.passkeys ? new LocalPasskeys({ rpId: 'localhost', registrationOrigins: [...dashboardOrigins], signInOrigin: new URL(issuer).origin }, users) : undefined;
  const interactions = new InteractionPages(provider, users, `/${pool.id}/interaction/`, federation, passkeys && { passkeys, scriptsPath: `/${pool.id}/passkey-scripts/` });
  const admin = awsJsonListener((operation, input) => (registry.handles(operation) ? registry.handle(operation, input) : cognito.handle(operation, input)), COGNITO_PROTOCOL);
  // AdminUserGlobalSignOut: every grant of the person ends, and with it every refresh token issued under it.
  const signOutEverywhere = async (sub: string) => {
    const grants = [...(grantsOf.get(sub) ?? [])];
    grantsOf.delete(sub);
    await Promise.all(grants.map(async (grantId) => (await provider.Grant.find(grantId))?.destroy()));
  };
  const cognito = new CognitoStandIn(pool.id, users, new CognitoAccessTokens({ issuer, jwksUrl: `${issuer}/.well-known/jwks.json`, clientIds: pool.clients.map((spec) => spec.id) }), signOutEverywhere, passkeys);
  const oidc = provider.callback();
  const mount = `/${pool.id}`;

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '/';
    const origin = request.headers.origin;
    if (request.method === 'OPTIONS' && url === '/' && origin && dashboardOrigins.has(origin)) {
      response.writeHead(204, { ...corsHeaders(origin), 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type, x-amz-target', 'access-control-max-age': '600' }).end();
      return;
    }
    const target = String(request.headers['x-amz-target'] ?? '');
    if (request.method === 'POST' && target.startsWith(`${COGNITO_PROTOCOL.targetPrefix}.`)) {
      if (origin !== undefined) {
        // A page may make only a person's own calls, with their token: the admin API needs AWS credentials on AWS.
        if (!dashboardOrigins.has(origin) || !CognitoStandIn.isPersonal(target.slice(COGNITO_PROTOCOL.targetPrefix.length + 1))) {
          response.writeHead(403, { 'content-type': COGNITO_PROTOCOL.contentType }).end(JSON.stringify({ __type: 'AccessDeniedException', message: 'Not from this origin' }));
          return;
        }
        for (const [name, value] of Object.entries(corsHeaders(origin))) response.setHeader(name, value);
      }
      return admin(request, response);
    }
    if (url.startsWith(interactions.prefix)) return void interactions.handle(request, response);
    const script = passkeys && request.method === 'GET' && url.startsWith(`${mount}/passkey-scripts/`) ? PASSKEY_SCRIPTS[url.slice(`${mount}/passkey-scripts/`.length)] : undefined;
    if (script) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }).end(readFileSync(script));
      return;
    }
    if (url.startsWith(`${mount}/oauth2/idpresponse?`)) return void interactions.federated(new URL(url, issuer).searchParams, response);
    if (url === mount || url.startsWith(`${mount}/`) || url.startsWith(`${mount}?`)) {
      // Mounted under the pool's id, as Cognito's issuer is: oidc-provider reads its mount path off originalUrl.
      Object.assign(request, { originalUrl: url, url: url.slice(mount.length) || '/' });
      return oidc(request, response);
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });

  return {
    issuer,
    jwksUrl: `${issuer}/.well-known/jwks.json`,
    poolId: pool.id,
    client,
    ...(cliClient ? { cliClient } : {}),
    adminEndpoint: `http://127.0.0.1:${port}`,
    close: () => closeServer(server),
  };
}

const corsHeaders = (origin: string) => ({ 'access-control-allow-origin': origin, vary: 'origin' });

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** Wrong authenticator codes allowed per sign-in before it must start again (Cognito locks out after a few too). */
const MAX_CODE_ATTEMPTS = 5;

/** The page's script may also run where passkeys are offered: its own and the bundle's, from the provider's origin. */
const PASSKEY_PAGE_POLICY = `${PAGE_CONTENT_SECURITY_POLICY}; script-src 'self'; connect-src 'self'`;

/**
 * The sign-in page of an interaction: GET shows the form; POST checks the email and password, then, for people who
 * turned MFA on, POST `…/totp` checks their authenticator code. Who passed the password step is kept here, by
 * interaction, until the code (the interaction itself is bound to the browser by its cookie). Where the pool allows
 * passkeys, POST `…/passkey-options` gives the interaction's challenge and POST `…/passkey` signs in with the answer.
 */
class InteractionPages {
  private readonly awaitingCode = new Map<string, { sub: string; attempts: number; expiresAtMs: number }>();

  constructor(
    private readonly provider: Provider,
    private readonly users: LocalUserDirectory,
    readonly prefix: string,
    private readonly federation: LocalFederation,
    private readonly passkeys?: { passkeys: LocalPasskeys; scriptsPath: string },
  ) {}

  /** A customer's provider answered: back to the interaction (whose cookie is scoped to its page) with a one-time ticket. */
  async federated(query: URLSearchParams, response: ServerResponse): Promise<void> {
    const outcome = await this.federation.finish(query);
    if ('error' in outcome) return this.render(response, 400, { kind: 'error', message: outcome.error });
    response.writeHead(303, { location: `${this.prefix}${outcome.interactionUid}/federated?ticket=${encodeURIComponent(outcome.ticket)}`, 'cache-control': 'no-store' }).end();
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const details = await this.provider.interactionDetails(request, response);
      const action = `${this.prefix}${details.uid}`;
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (request.method === 'GET' && url.pathname === `${action}/federated`) {
        const sub = this.federation.redeem(url.searchParams.get('ticket') ?? '', details.uid);
        if (!sub) return this.render(response, 400, { kind: 'error', message: 'This sign-in has expired or is not yours. Start again from the application.' });
        return await this.provider.interactionFinished(request, response, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
      }
      const step = url.pathname.slice(action.length);
      if (request.method === 'GET' && step === '') return this.render(response, 200, this.passwordPage(action));
      if (request.method !== 'POST' || !['', '/totp', '/passkey-options', '/passkey'].includes(step)) return this.render(response, 405, { kind: 'error', message: 'Method not allowed.' });
      if (step === '/passkey-options') return await this.passkeyOptions(response, details.uid);
      const form = await readForm(request);
      if (step === '/totp') return await this.checkCode(request, response, details.uid, form.get('code') ?? '');
      if (step === '/passkey') return await this.checkPasskey(request, response, details.uid, action, String(details.params.client_id ?? ''), form.get('assertion') ?? '');
      const email = form.get('email') ?? '';
      // A domain with single sign-on signs in only through its provider: the password is not even looked at.
      const organisation = this.federation.providerFor(String(details.params.client_id ?? ''), email);
      if (organisation?.type === 'SAML') return this.render(response, 501, { kind: 'error', message: 'Your organisation signs in with SAML, which a local run does not play.' });
      if (organisation) {
        response.writeHead(303, { location: await this.federation.start(details.uid, organisation, email), 'cache-control': 'no-store' }).end();
        return;
      }
      const user = await this.users.signIn(email, form.get('password') ?? '');
      // Cognito's own wording, the same for an unknown email and a wrong password.
      if (!user) return this.render(response, 401, { ...this.passwordPage(action), email, error: 'Incorrect username or password.' });
      if (user.mfaEnabled && user.totpSecret) {
        this.awaitingCode.set(details.uid, { sub: user.sub, attempts: 0, expiresAtMs: Date.now() + INTERACTION_SECONDS * 1000 });
        return this.render(response, 200, { kind: 'totp', action: `${action}/totp` });
      }
      await this.provider.interactionFinished(request, response, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false });
    } catch {
      // An unknown, expired or foreign interaction (its cookie is missing): start again from the application.
      this.render(response, 400, { kind: 'error', message: 'This sign-in has expired or is not yours. Start again from the application.' });
    }
  }

  private async checkCode(request: IncomingMessage, response: ServerResponse, uid: string, code: string): Promise<void> {
    const waiting = this.awaitingCode.get(uid);
    const user = waiting && waiting.expiresAtMs > Date.now() ? this.users.find(waiting.sub) : undefined;
    if (!waiting || !user?.totpSecret) throw new Error('no password step to follow');
    if (!totpMatches(user.totpSecret, code.trim())) {
      waiting.attempts += 1;
      if (waiting.attempts >= MAX_CODE_ATTEMPTS) this.awaitingCode.delete(uid);
      return this.render(response, 401, { kind: 'totp', action: `${this.prefix}${uid}/totp`, error: 'Invalid code received for user' });
    }
    this.awaitingCode.delete(uid);
    await this.provider.interactionFinished(request, response, { login: { accountId: user.sub, amr: [SignInMethods.password, SignInMethods.authenticatorCode] } }, { mergeWithLastSubmission: false });
  }

  /** The email and password form, and the passkey button where the pool allows passkeys. */
  private passwordPage(action: string): Extract<SignInPageState, { kind: 'password' }> {
    if (!this.passkeys) return { kind: 'password', action };
    const scripts = ['webauthn.js', 'sign-in.js'].map((name) => `${this.passkeys?.scriptsPath}${name}`);
    return { kind: 'password', action, passkey: { optionsUrl: `${action}/passkey-options`, action: `${action}/passkey`, scripts } };
  }

  private async passkeyOptions(response: ServerResponse, uid: string): Promise<void> {
    if (!this.passkeys) throw new Error('passkeys are not offered');
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(await this.passkeys.passkeys.startSignIn(uid)));
  }

  /** A passkey's answer to this interaction's challenge signs its owner in (passkeys.ts says what is checked). */
  private async checkPasskey(request: IncomingMessage, response: ServerResponse, uid: string, action: string, clientId: string, assertion: string): Promise<void> {
    if (!this.passkeys) throw new Error('passkeys are not offered');
    let answer: unknown;
    try {
      answer = JSON.parse(assertion);
    } catch {
      answer = undefined;
    }
    const user = await this.passkeys.passkeys.finishSignIn(uid, answer);
    // A domain with single sign-on signs in only through its provider, with a passkey no more than with a password.
    if (!user || this.federation.providerFor(clientId, user.email)) return this.render(response, 401, { ...this.passwordPage(action), error: 'That passkey could not sign you in. Try again, or use your email and password.' });
    await this.provider.interactionFinished(request, response, { login: { accountId: user.sub, amr: [SignInMethods.passkey] } }, { mergeWithLastSubmission: false });
  }

  private render(response: ServerResponse, status: number, state: SignInPageState): void {
    const policy = state.kind === 'password' && state.passkey ? PASSKEY_PAGE_POLICY : PAGE_CONTENT_SECURITY_POLICY;
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': policy }).end(signInPage(state));
  }
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new Error('form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
