import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import * as path from 'node:path';
import { createServer } from 'node:net';

const ROOT = path.join(__dirname, '..', '..');
/**
 * The project's pinned Node (the `node` devDependency), whichever Node started the caller: the local stack's workers
 * run the bundles on the runtime the Lambdas use.
 */
export const PINNED_NODE = path.join(ROOT, 'node_modules', '.bin', 'node');

export interface LocalStackProcess {
  child: ChildProcess;
  url: string;
  port: number;
  dynamoDbPort: number;
  ssmPort: number;
  devApiKey: string;
  /** The local user pool's issuer and development user, as `npm start` printed them (absent from stacks before issue 29). */
  signIn?: { issuer: string; devUser: { email: string; password: string } };
  /** The stack's own process: SIGUSR2 to it crashes the queue and stream consumers. */
  pid: number;
  /** SIGTERM (or the given signal) and wait; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A port nothing listens on right now, chosen by the OS. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The log file's line where the stack was asked to stop (see SpawnOptions.logFile). */
export const STOP_MARK = '--- the local stack was asked to stop ---';

/** How long a stack may take to say it is up before the run gives up on it. */
const START_LIMIT_MS = 300_000;

/**
 * Runs `npm start` (bin/start-local.ts) as a child process on free ports, for tests and benchmarks, and
 * resolves once it printed its dev API key, which it does only when everything is ready. `root` is the checkout
 * whose stack runs (bench:ab starts an older commit's beside this one); either way it runs on this tree's pinned
 * Node, so that two stacks compared differ in their code, not in their runtime.
 */
export interface SpawnOptions {
  /**
   * A session of its own (setsid), as a stack started in another terminal has: with the kernel's autogroups on (the
   * Linux default for desktops and these machines), its threads then share the CPU with the caller's as one group
   * instead of one by one. bench:ab measures both ways (--sessions, docs/measurements.md). Such a stack does not get
   * the terminal's Ctrl-C: it is stopped when this process exits.
   */
  ownSession?: boolean;
  /**
   * Everything the stack writes, start-up and functions' logs alike, goes to this file (made afresh), where a failed
   * test's cause can be read afterwards: without it the output after start-up is read and dropped.
   */
  logFile?: string;
}

export async function spawnLocalStack(environment: Record<string, string> = {}, root = ROOT, options: SpawnOptions = {}): Promise<LocalStackProcess> {
  const [port, dynamoDbPort, ssmPort, signInPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const child = spawn(PINNED_NODE, ['--import', 'tsx', 'bin/start-local.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), LOCAL_DYNAMODB_PORT: String(dynamoDbPort), LOCAL_SSM_PORT: String(ssmPort), LOCAL_SIGN_IN_PORT: String(signInPort), LOCAL_IN_MEMORY: '1', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownSession === true,
  });
  const stopOnExit = () => child.kill('SIGTERM');
  if (options.ownSession) process.once('exit', stopOnExit);
  child.once('exit', () => process.removeListener('exit', stopOnExit));
  const log = options.logFile === undefined ? undefined : openLog(options.logFile);
  if (log) {
    child.stdout?.on('data', (chunk: Buffer) => log.write(chunk));
    child.stderr?.on('data', (chunk: Buffer) => log.write(chunk));
    // After the last output: 'close' comes once the pipes are drained, 'exit' may come before.
    child.once('close', () => log.end());
  }
  let output = '';
  const devApiKey = await new Promise<string>((resolve, reject) => {
    // A quiet machine starts it in well under a minute (synth, 21 bundles, DynamoDB Local); a busy one in several.
    const timer = setTimeout(() => reject(new Error(`local stack did not start in time:\n${output}`)), START_LIMIT_MS);
    let ready = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      // Once the stack is up its stdout is the functions' logs (a line per click, under load): not kept here (see logFile).
      if (ready) return;
      output = (output + chunk.toString()).slice(-20_000);
      const key = /Dev API key:\s+(\S+)/.exec(output)?.[1];
      if (key) {
        ready = true;
        clearTimeout(timer);
        resolve(key);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`local stack exited with ${code}:\n${output}`));
    });
  });
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null) return Promise.resolve(child.exitCode);
    // What follows is the stack going down (its functions losing DynamoDB Local): .ci/run reads the log up to here.
    log?.write(`${STOP_MARK}\n`);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    return exited;
  };
  const pid = Number(/kill -USR2 (\d+)/.exec(output)?.[1]);
  const issuer = /Sign-in issuer:\s+(\S+)/.exec(output)?.[1];
  const devUser = /Dev user:\s+(\S+) \/ (\S+)/.exec(output);
  const signIn = issuer && devUser?.[1] && devUser[2] ? { issuer, devUser: { email: devUser[1], password: devUser[2] } } : undefined;
  return { child, url: `http://localhost:${port}`, port, dynamoDbPort, ssmPort, devApiKey, ...(signIn ? { signIn } : {}), pid, stop };
}

function openLog(file: string): WriteStream {
  mkdirSync(path.dirname(file), { recursive: true });
  return createWriteStream(file);
}

/** The variables through which tests and benchmarks find a running local stack (see test/support/local-stack.ts). */
export function localStackEnvironment(stack: LocalStackProcess): Record<string, string> {
  return {
    LOCAL_STACK_URL: stack.url,
    LOCAL_STACK_DEV_KEY: stack.devApiKey,
    LOCAL_DYNAMODB_PORT: String(stack.dynamoDbPort),
    LOCAL_SSM_PORT: String(stack.ssmPort),
    PORT: String(stack.port),
    LOCAL_STACK_PID: String(stack.pid),
    ...(stack.signIn
      ? { LOCAL_SIGN_IN_ISSUER: stack.signIn.issuer, LOCAL_DEV_USER_EMAIL: stack.signIn.devUser.email, LOCAL_DEV_USER_PASSWORD: stack.signIn.devUser.password }
      : {}),
  };
}
