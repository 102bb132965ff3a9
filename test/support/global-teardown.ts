import type { LocalStackProcess } from '../../bin/local/child-process';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { localStack?: LocalStackProcess }).localStack?.stop();
}
