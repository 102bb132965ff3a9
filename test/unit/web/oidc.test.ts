import { createHash } from 'node:crypto';
import { codeChallengeOf, discover, finishSignIn, refreshTokens, signInConfigOf, signOutAt, startSignIn, type PendingSignIn, type ProviderEndpoints, type SignInConfig } from '../../../web/dashboard/signing-in/oidc';

/** Issue 29: the dashboard signs people in as a public OpenID Connect client (code + PKCE S256, state, nonce). */
const config: SignInConfig = {
  issuer: 'http://localhost:9229/UserPool',
  clientId: 'dashboard-client',
  redirectUri: 'http://dashboard.localhost:3000/app/signed-in',
  signOutRedirectUri: 'http://dashboard.localhost:3000/app/',
};
const endpoints: ProviderEndpoints = {
  authorizationEndpoint: `${config.issuer}/auth`,
  tokenEndpoint: `${config.issuer}/token`,
  revocationEndpoint: `${config.issuer}/token/revocation`,
  endSessionEndpoint: `${config.issuer}/session/end`,
};
const pending: PendingSignIn = { state: 'the-state', nonce: 'the-nonce', codeVerifier: 'v'.repeat(43), returnTo: '/app/domains' };

const jwt = (claims: object) => ['{"alg":"RS256"}', JSON.stringify(claims), 'signature'].map((part, index) => (index < 2 ? Buffer.from(part).toString('base64url') : part)).join('.');
const idToken = (claims: object = {}) => jwt({ iss: config.issuer, aud: config.clientId, nonce: pending.nonce, sub: 'u1', email: 'ana@example.com', ...claims });

