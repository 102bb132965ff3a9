import { createHash, randomBytes } from 'node:crypto';
import {
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  CompleteWebAuthnRegistrationCommand,
  SetUserMFAPreferenceCommand,
  StartWebAuthnRegistrationCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { CLI_CALLBACK_PORTS, cliCallbackUrl } from '../../clients/sign-in/cli-callback';
import { totpCode } from '../../bin/local/totp';
import { readLocalTopology, servedOverHttp, LOCAL_REGION } from '../../bin/local/stack';

/**
 * People's sign-in for end-to-end and browser tests: a person's access token from the local user pool's provider
 * through the real authorization-code flow with PKCE (plain HTTP with cookies, no browser), and extra local users
 * made through the pool's admin API (the local Cognito stand-in), as an operator would on AWS.
 *
 *   const { accessToken } = await signIn(devUser());
 *   const user = await createUser();            // a confirmed user with a fresh email and password
 *   const { accessToken } = await signIn(user);
 *   const totpSecret = await enrollTotp(accessToken);   // MFA on: signIn({ ...user, totpSecret }) from then on
 */

export interface Credentials {
  email: string;
  password: string;
  /** For people who turned MFA on: their authenticator's secret, from which the sign-in's code is made. */
  totpSecret?: string;
}

export interface Tokens {
  accessToken: string;
  idToken: string;
  refreshToken?: string;
  expiresIn: number;
}

/** Where a sign-in goes: the provider's issuer, the app client, and the client's registered callback. */
export interface SignInTarget {
  issuer: string;
  clientId: string;
  redirectUri: string;
  poolId: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: these tests run in the "stack" project, whose global setup starts the local stack`);
  return value;
}

/** The development user `npm start` printed: an owner of the dev key's workspace. */
export function devUser(): Credentials {
  return { email: required('LOCAL_DEV_USER_EMAIL'), password: required('LOCAL_DEV_USER_PASSWORD') };
}

/** The running local stack's pool and its (dashboard's) client, read from the template as the stack reads them. */
export function localSignInTarget(): SignInTarget {
  const baseUrl = required('LOCAL_STACK_URL');
  const pool = readLocalTopology(baseUrl).userPools[0];
  const client = pool && servedOverHttp(pool, baseUrl).clients[0];
  const redirectUri = client?.callbackUrls[0];
  if (!pool || !client || !redirectUri) throw new Error('the template has no user pool client with a callback');
  return { issuer: required('LOCAL_SIGN_IN_ISSUER'), clientId: client.id, redirectUri, poolId: pool.id };
}

/** The command line's app client (`shortener login`): the template's client whose callbacks are the CLI's loopback ones. */
export function localCliClientId(): string {
  const pool = readLocalTopology(required('LOCAL_STACK_URL')).userPools[0];
  const client = pool?.clients.find((candidate) => candidate.callbackUrls.length > 0 && candidate.callbackUrls.every((url) => CLI_CALLBACK_PORTS.some((port) => cliCallbackUrl(port) === url)));
  if (!client) throw new Error('the template has no app client for the command line');
  return client.id;
}

/** A browser's cookies, just enough of them: one host, every path. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** PKCE's pair: the secret verifier kept by the client, its S256 challenge sent with the request. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The authorization request's URL; `overrides` replace or (with undefined) drop parameters, for abuse tests. */
export function authorizationUrl(target: SignInTarget, challenge: string, overrides: Record<string, string | undefined> = {}): string {
  const url = new URL(`${target.issuer}/auth`);
  const parameters: Record<string, string | undefined> = {
    client_id: target.clientId,
    redirect_uri: target.redirectUri,
    response_type: 'code',
    // The dashboard's scopes: aws.cognito.signin.user.admin lets the person turn on an authenticator app.
    scope: 'openid email profile aws.cognito.signin.user.admin',
    state: randomBytes(12).toString('base64url'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

async function step(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string> | undefined), cookie: jar.header() } });
  jar.take(response);
  return response;
}

function locationOf(response: Response, base: string, what: string): string {
  const location = response.headers.get('location');
  if (response.status < 300 || response.status > 399 || !location) throw new Error(`${what}: expected a redirect, got ${response.status} at ${response.url}`);
  return new URL(location, base).href;
}

/**
 * Signs in as a person would: the authorization request, the sign-in page's form, the redirect back to the
 * client's callback with a code, and the code exchanged (with the PKCE verifier) at the token endpoint.
 */
export async function signIn(credentials: Credentials, target: SignInTarget = localSignInTarget(), overrides: Record<string, string | undefined> = {}): Promise<Tokens> {
  const { code, verifier } = await authorizationCode(credentials, target, overrides);
  return exchangeCode(target, code, verifier);
}

/** The first half of signing in: the code the callback receives, and the PKCE verifier it must be redeemed with. */
export async function authorizationCode(credentials: Credentials, target: SignInTarget = localSignInTarget(), overrides: Record<string, string | undefined> = {}): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkcePair();
  const next = await signInThrough(credentials, authorizationUrl(target, challenge, overrides), target.redirectUri);
  const code = new URL(next).searchParams.get('code');
  if (!code) throw new Error(`the callback carried no code: ${next}`);
  return { code, verifier };
}

/**
 * A person signing in from an authorization request someone else made (`shortener login` prints its own): the
 * sign-in page's form, then the provider's redirects up to the callback, whose URL (code and state) is returned
 * without being visited.
 */
export async function signInThrough(credentials: Credentials, authorizationRequest: string, redirectUri: string): Promise<string> {
  const jar = new CookieJar();
  const started = await step(jar, authorizationRequest);
  const pageUrl = locationOf(started, authorizationRequest, 'the authorization request');
  const page = await step(jar, pageUrl);
  const action = /<form method="post" action="([^"]+)"/.exec(await page.text())?.[1];
  if (page.status !== 200 || !action) throw new Error(`the sign-in page answered ${page.status}`);
  const submitted = await step(jar, new URL(action.replaceAll('&#47;', '/'), pageUrl).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: credentials.email, password: credentials.password }).toString(),
  });
  if (submitted.status === 401) throw new Error(`signing in as ${credentials.email} was refused`);
  let next = submitted.status === 200 ? await secondFactor(jar, submitted, pageUrl, credentials) : locationOf(submitted, pageUrl, 'the sign-in form');
  // The provider resumes the authorization, then sends the browser to the callback with the code.
  while (!next.startsWith(redirectUri)) next = locationOf(await step(jar, next), next, 'the resumed authorization');
  return next;
}

/** The authenticator step of someone who turned MFA on: the page asks for a code, made here from their secret. */
async function secondFactor(jar: CookieJar, page: Response, pageUrl: string, credentials: Credentials): Promise<string> {
  const action = /<form method="post" action="([^"]+)"/.exec(await page.text())?.[1];
  if (!action?.endsWith('/totp')) throw new Error('the sign-in form answered 200 without asking for a code');
  if (!credentials.totpSecret) throw new Error(`signing in as ${credentials.email} asks for an authenticator code`);
  const answered = await step(jar, new URL(action, pageUrl).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ code: totpCode(credentials.totpSecret) }).toString(),
  });
  if (answered.status === 401) throw new Error(`the authenticator code of ${credentials.email} was refused`);
  return locationOf(answered, pageUrl, 'the authenticator form');
}

/**
 * Turns MFA on for the person whose access token this is, as an app does on Cognito: AssociateSoftwareToken (the
 * secret to put in an authenticator app), VerifySoftwareToken (a code from it), SetUserMFAPreference. The secret.
 */
export async function enrollTotp(accessToken: string): Promise<string> {
  const client = cognito();
  const { SecretCode } = await client.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
  if (!SecretCode) throw new Error('AssociateSoftwareToken returned no secret');
  await client.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: totpCode(SecretCode) }));
  await client.send(new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));
  return SecretCode;
}

/** The token endpoint's answer to a code (and the verifier its challenge was made from). */
export async function exchangeCode(target: SignInTarget, code: string, verifier: string, redirectUri = target.redirectUri): Promise<Tokens> {
  const response = await fetch(`${target.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: target.clientId, code_verifier: verifier }).toString(),
  });
  const body = (await response.json()) as { access_token?: string; id_token?: string; refresh_token?: string; expires_in?: number; error?: string };
  if (!response.ok || !body.access_token || !body.id_token) throw new Error(`the token endpoint answered ${response.status} ${body.error ?? ''}`);
  return { accessToken: body.access_token, idToken: body.id_token, ...(body.refresh_token ? { refreshToken: body.refresh_token } : {}), expiresIn: Number(body.expires_in) };
}

