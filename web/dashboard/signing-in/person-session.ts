import { discover, idTokenClaims, refreshTokens, signInConfigOf, signOutAt, type ProviderEndpoints, type SignInConfig, type Tokens } from './oidc';
import { keepTokens } from '../session';
import { BASE, SIGN_IN_CONFIG_FILE } from '../places';

/** Renewed this long before it expires, so no request leaves with a token that dies on the way. */
const RENEW_BEFORE_MS = 30_000;

export interface SignInSetup {
  config: SignInConfig;
  endpoints: ProviderEndpoints;
}

let setup: Promise<SignInSetup> | undefined;

/** The deployment's sign-in settings (`/app/config.json`, next to the page) and the provider's endpoints, read once per tab. */
export function signInSetup(): Promise<SignInSetup> {
  setup ??= (async () => {
    const response = await fetch(`${location.origin}${BASE}/${SIGN_IN_CONFIG_FILE}`, { headers: { accept: 'application/json' }, cache: 'no-cache' });
    const config = signInConfigOf(response.ok ? await response.json().catch(() => undefined) : undefined);
    return { config, endpoints: await discover(config) };
  })();
  // A failure is not kept: the next attempt reads again.
  setup.catch(() => {
    setup = undefined;
  });
  return setup;
}

/**
 * A signed-in person in this tab: the tokens in memory (and the tab's sessionStorage, for a reload), the access token
 * renewed with the refresh token before it expires, one renewal at a time.
 */
export class PersonSession {
  private renewal: Promise<Tokens> | undefined;

  constructor(
    private readonly setup: SignInSetup,
    private tokens: Tokens,
  ) {}

  /** Who is signed in, as the ID token names them: their user id (`sub`) and email. */
  get person(): { sub: string; email?: string } {
    const { sub, email } = idTokenClaims(this.tokens.idToken);
    return { sub: String(sub), ...(typeof email === 'string' ? { email } : {}) };
  }

  /** The provider's issuer: the pool's user API (turning on an authenticator app) answers at its origin. */
  get issuer(): string {
    return this.setup.config.issuer;
  }

  /** Whether this session's sign-in used MFA: its access token's `mfa` claim, what a workspace requiring MFA checks. */
  get signedInWithMfa(): boolean {
    try {
      return idTokenClaims(this.tokens.accessToken).mfa === true;
    } catch {
      return false;
    }
  }

  /** A current access token; throws (SignInFailed) when the session cannot be renewed. */
  async accessToken(): Promise<string> {
    if (this.tokens.expiresAt - Date.now() > RENEW_BEFORE_MS) return this.tokens.accessToken;
    this.renewal ??= refreshTokens(this.setup.config, this.setup.endpoints, this.tokens).finally(() => {
      this.renewal = undefined;
    });
    this.tokens = await this.renewal;
    keepTokens(this.tokens);
    return this.tokens.accessToken;
  }

  /** Revokes the refresh token; the provider's end-session URL when it offers one (the caller navigates there). */
  signOut(): Promise<string | undefined> {
    return signOutAt(this.setup.config, this.setup.endpoints, this.tokens);
  }
}
