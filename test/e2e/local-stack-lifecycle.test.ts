import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort, spawnLocalStack, STOP_MARK } from '../../bin/local/child-process';
import { eventually } from '../support/local-stack';

function javaRunningOn(port: number): boolean {
  const processes = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return processes.split('\n').some((line) => line.includes('DynamoDBLocal.jar') && line.includes(`-port ${port} `));
}

/** The session a process belongs to (/proc/<pid>/stat, the fourth field after the command's name). */
function sessionOf(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
}

describe('npm start', () => {
  it('keeps links, keys and the dev key across a restart, and leaves no java behind on SIGINT or SIGTERM, in our session or its own', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'local-data-'));
    const dynamoDbPort = await freePort();

    // On disk this time, on a fixed DynamoDB port so the java process can be found; cdk.out is already there.
    const environment = { LOCAL_DATA_DIR: dataDir, LOCAL_IN_MEMORY: '', LOCAL_SKIP_SYNTH: '1', LOCAL_DYNAMODB_PORT: String(dynamoDbPort) };
    const first = await spawnLocalStack(environment);
    expect(sessionOf(first.child.pid)).toBe(sessionOf(process.pid));
    const created = await fetch(`${first.url}/v2/shorten`, {
      method: 'POST',
      headers: { authorization: `Bearer ${first.devApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/kept', alias: `kept-${Date.now()}` }),
    });
    expect(created.status).toBe(201);
    const { shortCode } = (await created.json()) as { shortCode: string };
    expect(javaRunningOn(dynamoDbPort)).toBe(true);
    expect(await first.stop('SIGINT')).toBe(0);
    expect(javaRunningOn(dynamoDbPort)).toBe(false);

    // As bench:ab --sessions own starts it: a session of its own, stopped all the same. Its output kept in a file, as
    // the tests' stack keeps it: start-up and the functions' lines after it.
    const logFile = path.join(dataDir, 'logs', 'stack.log');
    const second = await spawnLocalStack(environment, undefined, { ownSession: true, logFile });
    expect(sessionOf(second.child.pid)).toBe(second.child.pid);
    expect(second.devApiKey).toBe(first.devApiKey);
    const visit = await fetch(`${second.url}/${shortCode}`, { redirect: 'manual' });
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe('https://example.com/kept');
    expect(readFileSync(logFile, 'utf8')).toMatch(new RegExp(`Dev API key:\\s+${second.devApiKey}`));
    // The visit's click, written by the redirect function after start-up (the line crosses threads first).
    await eventually(async () => expect(readFileSync(logFile, 'utf8')).toContain(`"code":"${shortCode}"`), 5_000);
    expect(await second.stop('SIGTERM')).toBe(0);
    expect(javaRunningOn(dynamoDbPort)).toBe(false);
    // Where the stop was asked, for .ci/run, which reads the log's errors up to it and not the shutdown's after it.
    await eventually(async () => expect(readFileSync(logFile, 'utf8').split('\n')).toContain(STOP_MARK), 5_000);
  }, 90_000);
});
