import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { freePort } from './ports';

/**
 * Starts the local stack exactly as `npm start` does (synth included, data in memory, free ports) and hands
 * its addresses to the tests through the environment.
 */
export default async function globalSetup(): Promise<void> {
  const root = path.join(__dirname, '..', '..');
  const [port, dynamoDbPort, ssmPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['bin/start-local.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), LOCAL_DYNAMODB_PORT: String(dynamoDbPort), LOCAL_SSM_PORT: String(ssmPort), LOCAL_IN_MEMORY: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const devApiKey = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`local stack did not start in time:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const key = /Dev API key:\s+(\S+)/.exec(output)?.[1];
      if (key) {
        clearTimeout(timer);
        resolve(key);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`local stack exited with ${code}:\n${output}`)));
  });
  Object.assign(process.env, {
    LOCAL_STACK_URL: `http://localhost:${port}`,
    LOCAL_STACK_PORT: String(port),
    LOCAL_STACK_DEV_KEY: devApiKey,
    LOCAL_DYNAMODB_PORT: String(dynamoDbPort),
    LOCAL_SSM_PORT: String(ssmPort),
    PORT: String(port),
  });
  (globalThis as { localStack?: typeof child }).localStack = child;
}
