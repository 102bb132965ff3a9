import { spawnLocalStack, type LocalStackProcess } from '../../bin/local/child-process';

/**
 * Starts the local stack exactly as `npm start` does (synth included, data in memory, free ports) and hands
 * its addresses to the tests through the environment.
 */
export default async function globalSetup(): Promise<void> {
  const stack = await spawnLocalStack();
  Object.assign(process.env, {
    LOCAL_STACK_URL: stack.url,
    LOCAL_STACK_DEV_KEY: stack.devApiKey,
    LOCAL_DYNAMODB_PORT: String(stack.dynamoDbPort),
    LOCAL_SSM_PORT: String(stack.ssmPort),
    PORT: String(stack.port),
  });
  (globalThis as { localStack?: LocalStackProcess }).localStack = stack;
}