/** The local pool's admin API (Cognito's, played on the provider's port). */
function cognito(): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({ region: LOCAL_REGION, endpoint: new URL(required('LOCAL_SIGN_IN_ISSUER')).origin, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** A new confirmed user of the local pool (a fresh email and password unless given), and their `sub`. */
export async function createUser(credentials: Partial<Credentials> = {}): Promise<Credentials & { sub: string }> {
  const email = credentials.email ?? `person-${randomBytes(6).toString('hex')}@example.com`;
  const password = credentials.password ?? `Pw-${randomBytes(12).toString('base64url')}-1`;
  const { poolId } = localSignInTarget();
  const client = cognito();
  const created = await client.send(
    new AdminCreateUserCommand({ UserPoolId: poolId, Username: email, UserAttributes: [{ Name: 'email', Value: email }, { Name: 'email_verified', Value: 'true' }], MessageAction: 'SUPPRESS' }),
  );
  await client.send(new AdminSetUserPasswordCommand({ UserPoolId: poolId, Username: email, Password: password, Permanent: true }));
  const sub = created.User?.Username;
  if (!sub) throw new Error('AdminCreateUser returned no user');
  return { email, password, sub };
}

/** The token endpoint's answer to a refresh token: its status, and the new access token when there is one. */
export async function refresh(refreshToken: string, target: SignInTarget = localSignInTarget()): Promise<{ status: number; accessToken?: string; error?: string }> {
  const response = await fetch(`${target.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: target.clientId }).toString(),
  });
  const body = (await response.json()) as { access_token?: string; error?: string };
  return { status: response.status, ...(body.access_token ? { accessToken: body.access_token } : {}), ...(body.error ? { error: body.error } : {}) };
}

/** Revokes a refresh token at the provider's revocation endpoint (RFC 7009), as the dashboard's sign-out does. */
export async function revoke(refreshToken: string, target: SignInTarget = localSignInTarget()): Promise<number> {
  const response = await fetch(`${target.issuer}/token/revocation`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: refreshToken, token_type_hint: 'refresh_token', client_id: target.clientId }).toString(),
  });
  return response.status;
}

/** An access token's claims, unverified (what a test reads of a token it was just given). */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
}

/** What answers a sign-in page's passkey challenge: an assertion made with the options it got (a software passkey in tests). */
export type PasskeyAnswer = (options: { challenge: string; rpId: string }, signInOrigin: string) => unknown;

/**
 * Signs in with a passkey as the local sign-in page's script does, over plain HTTP: the authorization request, the
 * page's challenge (`…/passkey-options`, bound to the interaction by its cookie), the answer posted to `…/passkey`,
 * the redirects to the callback and the code exchanged. Returns the tokens, or the status the page refused with.
 */
export async function signInWithPasskey(answer: PasskeyAnswer, target: SignInTarget = localSignInTarget()): Promise<{ tokens?: Tokens; status: number }> {
  const jar = new CookieJar();
  const { verifier, challenge } = pkcePair();
  const request = authorizationUrl(target, challenge);
  const pageUrl = locationOf(await step(jar, request), request, 'the authorization request');
  const page = await (await step(jar, pageUrl)).text();
  const action = /<form id="passkey-form" method="post" action="([^"]+)" data-options="([^"]+)"/.exec(page);
  if (!action?.[1] || !action[2]) throw new Error('the sign-in page offers no passkey');
  const options = (await (await step(jar, new URL(action[2], pageUrl).href, { method: 'POST' })).json()) as { challenge: string; rpId: string };
  const assertion = answer(options, new URL(target.issuer).origin);
  const submitted = await step(jar, new URL(action[1], pageUrl).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ assertion: JSON.stringify(assertion) }).toString(),
  });
  if (submitted.status < 300 || submitted.status > 399) return { status: submitted.status };
  let next = locationOf(submitted, pageUrl, 'the passkey form');
  while (!next.startsWith(target.redirectUri)) next = locationOf(await step(jar, next), next, 'the resumed authorization');
  const code = new URL(next).searchParams.get('code');
  if (!code) throw new Error(`the callback carried no code: ${next}`);
  return { tokens: await exchangeCode(target, code, verifier), status: submitted.status };
}

/** Registers a passkey for the person whose access token this is, as the dashboard's Security page does: the credential it answered with is `make`'s. */
export async function registerPasskey(accessToken: string, make: (options: { challenge: string; rp: { id: string } }, dashboardOrigin: string) => unknown): Promise<void> {
  const client = cognito();
  const { CredentialCreationOptions } = await client.send(new StartWebAuthnRegistrationCommand({ AccessToken: accessToken }));
  const credential = make(CredentialCreationOptions as { challenge: string; rp: { id: string } }, new URL(localSignInTarget().redirectUri).origin);
  await client.send(new CompleteWebAuthnRegistrationCommand({ AccessToken: accessToken, Credential: credential as never }));
}