/** A fetch that answers `body` with `status` and records what it was asked. */
function fetchAnswering(body: unknown, status = 200) {
  const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
  const fetcher = (async (url: string, init?: RequestInit) => {
    calls.push({ url: String(url), init });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { fetcher, calls, form: (index = 0) => new URLSearchParams(String(calls[index]?.init?.body)) };
}

const callback = (fields: Record<string, string>) => new URLSearchParams(fields);

describe('discovery', () => {
  it('reads the endpoints from the issuer\'s own document', async () => {
    const { fetcher, calls } = fetchAnswering({ issuer: config.issuer, authorization_endpoint: endpoints.authorizationEndpoint, token_endpoint: endpoints.tokenEndpoint, revocation_endpoint: endpoints.revocationEndpoint, end_session_endpoint: endpoints.endSessionEndpoint });
    await expect(discover(config, fetcher)).resolves.toEqual(endpoints);
    expect(calls[0]?.url).toBe(`${config.issuer}/.well-known/openid-configuration`);
  });

  it('stops when the document names another issuer (a document from elsewhere would send people to another provider)', async () => {
    const { fetcher } = fetchAnswering({ issuer: 'https://evil.example', authorization_endpoint: 'https://evil.example/auth', token_endpoint: 'https://evil.example/token' });
    await expect(discover(config, fetcher)).rejects.toThrow('another issuer');
  });

  it('refuses endpoints that are not web addresses, and takes the configured revocation endpoint when the document has none (Cognito)', async () => {
    await expect(discover(config, fetchAnswering({ issuer: config.issuer, authorization_endpoint: 'javascript:alert(1)', token_endpoint: endpoints.tokenEndpoint }).fetcher)).rejects.toThrow('incompletely');
    const cognito = { ...config, revocationEndpoint: 'https://pool.auth.eu-west-1.amazoncognito.com/oauth2/revoke' };
    const found = await discover(cognito, fetchAnswering({ issuer: config.issuer, authorization_endpoint: endpoints.authorizationEndpoint, token_endpoint: endpoints.tokenEndpoint }).fetcher);
    expect(found).toEqual({ authorizationEndpoint: endpoints.authorizationEndpoint, tokenEndpoint: endpoints.tokenEndpoint, revocationEndpoint: cognito.revocationEndpoint });
  });
});

describe('starting a sign-in', () => {
  it('sends the exact callback, a fresh state and nonce, and the S256 challenge of a fresh verifier', async () => {
    const { pending: started, url } = await startSignIn(config, endpoints, '/app/usage');
    const query = new URL(url).searchParams;
    expect(url.startsWith(`${endpoints.authorizationEndpoint}?`)).toBe(true);
    expect(Object.fromEntries(query)).toEqual({
      response_type: 'code',
      client_id: config.clientId,
      redirect_uri: config.redirectUri,
      scope: 'openid email profile aws.cognito.signin.user.admin',
      state: started.state,
      nonce: started.nonce,
      code_challenge: createHash('sha256').update(started.codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    expect(started.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([started.state, started.nonce, started.codeVerifier]).size).toBe(3);
    const again = await startSignIn(config, endpoints, '/app/usage');
    expect(again.pending.state).not.toBe(started.state);
    expect(started.returnTo).toBe('/app/usage');
  });

  it('computes RFC 7636\'s S256 challenge as Node\'s own SHA-256 does', async () => {
    await expect(codeChallengeOf('dBjftJeZ4CVP-mJ92IXrqIo7UBrlxzZGb0Eb8Q3ntrg4k')).resolves.toBe(createHash('sha256').update('dBjftJeZ4CVP-mJ92IXrqIo7UBrlxzZGb0Eb8Q3ntrg4k').digest('base64url'));
  });
});

describe('finishing a sign-in', () => {
  const good = { access_token: 'access', id_token: idToken(), refresh_token: 'refresh', expires_in: 900, token_type: 'Bearer' };

  it('exchanges the code with the verifier and the same callback, and keeps the tokens with their expiry', async () => {
    const { fetcher, calls, form } = fetchAnswering(good);
    const tokens = await finishSignIn(config, endpoints, pending, callback({ code: 'the-code', state: pending.state }), fetcher, 1_000);
    expect(tokens).toEqual({ accessToken: 'access', idToken: good.id_token, refreshToken: 'refresh', expiresAt: 1_000 + 900_000 });
    expect(calls[0]?.url).toBe(endpoints.tokenEndpoint);
    expect(Object.fromEntries(form())).toEqual({ grant_type: 'authorization_code', code: 'the-code', redirect_uri: config.redirectUri, client_id: config.clientId, code_verifier: pending.codeVerifier });
  });

  it.each([
    ['another state (a callback forged by another site)', pending, { code: 'c', state: 'forged' }],
    ['no state', pending, { code: 'c' }],
    ['no sign-in started in this tab', undefined, { code: 'c', state: pending.state }],
  ])('stops before any exchange on %s', async (_case, started, fields) => {
    const { fetcher, calls } = fetchAnswering(good);
    await expect(finishSignIn(config, endpoints, started, callback(fields), fetcher)).rejects.toThrow('not started in this tab');
    expect(calls).toHaveLength(0);
  });

  it('says a cancelled sign-in was cancelled', async () => {
    await expect(finishSignIn(config, endpoints, pending, callback({ error: 'access_denied', state: pending.state }), fetchAnswering(good).fetcher)).rejects.toThrow('cancelled');
  });

  it.each([
    ['another nonce (a replayed ID token)', { nonce: 'old' }],
    ['another issuer', { iss: 'https://evil.example' }],
    ['another client', { aud: 'someone-else' }],
  ])('refuses an ID token with %s', async (_case, claims) => {
    const { fetcher } = fetchAnswering({ ...good, id_token: idToken(claims) });
    await expect(finishSignIn(config, endpoints, pending, callback({ code: 'c', state: pending.state }), fetcher)).rejects.toThrow('another sign-in');
  });

  it('refuses a refused exchange and an unreadable ID token, in words', async () => {
    await expect(finishSignIn(config, endpoints, pending, callback({ code: 'c', state: pending.state }), fetchAnswering({ error: 'invalid_grant' }, 400).fetcher)).rejects.toThrow('refused the sign-in');
    await expect(finishSignIn(config, endpoints, pending, callback({ code: 'c', state: pending.state }), fetchAnswering({ ...good, id_token: 'not.a-jwt!' }).fetcher)).rejects.toThrow('no usable ID token');
  });
});

describe('renewing and signing out', () => {
  const tokens = { accessToken: 'old', idToken: idToken(), refreshToken: 'refresh', expiresAt: 0 };

  it('renews with the refresh token, keeping it and the ID token when the provider sends none', async () => {
    const { fetcher, form } = fetchAnswering({ access_token: 'new', expires_in: 900 });
    await expect(refreshTokens(config, endpoints, tokens, fetcher, 5)).resolves.toEqual({ ...tokens, accessToken: 'new', expiresAt: 5 + 900_000 });
    expect(Object.fromEntries(form())).toEqual({ grant_type: 'refresh_token', refresh_token: 'refresh', client_id: config.clientId });
  });

  it('revokes the refresh token, then names the provider\'s end-session page with the sign-out callback', async () => {
    const { fetcher, calls, form } = fetchAnswering({});
    const url = new URL((await signOutAt(config, endpoints, tokens, fetcher)) ?? '');
    expect(calls[0]?.url).toBe(endpoints.revocationEndpoint);
    expect(Object.fromEntries(form())).toEqual({ token: 'refresh', token_type_hint: 'refresh_token', client_id: config.clientId });
    expect(`${url.origin}${url.pathname}`).toBe(endpoints.endSessionEndpoint);
    expect(Object.fromEntries(url.searchParams)).toEqual({ id_token_hint: tokens.idToken, client_id: config.clientId, post_logout_redirect_uri: config.signOutRedirectUri });
  });

  it('signs out even when the provider cannot be reached, and without an end-session page stays in the dashboard', async () => {
    const unreachable = (async () => {
      throw new TypeError('network');
    }) as typeof fetch;
    await expect(signOutAt(config, { ...endpoints, endSessionEndpoint: undefined } as ProviderEndpoints, tokens, unreachable)).resolves.toBeUndefined();
  });
});

describe('the deployment\'s sign-in settings', () => {
  it('are taken only when every address is a web address', () => {
    expect(signInConfigOf({ ...config, extra: 1 })).toEqual(config);
    for (const broken of [{}, null, 'text', { ...config, issuer: 'javascript:alert(1)' }, { ...config, clientId: '' }, { ...config, redirectUri: 'http://evil.example/app/signed-in' }]) {
      expect(() => signInConfigOf(broken)).toThrow('not set up');
    }
  });
});
