import { accessSync, constants } from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Where the browser tests look for a Chromium, in order. The variable wins over everything else. */
export const CHROMIUM_PATH_VARIABLE = 'CHROMIUM_PATH';

const NAMES_ON_PATH = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];
const INSTALL_PLACES = [
  '/usr/bin/chromium', // Debian
  '/usr/bin/chromium-browser', // Ubuntu, older Debian
  '/snap/bin/chromium', // Ubuntu's snap
  '/opt/google/chrome/chrome', // Google Chrome on Linux
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

export const HOW_TO_GET_CHROMIUM =
  `no Chromium found: install one (Debian/Ubuntu: sudo apt-get install chromium; macOS: brew install --cask chromium; ` +
  `or: npx playwright-core install chromium) or set ${CHROMIUM_PATH_VARIABLE} to a Chromium or Chrome executable`;

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function playwrightsOwn(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/** The first Chromium found: $CHROMIUM_PATH, then the PATH, the usual install places, and the one Playwright downloads. */
export function findChromium(environment: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = environment[CHROMIUM_PATH_VARIABLE];
  if (chosen) return executable(chosen) ? chosen : undefined;
  const onPath = (environment.PATH ?? '').split(path.delimiter).flatMap((directory) => NAMES_ON_PATH.map((name) => path.join(directory, name)));
  return [...onPath, ...INSTALL_PLACES, playwrightsOwn()].find((candidate): candidate is string => candidate !== undefined && executable(candidate));
}

/**
 * Headless Chromium as every browser test runs it (no sandbox, GPU or background traffic), with `mapToLoopback`
 * names resolved to 127.0.0.1: public-looking names for servers on this machine, as a hosts line would.
 */
export async function launchChromium(mapToLoopback: readonly string[] = []): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(HOW_TO_GET_CHROMIUM);
  const rules = mapToLoopback.length > 0 ? [`--host-resolver-rules=${mapToLoopback.map((name) => `MAP ${name} 127.0.0.1`).join(', ')}`] : [];
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', ...rules] });
}
