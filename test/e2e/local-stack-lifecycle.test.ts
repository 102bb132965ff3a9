import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from '../support/ports';

const root = path.join(__dirname, '..', '..');

interface Started {
  child: ChildProcess;
  url: string;
  apiKey: string;
}

/** `npm start` as a newcomer runs it, on its own ports and data folder (cdk.out is already synthesized). */
async function start(dataDir: string, dynamoDbPort: number): Promise<Started> {
  const port = await freePort();
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['bin/start-local.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), LOCAL_DYNAMODB_PORT: String(dynamoDbPort), LOCAL_SSM_PORT: String(await freePort()), LOCAL_DATA_DIR: dataDir, LOCAL_SKIP_SYNTH: '1', LOCAL_IN_MEMORY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const apiKey = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const key = /Dev API key:\s+(\S+)/.exec(output)?.[1];
      if (key) resolve(key);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { child, url: `http://localhost:${port}`, apiKey };
}

async function stop(started: Started, signal: NodeJS.Signals): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => started.child.once('exit', (code) => resolve(code)));
  started.child.kill(signal);
  return exited;
}

function javaRunningOn(port: number): boolean {
  const processes = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return processes.split('\n').some((line) => line.includes('DynamoDBLocal.jar') && line.includes(`-port ${port} `));
}

describe('npm start', () => {
  it('keeps links, keys and the dev key across a restart, and leaves no java behind on SIGINT or SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'local-data-'));
    const dynamoDbPort = await freePort();

    const first = await start(dataDir, dynamoDbPort);
    const created = await fetch(`${first.url}/v2/shorten`, {
      method: 'POST',
      headers: { authorization: `Bearer ${first.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/kept', alias: `kept-${Date.now()}` }),
    });
    expect(created.status).toBe(201);
    const { shortCode } = (await created.json()) as { shortCode: string };
    expect(javaRunningOn(dynamoDbPort)).toBe(true);
    expect(await stop(first, 'SIGINT')).toBe(0);
    expect(javaRunningOn(dynamoDbPort)).toBe(false);

    const second = await start(dataDir, dynamoDbPort);
    expect(second.apiKey).toBe(first.apiKey);
    const visit = await fetch(`${second.url}/${shortCode}`, { redirect: 'manual' });
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe('https://example.com/kept');
    expect(await stop(second, 'SIGTERM')).toBe(0);
    expect(javaRunningOn(dynamoDbPort)).toBe(false);
  }, 90_000);
});
