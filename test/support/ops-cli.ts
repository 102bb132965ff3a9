import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.join(__dirname, '..', '..');

/** The operator's CLI against the running local stack, as `npm run ops -- ...` runs it. */
export async function ops(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(path.join(root, 'node_modules', '.bin', 'tsx'), ['bin/ops.ts', ...args], { cwd: root, env: process.env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
