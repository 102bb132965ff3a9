import { JwtRsaVerifier } from 'aws-jwt-verify';
import { FetchError } from 'aws-jwt-verify/error';
import type { Fetcher } from 'aws-jwt-verify/https';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { MFA_CLAIM } from '../domain/accounts/sign-in-mfa';
import type { AccessTokenVerifier, PersonIdentity } from '../domain/ports';

/** A JWKS that takes longer than this is not coming: the request fails (500) rather than waiting out the authorizer. */
const JWKS_TIMEOUT_MS = 3000;

/**
 * Fetches the JWKS with the runtime's fetch: the library's own fetcher speaks https only, and the local provider
 * serves plain http on localhost. The same code runs on AWS (Cognito's https JWKS) and locally.
 */
export const jwksFetcher: Fetcher = {
  async fetch(uri: string): Promise<ArrayBuffer> {
    let response: Response;
    try {
      response = await fetch(uri, { signal: AbortSignal.timeout(JWKS_TIMEOUT_MS) });
    } catch (error) {
      throw new FetchError(uri, error instanceof Error ? error.message : String(error));
    }
    if (response.status !== 200) throw new FetchError(uri, `Status code is ${response.status}, expected 200`);
    return response.arrayBuffer();
  },
};

/**
 * Cognito access tokens (or the local provider's, shaped the same): RS256 from the pool's JWKS, the pool's issuer,
 * not expired, `token_use: access` and the `client_id` of one of the pool's own clients, the dashboard's or the
 * command line's (access tokens carry no `aud`). The JWKS
 * is fetched on the first token and kept; an unknown key id fetches it again, at most once per 10 s (a rotation).
 */
export class CognitoAccessTokens implements AccessTokenVerifier {
  private readonly verifier;

  constructor(settings: { issuer: string; jwksUrl: string; clientIds: readonly string[] }) {
    this.verifier = JwtRsaVerifier.create(
      {
        issuer: settings.issuer,
        jwksUri: settings.jwksUrl,
        audience: null,
        customJwtCheck: ({ payload }) => {
          if (payload.token_use !== 'access') throw new Error('not an access token');
          if (typeof payload.client_id !== 'string' || !settings.clientIds.includes(payload.client_id)) throw new Error('another client\'s token');
        },
      },
      { jwksCache: new SimpleJwksCache({ fetcher: jwksFetcher }) },
    );
  }

  async verify(token: string): Promise<PersonIdentity | undefined> {
    try {
      const payload = await this.verifier.verify(token);
      if (typeof payload.sub !== 'string' || payload.sub === '') return undefined;
      return { sub: payload.sub, ...(typeof payload.email === 'string' ? { email: payload.email } : {}), mfa: payload[MFA_CLAIM] === true };
    } catch (error) {
      // The pool's keys out of reach is an outage, not a bad token.
      if (error instanceof FetchError) throw error;
      return undefined;
    }
  }
}
