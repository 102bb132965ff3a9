import { spawn } from 'node:child_process';
import { createShortenerClient } from '../../clients/typescript/src';
import { ApiRefusal, messageOf, type Io } from './commands';
import { UsageError } from './csv-links';
import { readCredentials, removeCredentials, writeCredentials } from './sign-in/credentials-file';
import { listenForCallback } from './sign-in/loopback-callback';
import { authorizationUrl, discover, newState, pkcePair, redeemCode, revokeRefreshToken } from './sign-in/oidc-client';

export interface LoginOptions {
  apiUrl?: string;
  issuer?: string;
  clientId?: string;
  workspace?: string;
  /** False with --no-browser: the address is printed only. */
  browser: boolean;
}

/** The platform's way to open an address; a machine without one (a server over ssh) still has the printed address. */
function openBrowser(url: string): void {
  const [command, ...args] = process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['cmd', '/c', 'start', '""', url] : ['xdg-open', url];
  const child = spawn(command as string, args, { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

function setting(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(what);
  return value;
}

/**
 * `shortener login`: the authorization-code flow with PKCE (Cognito has no device flow). The browser signs in on the
 * provider's pages and is sent back to this command's loopback listener with the code, redeemed here with the
 * verifier; the tokens are kept owner-only in the credentials file and never printed.
 */
export async function login(options: LoginOptions, io: Io, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const apiUrl = setting(options.apiUrl ?? env.SHORTENER_API_URL, 'SHORTENER_API_URL is not set: pass --api-url or export it (npm start prints it; a deployment has the ApiUrl output)');
  const issuer = setting(options.issuer ?? env.SHORTENER_ISSUER, 'SHORTENER_ISSUER is not set: pass --issuer (npm start prints it; a deployment has the SignInIssuer output)');
  const clientId = setting(options.clientId ?? env.SHORTENER_CLIENT_ID, 'SHORTENER_CLIENT_ID is not set: pass --client-id (npm start prints it; a deployment has the CliClientId output)');
  const endpoints = await discover(issuer);
  const state = newState();
  const { verifier, challenge } = pkcePair();
  const callback = await listenForCallback(state);
  let code: string;
  try {
    const url = authorizationUrl(endpoints, { clientId, redirectUri: callback.redirectUri, state, challenge });
    io.err(`Sign in in your browser; waiting for it on ${callback.redirectUri}. If no browser opened, open:\n${url}\n`);
    if (options.browser) openBrowser(url);
    code = await callback.code;
  } finally {
    await callback.close();
  }
  const tokens = await redeemCode(endpoints.tokenEndpoint, { clientId, code, verifier, redirectUri: callback.redirectUri });

  const { data, error, response } = await createShortenerClient({ baseUrl: apiUrl, apiKey: tokens.accessToken }).GET('/v2/me');
  if (!data) throw new ApiRefusal(messageOf(error, response.status));
  const workspaceIds = data.workspaces.map((workspace) => workspace.workspaceId);
  if (options.workspace && !workspaceIds.includes(options.workspace)) throw new UsageError(`you are not a member of ${options.workspace}: yours are ${workspaceIds.join(', ') || 'none yet'}`);
  const workspace = options.workspace ?? (workspaceIds.length === 1 ? workspaceIds[0] : undefined);
  const file = await writeCredentials(
    {
      apiUrl,
      issuer,
      clientId,
      tokenEndpoint: endpoints.tokenEndpoint,
      revocationEndpoint: endpoints.revocationEndpoint,
      accessToken: tokens.accessToken,
      ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
      expiresAt: new Date(Date.now() + tokens.expiresIn * 1000).toISOString(),
      ...(data.user.email ? { email: data.user.email } : {}),
      ...(workspace ? { workspace } : {}),
    },
    env,
  );
  for (const { workspaceId, role } of data.workspaces) io.out(`${workspaceId}\t${role}${workspaceId === workspace ? '\tdefault' : ''}\n`);
  io.err(`signed in as ${data.user.email ?? data.user.sub}; kept in ${file} (yours only)${workspace ? '' : '; name a workspace with --workspace acct_… on each command or on `shortener login`'}\n`);
}

/** `shortener logout`: the refresh token revoked at the provider, then the credentials file removed. */
export async function logout(io: Io, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const stored = await readCredentials(env);
  if (!stored) return void io.err('nobody is signed in here\n');
  const revoked = stored.refreshToken ? await revokeRefreshToken(stored.revocationEndpoint, stored.clientId, stored.refreshToken).catch(() => false) : true;
  await removeCredentials(env);
  if (!revoked) throw new ApiRefusal(`signed out here, but the provider did not confirm the revocation: the sign-in ends by itself within its refresh token's lifetime`);
  io.err(`signed out${stored.email ? ` ${stored.email}` : ''}: the refresh token is revoked\n`);
}
