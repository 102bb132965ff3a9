import { localStackEnvironment, spawnLocalStack, type LocalStackProcess } from '../../bin/local/child-process';

/**
 * Starts the local stack exactly as `npm start` does (synth included, data in memory, free ports) and hands
 * its addresses to the tests through the environment.
 */
export default async function globalSetup(): Promise<void> {
  const stack = await spawnLocalStack();
  Object.assign(process.env, localStackEnvironment(stack));
  (globalThis as { localStack?: LocalStackProcess }).localStack = stack;
}
