import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..');

/** The parts of an npm lockfile (v2/v3, or node_modules/.package-lock.json) that say what is installed. */
export interface Lockfile {
  packages?: Record<string, { version?: string; optional?: boolean }>;
}

/**
 * Why the installed packages cannot run the ref: each package its lockfile pins that is installed at another
 * version or not at all (optional ones, such as another platform's binaries, may be missing). Packages the ref
 * does not know are no obstacle: its code never loads them.
 */
export function lockMismatches(refLock: Lockfile, installed: Lockfile): string[] {
  const mismatches: string[] = [];
  for (const [location, wanted] of Object.entries(refLock.packages ?? {})) {
    if (location === '') continue;
    const have = installed.packages?.[location];
    if (!have && wanted.optional) continue;
    if (have?.version !== wanted.version) mismatches.push(`${location.replace(/^node_modules\//, '')} ${wanted.version ?? '?'} (installed: ${have?.version ?? 'none'})`);
  }
  return mismatches;
}

export interface Checkout {
  sha: string;
  directory: string;
  /** How its node_modules came to be, for the report. */
  packages: string;
}

const git = (...args: string[]) => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' }).trim();

/**
 * The ref checked out in a git worktree of its own under the temp directory (outside this tree, so no test runner
 * or linter here walks it), reused by later runs. Its node_modules is a link to this tree's when every package
 * the ref pins is installed here at its version (the common case: dependencies are mostly added, and linking
 * takes no time and no network); otherwise `npm ci` installs the ref's own.
 */
export function checkOut(ref: string, log: (line: string) => void): Checkout {
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const directory = path.join(tmpdir(), 'bench-ab', sha);
  if (!existsSync(path.join(directory, 'package.json'))) {
    log(`checking out ${ref} (${sha.slice(0, 7)}) in ${directory}`);
    git('worktree', 'add', '--force', '--detach', directory, sha);
  }
  const modules = path.join(directory, 'node_modules');
  if (existsSync(modules)) return { sha, directory, packages: 'as installed by an earlier run' };
  const refLock = JSON.parse(readFileSync(path.join(directory, 'package-lock.json'), 'utf8')) as Lockfile;
  const installed = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', '.package-lock.json'), 'utf8')) as Lockfile;
  const mismatches = lockMismatches(refLock, installed);
  if (mismatches.length === 0) {
    symlinkSync(realpathSync(path.join(ROOT, 'node_modules')), modules, 'dir');
    return { sha, directory, packages: "this tree's node_modules (every package the ref pins is installed at its version)" };
  }
  log(`npm ci for ${sha.slice(0, 7)}: ${mismatches.length} of its packages differ here, e.g. ${mismatches.slice(0, 3).join(', ')}`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: directory, stdio: 'inherit' });
  return { sha, directory, packages: `its own (npm ci: ${mismatches.length} packages differ from this tree's)` };
}

/** This tree's commit, marked when it has changes not committed. */
export function workingTreeName(): string {
  const sha = git('rev-parse', '--short', 'HEAD');
  return git('status', '--porcelain', '--untracked-files=no') === '' ? sha : `${sha}+changes`;
}
