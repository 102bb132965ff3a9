/**
 * Where `shortener login` receives its authorization code: a loopback address (RFC 8252 §7.3) on one of these ports,
 * the first one free. Cognito matches callback URLs exactly, port included, so the CLI's app client names each of
 * them (lib/user-pool.ts) and the CLI listens on nothing else. `localhost` is the only http host Cognito accepts;
 * the CLI binds it on 127.0.0.1 only.
 */
export const CLI_CALLBACK_PORTS = [47_821, 47_822, 47_823] as const;
export const CLI_CALLBACK_PATH = '/callback';

export const cliCallbackUrl = (port: number): string => `http://localhost:${port}${CLI_CALLBACK_PATH}`;
