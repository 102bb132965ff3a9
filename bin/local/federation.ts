import { createHash, randomBytes } from 'node:crypto';
import type { IdentityProviderRegistry, LocalIdentityProvider } from './identity-provider-registry';
import type { LocalUser, LocalUserDirectory } from './user-directory';

/** A sign-in sent to a customer's provider must come back within this long (Cognito's managed login allows minutes). */
const FEDERATION_SECONDS = 600;

interface PendingSignIn {
  interactionUid: string;
  provider: LocalIdentityProvider;
  domain: string;
  codeVerifier: string;
  nonce: string;
  expiresAt: number;
}

interface ProviderConfiguration {
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint: string;
  issuer: string;
}

/**
 * What Cognito does for a pool's OIDC identity providers, for a local run: a person whose email domain a provider
 * names is sent to that provider (authorization code with PKCE, state and nonce), comes back to the pool's
 * `/oauth2/idpresponse`, and is signed in as the local user of the email the provider vouched for (made on the
 * first sign-in, as Cognito links a federated user). The ID token is verified against the provider's keys, issuer,
 * audience and nonce, and its email must be verified and of the provider's domain. SAML providers are registered
 * but not played locally.
 */
export class LocalFederation {
  private readonly pending = new Map<string, PendingSignIn>();
  private readonly tickets = new Map<string, { interactionUid: string; sub: string; expiresAt: number }>();

  constructor(
    private readonly registry: IdentityProviderRegistry,
    private readonly users: LocalUserDirectory,
    /** The pool's issuer: its `/oauth2/idpresponse` is the redirect URI every customer's provider registers. */
    private readonly poolIssuer: string,
  ) {}

  get redirectUri(): string {
    return `${this.poolIssuer}/oauth2/idpresponse`;
  }

  /** The provider this client sends the email's people to, if its domain has one: their password is never asked. */
  providerFor(clientId: string, email: string): LocalIdentityProvider | undefined {
    return this.registry.providerForEmail(clientId, email);
  }

  /** Where to send the browser: the provider's authorization endpoint, bound to this interaction by `state`. */
  async start(interactionUid: string, provider: LocalIdentityProvider, email: string): Promise<string> {
    const configuration = await discover(provider);
    const state = randomBytes(24).toString('base64url');
    const codeVerifier = randomBytes(32).toString('base64url');
    const nonce = randomBytes(16).toString('base64url');
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    this.pending.set(state, { interactionUid, provider, domain, codeVerifier, nonce, expiresAt: Date.now() + FEDERATION_SECONDS * 1000 });
    const url = new URL(configuration.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: provider.details.client_id ?? '',
      redirect_uri: this.redirectUri,
      scope: provider.details.authorize_scopes ?? 'openid email',
      state,
      nonce,
      code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
      login_hint: email,
    }).toString();
    return url.toString();
  }

  /**
   * The provider's answer at `/oauth2/idpresponse`: a one-time ticket for the interaction it belongs to, or an
   * error message for the person. A state used before, unknown or expired is refused.
   */
  async finish(query: URLSearchParams): Promise<{ interactionUid: string; ticket: string } | { error: string }> {
    const state = query.get('state') ?? '';
    const pending = this.pending.get(state);
    this.pending.delete(state);
    if (!pending || pending.expiresAt < Date.now()) return { error: 'This sign-in has expired or is not yours. Start again from the application.' };
    const code = query.get('code');
    if (!code) return { error: `Your organisation's sign-in refused: ${query.get('error_description') ?? query.get('error') ?? 'no code'}.` };
    try {
      const user = await this.userFrom(pending, code);
      const ticket = randomBytes(24).toString('base64url');
      this.tickets.set(ticket, { interactionUid: pending.interactionUid, sub: user.sub, expiresAt: Date.now() + 60_000 });
      return { interactionUid: pending.interactionUid, ticket };
    } catch (error) {
      return { error: `Your organisation's sign-in could not be completed: ${error instanceof Error ? error.message : 'unknown error'}.` };
    }
  }

  /** The user a ticket stands for, once, and only for the interaction it was made for. */
  redeem(ticket: string, interactionUid: string): string | undefined {
    const found = this.tickets.get(ticket);
    this.tickets.delete(ticket);
    return found && found.interactionUid === interactionUid && found.expiresAt >= Date.now() ? found.sub : undefined;
  }

  private async userFrom(pending: PendingSignIn, code: string): Promise<LocalUser> {
    const configuration = await discover(pending.provider);
    const clientId = pending.provider.details.client_id ?? '';
    const response = await fetch(configuration.token_endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(pending.provider.details.client_secret ?? '')}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: this.redirectUri, code_verifier: pending.codeVerifier }),
    });
    if (!response.ok) throw new Error(`the token endpoint answered ${response.status}`);
    const { id_token: idToken, access_token: accessToken } = (await response.json()) as { id_token?: string; access_token?: string };
    if (!idToken || !accessToken) throw new Error('no ID token');
    // ESM only, like oidc-provider: loaded by a local stack's sign-in, never by the tests that import this module.
    const { createRemoteJWKSet, jwtVerify } = await import('jose');
    const { payload } = await jwtVerify(idToken, createRemoteJWKSet(new URL(configuration.jwks_uri)), { issuer: configuration.issuer, audience: clientId });
    if (payload.nonce !== pending.nonce) throw new Error('the ID token is not this sign-in\'s');
    // The person's attributes from the userinfo endpoint, as Cognito asks for them (attributes_request_method).
    const info = (await (await fetch(configuration.userinfo_endpoint, { headers: { authorization: `Bearer ${accessToken}` } })).json()) as Record<string, unknown>;
    if (info.sub !== payload.sub) throw new Error('the userinfo answer is about someone else');
    const email = typeof info.email === 'string' ? info.email.toLowerCase() : '';
    if (info.email_verified !== true) throw new Error('the provider has not verified the email');
    if (!email.endsWith(`@${pending.domain}`)) throw new Error(`the provider vouched for an email outside ${pending.domain}`);
    const existing = this.users.findByEmail(email);
    if (existing) return existing;
    // A federated person never signs in with a password here: theirs is random and never shown.
    const created = await this.users.create(email, randomBytes(24).toString('base64url'), { permanent: true, emailVerified: true });
    if (!created) throw new Error('the user could not be made');
    return created;
  }
}

async function discover(provider: LocalIdentityProvider): Promise<ProviderConfiguration> {
  const issuer = (provider.details.oidc_issuer ?? '').replace(/\/$/, '');
  const response = await fetch(`${issuer}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`the provider's discovery answered ${response.status}`);
  return (await response.json()) as ProviderConfiguration;
}
