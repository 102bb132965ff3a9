import { createHash, randomBytes } from 'node:crypto';
import { UsageError } from '../csv-links';

/** The provider's endpoints, from its discovery document (Cognito's names no revocation endpoint: see below). */
export interface ProviderEndpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  revocationEndpoint: string;
}

export interface TokenAnswer {
  accessToken: string;
  refreshToken?: string;
  /** Seconds from now. */
  expiresIn: number;
}

/** A provider that does not answer in this time is not going to: the command says so rather than hang. */
const PROVIDER_TIMEOUT_MS = 15_000;
const SCOPES = 'openid email profile';

/** PKCE (RFC 7636): the verifier stays here, its S256 challenge goes with the authorization request. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const newState = (): string => randomBytes(24).toString('base64url');

async function providerCall(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    throw new UsageError(`cannot reach the sign-in provider at ${new URL(url).origin}: ${(error as Error).message}`);
  }
}

/**
 * `<issuer>/.well-known/openid-configuration`. Cognito serves the authorization and token endpoints on the pool's
 * managed login domain and revokes at `/oauth2/revoke` beside the token endpoint without naming it in discovery;
 * the local provider names its own.
 */
export async function discover(issuer: string): Promise<ProviderEndpoints> {
  const response = await providerCall(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`);
  const document = response.ok ? ((await response.json().catch(() => ({}))) as Record<string, unknown>) : {};
  const { authorization_endpoint: authorizationEndpoint, token_endpoint: tokenEndpoint, revocation_endpoint: revocation } = document;
  if (typeof authorizationEndpoint !== 'string' || typeof tokenEndpoint !== 'string') throw new UsageError(`${issuer} is not a sign-in provider (its discovery document answered ${response.status})`);
  return { authorizationEndpoint, tokenEndpoint, revocationEndpoint: typeof revocation === 'string' ? revocation : new URL('revoke', tokenEndpoint).href };
}

export function authorizationUrl(endpoints: ProviderEndpoints, request: { clientId: string; redirectUri: string; state: string; challenge: string }): string {
  const url = new URL(endpoints.authorizationEndpoint);
  for (const [name, value] of Object.entries({
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    response_type: 'code',
    scope: SCOPES,
    state: request.state,
    code_challenge: request.challenge,
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(name, value);
  return url.href;
}

async function tokenRequest(tokenEndpoint: string, form: Record<string, string>): Promise<TokenAnswer> {
  const response = await providerCall(tokenEndpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  const body = (await response.json().catch(() => ({}))) as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown; error?: unknown };
  if (!response.ok || typeof body.access_token !== 'string') throw new UsageError(`the sign-in provider refused the tokens (${response.status}${typeof body.error === 'string' ? ` ${body.error}` : ''}): run \`shortener login\``);
  return { accessToken: body.access_token, ...(typeof body.refresh_token === 'string' ? { refreshToken: body.refresh_token } : {}), expiresIn: Number(body.expires_in) || 0 };
}

export const redeemCode = (tokenEndpoint: string, request: { clientId: string; code: string; verifier: string; redirectUri: string }) =>
  tokenRequest(tokenEndpoint, { grant_type: 'authorization_code', client_id: request.clientId, code: request.code, code_verifier: request.verifier, redirect_uri: request.redirectUri });

export const refreshTokens = (tokenEndpoint: string, clientId: string, refreshToken: string) => tokenRequest(tokenEndpoint, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });

/** Revokes the refresh token (and with it, on Cognito, the access tokens it made). True when the provider agreed. */
export async function revokeRefreshToken(revocationEndpoint: string, clientId: string, refreshToken: string): Promise<boolean> {
  const response = await providerCall(revocationEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: refreshToken, token_type_hint: 'refresh_token', client_id: clientId }).toString(),
  });
  return response.ok;
}
