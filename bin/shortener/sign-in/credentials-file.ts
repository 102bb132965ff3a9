import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { UsageError } from '../csv-links';

/** What `shortener login` keeps between commands: where to call and refresh, and the person's tokens. */
export interface StoredSignIn {
  apiUrl: string;
  issuer: string;
  clientId: string;
  tokenEndpoint: string;
  revocationEndpoint: string;
  accessToken: string;
  refreshToken?: string;
  /** When the access token stops being accepted (ISO time). */
  expiresAt: string;
  email?: string;
  /** The workspace commands act in when neither --workspace nor SHORTENER_WORKSPACE names one. */
  workspace?: string;
}

/**
 * `$XDG_CONFIG_HOME/shortener/credentials.json` (`~/.config/shortener/…` without it): per user, as the XDG base
 * directory specification puts configuration. A relative XDG_CONFIG_HOME is invalid by the specification and ignored.
 */
export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.XDG_CONFIG_HOME;
  const base = configured && path.isAbsolute(configured) ? configured : path.join(homedir(), '.config');
  return path.join(base, 'shortener', 'credentials.json');
}

/** The stored sign-in, or undefined when nobody signed in. A file others may read is refused, as ssh refuses a key. */
export async function readCredentials(env: NodeJS.ProcessEnv = process.env): Promise<StoredSignIn | undefined> {
  const file = credentialsPath(env);
  let text: string;
  try {
    if (((await stat(file)).mode & 0o077) !== 0) throw new UsageError(`${file} is readable by other users: remove it (or chmod 600 it) and sign in again`);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as StoredSignIn;
  } catch {
    throw new UsageError(`${file} is not a sign-in this command wrote: remove it and run \`shortener login\``);
  }
}

/**
 * Written owner-only (0600, in a 0700 directory) from the first byte: a temporary file created with that mode (the
 * umask can only narrow it), then renamed over the old one, so no reader ever sees a half-written or wider file.
 */
export async function writeCredentials(signIn: StoredSignIn, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const file = credentialsPath(env);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await rm(temporary, { force: true });
  await writeFile(temporary, `${JSON.stringify(signIn, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
  return file;
}

export async function removeCredentials(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await rm(credentialsPath(env), { force: true });
}
