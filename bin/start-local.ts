import * as path from 'node:path';
import { startLocalStack } from './local/stack';

/** `npm start`: the deployed handlers, run locally against DynamoDB Local and an SSM stand-in. */
function port(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0 || value > 65535) {
    console.error(`${name} must be a port number, got ${process.env[name]}`);
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  const apiPort = port('PORT', 3000);
  const stack = await startLocalStack({
    port: apiPort,
    dynamoDbPort: port('LOCAL_DYNAMODB_PORT', 8000),
    ssmPort: port('LOCAL_SSM_PORT', 8100),
    signInPort: port('LOCAL_SIGN_IN_PORT', 3100),
    inMemory: process.env.LOCAL_IN_MEMORY === '1',
    shortBaseUrl: process.env.SHORT_BASE_URL ?? `http://localhost:${apiPort}`,
    synth: process.env.LOCAL_SKIP_SYNTH !== '1',
    ...(process.env.LOCAL_DATA_DIR ? { dataDir: path.resolve(process.env.LOCAL_DATA_DIR) } : {}),
    log: (message) => console.error(message),
  });
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    stack.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  console.log(`API:            ${stack.apiUrl}`);
  console.log(`Short links:    ${stack.shortBaseUrl}`);
  console.log(`API reference:  ${stack.apiUrl}/docs`);
  console.log(`Dashboard:      ${stack.apiUrl}/app/   (sign in with the dev API key below)`);
  console.log(`Chaos:          kill -USR2 ${process.pid}   (crashes the queue and stream consumers mid-work)`);
  if (stack.signIn) {
    console.log(`Sign-in issuer: ${stack.signIn.issuer}   (${stack.signIn.issuer}/.well-known/openid-configuration)`);
    console.log(`Dev user:       ${stack.signIn.devUser.email} / ${stack.signIn.devUser.password}   (owner of the dev key's workspace)`);
    if (stack.signIn.cliClientId) console.log(`CLI sign-in:    SHORTENER_API_URL=${stack.apiUrl} SHORTENER_ISSUER=${stack.signIn.issuer} SHORTENER_CLIENT_ID=${stack.signIn.cliClientId} npm run shortener -- login`);
  }
  console.log(`Dev API key:    ${stack.devApiKey}   (PRO plan)`);
  if (stack.mailbox) console.log(`Mailbox:        ${stack.mailbox}   (invitations and other mail, one .eml file each)`);
  console.log(`Try: curl -s -X POST ${stack.apiUrl}/v2/shorten -H 'Authorization: Bearer ${stack.devApiKey}' -H 'Content-Type: application/json' -d '{"url":"https://example.com"}'`);
}

main().catch((error: unknown) => {
  console.error(`local stack failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
