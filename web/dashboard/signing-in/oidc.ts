/**
 * The dashboard as a public OpenID Connect client (issue 29): authorization code with PKCE (S256), `state` against
 * forged callbacks and `nonce` against replayed ID tokens, endpoints from the issuer's discovery document. No client
 * secret: a page can keep none. Nothing here touches the page (storage, location): the callers pass what it needs,
 * so the protocol is unit-tested in Node.
 */

/** What the deployment tells the page (`/app/config.json`, written by lib/dashboard.ts or the local static site). */
export interface SignInConfig {
  issuer: string;
  clientId: string;
  /** The app client's one callback URL, exactly as the user pool's client lists it. */
  redirectUri: string;
  /** Where the provider may send the browser after ending its session (the client's sign-out URL). */
  signOutRedirectUri: string;
  /** For a provider whose discovery document omits it (Cognito's `/oauth2/revoke`). */
  revocationEndpoint?: string;
}

/** The parts of the discovery document the dashboard uses (OpenID Connect Discovery 1.0, RFC 8414, RFC 7009). */
export interface ProviderEndpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  revocationEndpoint?: string;
  endSessionEndpoint?: string;
}

/** An unfinished sign-in, kept in the tab between leaving for the provider and coming back. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The dashboard page the person was on, to return to. */
  returnTo: string;
}

export interface Tokens {
  accessToken: string;
  idToken: string;
  refreshToken?: string;
  /** Epoch milliseconds at which the access token stops being accepted. */
  expiresAt: number;
}

/** A sign-in that cannot go on, in words for the person (never the provider's raw page). */
export class SignInFailed extends Error {}

/** Words for any failure on the way in: SignInFailed's own, or the network's. */
export const signInWords = (error: unknown) => (error instanceof SignInFailed ? error.message : 'The sign-in service could not be reached. Check your connection and try again.');

/** `aws.cognito.signin.user.admin`: the person's own user API with this token (turning on an authenticator app). */
const SCOPE = 'openid email profile aws.cognito.signin.user.admin';

type Fetch = typeof fetch;

const base64Url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

/** 32 random bytes, base64url: 43 characters, the PKCE verifier's minimum length and ample for state and nonce. */
export const randomToken = () => base64Url(crypto.getRandomValues(new Uint8Array(32)));

/** RFC 7636's S256 challenge of a verifier. */
export async function codeChallengeOf(codeVerifier: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier))));
}

const isHttpsOrLocal = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && /^(localhost|127\.0\.0\.1|\[::1\]|[^.]+\.localhost)$/.test(url.hostname));
  } catch {
    return false;
  }
};

/**
 * The provider's endpoints from `<issuer>/.well-known/openid-configuration`. The document must name the same issuer
 * (Discovery §4.3: otherwise a document from elsewhere could send the person to another provider's pages).
 */
