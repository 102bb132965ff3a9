import { execFileSync } from 'node:child_process';
import { findChromium, HOW_TO_GET_CHROMIUM } from './chromium';

/**
 * Run first by `npm test`: what the suite needs beyond `npm ci`, each missing piece named in one line with how to
 * get it, before minutes go into the earlier layers.
 */
const problems: string[] = [];
try {
  execFileSync('java', ['-version'], { stdio: 'ignore' });
} catch {
  problems.push('no java found: DynamoDB Local needs Java 17 (Debian/Ubuntu: sudo apt-get install openjdk-17-jre-headless; macOS: brew install openjdk@17)');
}
if (!findChromium()) problems.push(HOW_TO_GET_CHROMIUM);
for (const problem of problems) console.error(`npm test: ${problem}`);
process.exit(problems.length > 0 ? 2 : 0);
