import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { localStackEnvironment, spawnLocalStack, type LocalStackProcess } from '../../bin/local/child-process';

/**
 * Starts the local stack exactly as `npm start` does (synth included, data in memory, free ports) and hands
 * its addresses to the tests through the environment.
 */
export default async function globalSetup(): Promise<void> {
  // Custom domains resolve through this file (tests add lines to it), and the domain worker runs every second.
  const hostsFile = path.join(mkdtempSync(path.join(tmpdir(), 'shortener-hosts-')), 'hosts');
  writeFileSync(hostsFile, '# names the end-to-end tests point at this machine\n');
  const testEnvironment = { LOCAL_HOSTS_FILE: hostsFile, LOCAL_SCHEDULE_EVERY_MS: '1000' };
  const stack = await spawnLocalStack(testEnvironment);
  Object.assign(process.env, localStackEnvironment(stack), testEnvironment);
  (globalThis as { localStack?: LocalStackProcess }).localStack = stack;
}