export async function discover(config: SignInConfig, fetcher: Fetch = fetch): Promise<ProviderEndpoints> {
  const response = await fetcher(`${config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new SignInFailed('The sign-in service could not be reached. Try again in a moment.');
  const document = (await response.json()) as Record<string, unknown>;
  if (document.issuer !== config.issuer) throw new SignInFailed('The sign-in service named another issuer: sign-in stopped.');
  const { authorization_endpoint: authorizationEndpoint, token_endpoint: tokenEndpoint } = document;
  if (!isHttpsOrLocal(authorizationEndpoint) || !isHttpsOrLocal(tokenEndpoint)) throw new SignInFailed('The sign-in service described itself incompletely: sign-in stopped.');
  const revocationEndpoint = isHttpsOrLocal(document.revocation_endpoint) ? document.revocation_endpoint : config.revocationEndpoint;
  const endSessionEndpoint = isHttpsOrLocal(document.end_session_endpoint) ? document.end_session_endpoint : undefined;
  return { authorizationEndpoint, tokenEndpoint, ...(revocationEndpoint ? { revocationEndpoint } : {}), ...(endSessionEndpoint ? { endSessionEndpoint } : {}) };
}

/** A fresh sign-in: what the tab keeps, and the provider's URL to send the browser to. */
export async function startSignIn(config: SignInConfig, endpoints: ProviderEndpoints, returnTo: string): Promise<{ pending: PendingSignIn; url: string }> {
  const pending: PendingSignIn = { state: randomToken(), nonce: randomToken(), codeVerifier: randomToken(), returnTo };
  const url = new URL(endpoints.authorizationEndpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: config.redirectUri,
    scope: SCOPE,
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await codeChallengeOf(pending.codeVerifier),
    code_challenge_method: 'S256',
  }).toString();
  return { pending, url: url.toString() };
}

/** An ID token's claims. Its signature is not checked here: it came straight from the token endpoint over TLS (OpenID Connect Core §3.1.3.7). */
export function idTokenClaims(idToken: string): Record<string, unknown> {
  const payload = idToken.split('.')[1];
  if (!payload) throw new SignInFailed('The sign-in service sent no usable ID token.');
  try {
    const text = new TextDecoder().decode(Uint8Array.from(atob(payload.replaceAll('-', '+').replaceAll('_', '/')), (char) => char.charCodeAt(0)));
    const claims = JSON.parse(text) as unknown;
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) throw new Error('not an object');
    return claims as Record<string, unknown>;
  } catch {
    throw new SignInFailed('The sign-in service sent no usable ID token.');
  }
}

async function tokenRequest(endpoint: string, form: Record<string, string>, fetcher: Fetch): Promise<Record<string, unknown>> {
  const response = await fetcher(endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: new URLSearchParams(form).toString() });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || typeof body.access_token !== 'string') throw new SignInFailed('The sign-in service refused the sign-in. Sign in again.');
  return body;
}

const tokensOf = (body: Record<string, unknown>, now: number, previous?: Tokens): Tokens => {
  const idToken = typeof body.id_token === 'string' ? body.id_token : previous?.idToken;
  if (!idToken) throw new SignInFailed('The sign-in service sent no usable ID token.');
  const refreshToken = typeof body.refresh_token === 'string' ? body.refresh_token : previous?.refreshToken;
  const seconds = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 300;
  return { accessToken: body.access_token as string, idToken, expiresAt: now + seconds * 1000, ...(refreshToken ? { refreshToken } : {}) };
};

/**
 * The callback's query checked and its code exchanged: `state` must be the one this tab sent (a callback forged
 * by another site carries another or none), the ID token must name this issuer, this client and this tab's nonce.
 */
export async function finishSignIn(config: SignInConfig, endpoints: ProviderEndpoints, pending: PendingSignIn | undefined, query: URLSearchParams, fetcher: Fetch = fetch, now = Date.now()): Promise<Tokens> {
  if (!pending || query.get('state') !== pending.state) throw new SignInFailed('This sign-in was not started in this tab. Sign in again.');
  const error = query.get('error');
  if (error) throw new SignInFailed(error === 'access_denied' ? 'Sign-in was cancelled.' : 'The sign-in service could not sign you in. Sign in again.');
  const code = query.get('code');
  if (!code) throw new SignInFailed('The sign-in service sent no code. Sign in again.');
  const body = await tokenRequest(endpoints.tokenEndpoint, { grant_type: 'authorization_code', code, redirect_uri: config.redirectUri, client_id: config.clientId, code_verifier: pending.codeVerifier }, fetcher);
  const tokens = tokensOf(body, now);
  const claims = idTokenClaims(tokens.idToken);
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (claims.iss !== config.issuer || !audience.includes(config.clientId) || claims.nonce !== pending.nonce) throw new SignInFailed('The sign-in service sent an ID token for another sign-in: sign-in stopped.');
  return tokens;
}

/** A new access token for the refresh token (the provider may rotate the refresh token; the ID token may stay). */
export async function refreshTokens(config: SignInConfig, endpoints: ProviderEndpoints, tokens: Tokens, fetcher: Fetch = fetch, now = Date.now()): Promise<Tokens> {
  if (!tokens.refreshToken) throw new SignInFailed('Your session has ended. Sign in again.');
  const body = await tokenRequest(endpoints.tokenEndpoint, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken, client_id: config.clientId }, fetcher);
  return tokensOf(body, now, tokens);
}

/**
 * Signing out: the refresh token revoked at the provider (RFC 7009; with it, the provider ends what it issued), then
 * the provider's own session ended when it offers an end-session endpoint (the URL to send the browser to).
 * A failed revocation does not keep anyone signed in: the tab forgets its tokens either way.
 */
export async function signOutAt(config: SignInConfig, endpoints: ProviderEndpoints, tokens: Tokens, fetcher: Fetch = fetch): Promise<string | undefined> {
  if (endpoints.revocationEndpoint && tokens.refreshToken) {
    await fetcher(endpoints.revocationEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refreshToken, token_type_hint: 'refresh_token', client_id: config.clientId }).toString(),
    }).catch(() => undefined);
  }
  if (!endpoints.endSessionEndpoint) return undefined;
  const url = new URL(endpoints.endSessionEndpoint);
  url.search = new URLSearchParams({ id_token_hint: tokens.idToken, client_id: config.clientId, post_logout_redirect_uri: config.signOutRedirectUri }).toString();
  return url.toString();
}

/** The config file's fields, checked: a page given something else says so rather than sending anyone anywhere. */
export function signInConfigOf(value: unknown): SignInConfig {
  const fields = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const { issuer, clientId, redirectUri, signOutRedirectUri, revocationEndpoint } = fields;
  if (!isHttpsOrLocal(issuer) || typeof clientId !== 'string' || !clientId || !isHttpsOrLocal(redirectUri) || !isHttpsOrLocal(signOutRedirectUri)) {
    throw new SignInFailed('Sign-in is not set up for this dashboard.');
  }
  return { issuer, clientId, redirectUri, signOutRedirectUri, ...(isHttpsOrLocal(revocationEndpoint) ? { revocationEndpoint } : {}) };
}
