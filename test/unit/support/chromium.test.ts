import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CHROMIUM_PATH_VARIABLE, findChromium } from '../../support/chromium';

const ROOT = path.join(__dirname, '..', '..', '..');

function fakeBrowser(name: string): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'browser-'));
  const file = path.join(directory, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
  return file;
}

describe('finding a Chromium for the browser tests', () => {
  it(`takes ${CHROMIUM_PATH_VARIABLE} first`, () => {
    const chosen = fakeBrowser('my-chrome');
    expect(findChromium({ [CHROMIUM_PATH_VARIABLE]: chosen, PATH: '/usr/bin' })).toBe(chosen);
  });

  it('finds a chromium on the PATH', () => {
    const onPath = fakeBrowser('chromium-browser');
    expect(findChromium({ PATH: path.dirname(onPath) })).toBe(onPath);
  });

  it(`finds nothing when ${CHROMIUM_PATH_VARIABLE} names no executable, rather than guessing another`, () => {
    expect(findChromium({ [CHROMIUM_PATH_VARIABLE]: '/nonexistent/chromium', PATH: '/usr/bin' })).toBeUndefined();
  });

  it('makes npm test stop at once with one line saying how to get one', () => {
    let failure: { status: number; stderr: string } | undefined;
    try {
      execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['test/support/check-prerequisites.ts'], {
        cwd: ROOT,
        env: { ...process.env, [CHROMIUM_PATH_VARIABLE]: '/nonexistent/chromium' },
        stdio: 'pipe',
        encoding: 'utf8',
      });
    } catch (error) {
      failure = error as { status: number; stderr: string };
    }
    expect(failure?.status).toBe(2);
    expect(failure?.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^npm test: no Chromium found: install one \(Debian\/Ubuntu: sudo apt-get install chromium/)]);
  });
});
