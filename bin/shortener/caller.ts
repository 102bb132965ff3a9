import { createShortenerClient, type ShortenerClient } from '../../clients/typescript/src';
import { UsageError } from './csv-links';
import { readCredentials, writeCredentials, type StoredSignIn } from './sign-in/credentials-file';
import { refreshTokens } from './sign-in/oidc-client';

/** An access token this close to its end is renewed first: it must not expire between here and the API. */
const RENEW_BEFORE_MS = 60_000;

export interface CallerOptions {
  /** `--workspace acct_…`: the workspace a person acts in, before SHORTENER_WORKSPACE and the stored default. */
  workspace?: string;
}

const NO_API_URL = 'SHORTENER_API_URL is not set: export it as the API address (npm start prints it; a deployment has the ApiUrl output)';

/** The stored sign-in with a live access token, renewed with its refresh token (and saved) when it is about to end. */
async function freshSignIn(env: NodeJS.ProcessEnv): Promise<StoredSignIn | undefined> {
  const stored = await readCredentials(env);
  if (!stored || Date.parse(stored.expiresAt) - Date.now() > RENEW_BEFORE_MS) return stored;
  if (!stored.refreshToken) throw new UsageError('your sign-in has expired: run `shortener login` again');
  const renewed = await refreshTokens(stored.tokenEndpoint, stored.clientId, stored.refreshToken);
  const next: StoredSignIn = { ...stored, accessToken: renewed.accessToken, expiresAt: new Date(Date.now() + renewed.expiresIn * 1000).toISOString(), ...(renewed.refreshToken ? { refreshToken: renewed.refreshToken } : {}) };
  await writeCredentials(next, env);
  return next;
}

/**
 * A person's client: SHORTENER_TOKEN (an access token from elsewhere) or else the sign-in `shortener login` stored,
 * acting in `--workspace`, SHORTENER_WORKSPACE or the stored default, sent as `Authorization: Bearer` and
 * `Shortener-Workspace`. Never an API key: keys and members are managed by people only.
 */
export async function personClient(options: CallerOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<ShortenerClient> {
  const stored = env.SHORTENER_TOKEN ? undefined : await freshSignIn(env);
  const baseUrl = env.SHORTENER_API_URL ?? stored?.apiUrl;
  const token = env.SHORTENER_TOKEN ?? stored?.accessToken;
  const workspace = options.workspace ?? env.SHORTENER_WORKSPACE ?? stored?.workspace;
  if (!baseUrl) throw new UsageError(NO_API_URL);
  if (!token) throw new UsageError('SHORTENER_TOKEN is not set and nobody is signed in: run `shortener login` (this is for people: a key cannot do it)');
  if (!workspace) throw new UsageError('SHORTENER_WORKSPACE is not set: pass --workspace acct_… (or sign in with `shortener login --workspace acct_…`)');
  return createShortenerClient({ baseUrl, apiKey: token, workspace });
}

/** SHORTENER_API_KEY when set, exactly as before sign-in existed; otherwise the signed-in person. */
export async function apiClient(options: CallerOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<ShortenerClient> {
  if (env.SHORTENER_API_KEY) {
    if (!env.SHORTENER_API_URL) throw new UsageError(NO_API_URL);
    return createShortenerClient({ baseUrl: env.SHORTENER_API_URL, apiKey: env.SHORTENER_API_KEY });
  }
  if (!env.SHORTENER_TOKEN && !(await readCredentials(env))) {
    if (!env.SHORTENER_API_URL) throw new UsageError(NO_API_URL);
    throw new UsageError('SHORTENER_API_KEY is not set: export your API key (npm run ops -- keys create issues one), or sign in with `shortener login`');
  }
  return personClient(options, env);
}
