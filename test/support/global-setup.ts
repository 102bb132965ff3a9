import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { localStackEnvironment, spawnLocalStack, type LocalStackProcess } from '../../bin/local/child-process';
import { portForLaterListener } from './listener-port';

/** Where the test run's local stack writes everything it prints, kept after the run (`.ci/run` names it too). */
const LOCAL_STACK_LOG = path.join(__dirname, '..', '..', 'test-artifacts', 'local-stack.log');

/**
 * Starts the local stack exactly as `npm start` does (synth included, data in memory, free ports) and hands
 * its addresses to the tests through the environment.
 */
export default async function globalSetup(): Promise<void> {
  // Custom domains resolve through this file (tests add lines to it), and the domain worker runs every second.
  const hostsFile = path.join(mkdtempSync(path.join(tmpdir(), 'shortener-hosts-')), 'hosts');
  writeFileSync(hostsFile, '# names the end-to-end tests point at this machine\n');
  // And their claims' TXT records (name value), as the tests publish them.
  const txtFile = path.join(path.dirname(hostsFile), 'txt');
  writeFileSync(txtFile, '# TXT records the end-to-end tests publish\n');
  // Webhook receivers listen on these two ports (the only private addresses deliveries may reach), and the retry
  // schedule (and a rotated secret's day of overlap) runs ten thousand times faster.
  const receiverPorts = [await portForLaterListener(), await portForLaterListener()];
  // Mail the functions send (invitations) lands here, one .eml file per message (bin/local/ses-standin.ts).
  const mailbox = mkdtempSync(path.join(tmpdir(), 'shortener-mailbox-'));
  // A company's own identity provider (single sign-on's tests) listens here, the one loopback issuer allowed.
  const ssoProviderPort = await portForLaterListener();
  // Link health's destination server (test/e2e/link-health.test.ts) listens here under a name the hosts file gives
  // it, the one destination checked; a day of checks lasts under 9 seconds.
  const healthDestinationPort = await portForLaterListener();
  const testEnvironment = {
    LOCAL_HOSTS_FILE: hostsFile,
    LOCAL_DNS_TXT_FILE: txtFile,
    LOCAL_SCHEDULE_EVERY_MS: '1000',
    LOCAL_WEBHOOK_ALLOW: receiverPorts.map((port) => `127.0.0.1:${port}`).join(','),
    LOCAL_WEBHOOK_TIME_SCALE: '0.0001',
    WEBHOOK_RECEIVER_PORTS: receiverPorts.join(','),
    LOCAL_MAILBOX_DIR: mailbox,
    LOCAL_SSO_ALLOW: `127.0.0.1:${ssoProviderPort}`,
    SSO_PROVIDER_PORT: String(ssoProviderPort),
    LOCAL_HEALTH_ALLOW: `dest.example-shop.com:${healthDestinationPort}`,
    LOCAL_HEALTH_TIME_SCALE: '0.0001',
    HEALTH_DESTINATION_PORT: String(healthDestinationPort),
  };
  // What the stack and its functions write, for the cause of a failed test (.ci/run prints its errors on failure).
  const stack = await spawnLocalStack(testEnvironment, undefined, { logFile: LOCAL_STACK_LOG });
  Object.assign(process.env, localStackEnvironment(stack), testEnvironment);
  (globalThis as { localStack?: LocalStackProcess }).localStack = stack;
}
