import type { OperatingSystem } from './smart-link';

/**
 * The visitor's operating system from the User-Agent alone, first rule that matches (the same few-rules approach as
 * the stats' device classes): iOS before macOS (an iPhone says "like Mac OS X"), Android and ChromeOS before Linux
 * (both say Linux or X11). An iPad in desktop mode presents itself as a Mac and is read as one.
 */
const OS_RULES: ReadonlyArray<readonly [OperatingSystem, RegExp]> = [
  ['ios', /iphone|ipad|ipod|\bcpu os \d/i],
  ['android', /android/i],
  ['chromeos', /\bcros\b/i],
  ['windows', /windows/i],
  ['macos', /macintosh|mac os x/i],
  ['linux', /linux|x11/i],
];

export function operatingSystem(userAgent: string | undefined): OperatingSystem | undefined {
  if (!userAgent) return undefined;
  return OS_RULES.find(([, pattern]) => pattern.test(userAgent))?.[0];
}
