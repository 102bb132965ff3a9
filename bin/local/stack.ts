import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config, EnvNames, SECRETS_MANAGER_REFERENCE_PREFIX } from '../../functions/shared/config';
import { StackOutputs } from '../../lib/stack-outputs';
import { DynamoKeyStore } from '../../functions/shared/adapters/dynamo-key-store';
import { LOCAL_SDK_TIMEOUT_MS } from '../../functions/shared/adapters/outages';
import { DynamoAccountStore } from '../../functions/shared/adapters/dynamo-account-store';
import { DynamoMemberStore } from '../../functions/shared/adapters/dynamo-member-store';
import { accountOfKey, hashApiKey } from '../../functions/shared/domain/accounts/api-keys';
import { AccountDirectory } from '../ops/account-directory';
import { DynamoDbLocal } from './dynamodb-local';
import { LocalCustomerEdge } from './customer-edge';
import { LocalGateway } from './gateway';
import { LocalStaticSite } from './static-site';
import type { DashboardSignIn } from '../../lib/dashboard';
import { LocalFunction } from './lambda-runtime';
import { assertSameNode } from './same-node';
import { LocalLogSubscription } from './log-subscription';
import { KmsStandIn } from './kms-standin';
import { SesStandIn } from './ses-standin';
import { SsmStandIn } from './ssm-standin';
import { SqsStandIn } from './sqs-standin';
import { LocalTableStream, type StreamConsumer } from './stream-source';
import { localScheduleEveryMs } from './schedule-clock';
import { loadTemplate, readTopology, type FunctionSpec, type OriginHeaderSpec, type Topology, type UserPoolSpec } from './template';
import { startLocalSignIn, type LocalSignIn } from './oidc-provider';
import { LocalUserDirectory } from './user-directory';

export const PROJECT_ROOT = path.join(__dirname, '..', '..');
const CLOUD_ASSEMBLY_DIR = path.join(PROJECT_ROOT, 'cdk.out');
/** Any region will do: every client is pointed at a local endpoint. */
export const LOCAL_REGION = 'us-east-1';

export interface LocalStackOptions {
  port: number;
  dynamoDbPort: number;
  ssmPort: number;
  /** The local user pool's provider (its issuer is http://localhost:<port>/<poolId>); 0 picks a free one. */
  signInPort: number;
  /** Keep nothing on disk (LOCAL_IN_MEMORY=1). */
  inMemory: boolean;
  shortBaseUrl: string;
  /** Run `cdk synth` first (skip when the caller just did). */
  synth: boolean;
  dataDir?: string;
  log?: (message: string) => void;
}

export interface RunningLocalStack {
  apiUrl: string;
  shortBaseUrl: string;
  devApiKey: string;
  /** The local user pool's issuer, and the development user: an owner of the dev key's workspace. */
  signIn?: { issuer: string; adminEndpoint: string; devUser: { email: string; password: string }; cliClientId?: string };
  topology: Topology;
  /** Where the SES stand-in writes the mail the functions send (when the template sends mail). */
  mailbox?: string;
  stop(): Promise<void>;
}

/** Bundling chatter is dropped; on failure the CLI's output is shown in full. */
export function synthesize(): void {
  try {
    execFileSync(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'cdk'), ['synth', '--no-notices', '-q'], { cwd: PROJECT_ROOT, stdio: 'pipe' });
  } catch (error) {
    const output = error as { stdout?: Buffer; stderr?: Buffer };
    process.stderr.write(`${output.stdout?.toString() ?? ''}${output.stderr?.toString() ?? ''}`);
    throw new Error('cdk synth failed (output above)');
  }
}

/**
 * The service's stack in the cloud assembly (the default stage from cdk.json): the one with the API's outputs. The
 * stage's other stacks (its edge web ACL, the account's API Gateway settings) have no local counterpart to run.
 */
export function stackTemplateName(cloudAssemblyDir = CLOUD_ASSEMBLY_DIR): string {
  const manifest = JSON.parse(readFileSync(path.join(cloudAssemblyDir, 'manifest.json'), 'utf8')) as { artifacts: Record<string, { type: string }> };
  const stacks = Object.entries(manifest.artifacts).filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack');
  const service = stacks.find(([name]) => loadTemplate(cloudAssemblyDir, name).Outputs?.[StackOutputs.apiUrl] !== undefined);
  if (!service) throw new Error('no service stack in cdk.out: run cdk synth');
  return service[0];
}

export function readLocalTopology(shortBaseUrl: string): Topology {
  const template = loadTemplate(CLOUD_ASSEMBLY_DIR, stackTemplateName());
  return readTopology(template, CLOUD_ASSEMBLY_DIR, { region: LOCAL_REGION, shortHost: new URL(shortBaseUrl).host });
}

/** What the SDK in every local process needs to reach the emulators instead of AWS, and how long to wait for them. */
export function localAwsEnvironment(dynamoDbPort: number, ssmPort: number, standIns: { sqsPort?: number; kmsPort?: number; sesPort?: number } = {}): Record<string, string> {
  return {
    ...(standIns.sesPort ? { AWS_ENDPOINT_URL_SESV2: `http://127.0.0.1:${standIns.sesPort}` } : {}),
    ...(standIns.sqsPort ? { AWS_ENDPOINT_URL_SQS: `http://127.0.0.1:${standIns.sqsPort}` } : {}),
    ...(standIns.kmsPort ? { AWS_ENDPOINT_URL_KMS: `http://127.0.0.1:${standIns.kmsPort}` } : {}),
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${dynamoDbPort}`,
    AWS_ENDPOINT_URL_SSM: `http://127.0.0.1:${ssmPort}`,
    // A burst waits seconds for DynamoDB Local (its backlog, its one writer) where DynamoDB answers in ms (outages.ts).
    [EnvNames.localSdkTimeoutMs]: String(LOCAL_SDK_TIMEOUT_MS),
  };
}

export async function startLocalStack(options: LocalStackOptions): Promise<RunningLocalStack> {
  const log = options.log ?? (() => undefined);
  const dataDir = options.dataDir ?? path.join(PROJECT_ROOT, '.local');
  if (options.synth) {
    log('synthesizing the CDK app…');
    synthesize();
  }
  const topology = readLocalTopology(options.shortBaseUrl);
  assertSameNode(topology.functions.values());
  const stopping: Array<() => unknown> = [];
  const stop = async () => {
    for (const step of stopping.reverse()) await step();
  };
  try {
    const ssm = new SsmStandIn(options.inMemory ? undefined : path.join(dataDir, 'ssm.json'));
    await ssm.listen(options.ssmPort);
    stopping.push(() => ssm.close());

    const dynamo = new DynamoDbLocal({ port: options.dynamoDbPort, dataDir: options.inMemory ? undefined : path.join(dataDir, 'dynamodb') });
    stopping.push(() => dynamo.stop());
    await dynamo.start();
    await dynamo.ensureTables(topology.tables);

    // Operators' flag flips survive restarts; the short base URL follows this run's port.
    const shortBaseUrlParameter = topology.outputs[StackOutputs.shortBaseUrlParameter];
    for (const parameter of topology.parameters) {
      if (parameter.name === shortBaseUrlParameter) ssm.put(parameter.name, options.shortBaseUrl);
      else if (!ssm.has(parameter.name)) ssm.put(parameter.name, parameter.value);
    }

    // Secrets Manager's stand-in is SSM's reference path, which is how the functions read secrets anyway.
    for (const secret of topology.secrets) {
      const name = `${SECRETS_MANAGER_REFERENCE_PREFIX}${secret.name}`;
      if (ssm.has(name)) continue;
      const value = randomBytes(secret.length).toString('base64url').slice(0, secret.length);
      ssm.put(name, secret.jsonKey ? JSON.stringify({ [secret.jsonKey]: value }) : value, 'SecureString');
    }

    // Webhook retries wait on the schedule scaled by LOCAL_WEBHOOK_TIME_SCALE; the queue's redelivery after a failed
    // invocation follows the same scale.
    const queues = new SqsStandIn(topology.queues, LOCAL_REGION, config.webhookTimeScale());
    const sqsPort = await queues.listen(0);
    stopping.push(() => queues.close());
    // The template's keys (webhook secrets'), their material kept beside the tables they seal values in.
    const kms = new KmsStandIn(topology.kmsKeys, LOCAL_REGION, options.inMemory ? undefined : path.join(dataDir, 'kms.json'));
    const kmsPort = await kms.listen(0);
    stopping.push(() => kms.close());

    // A template whose functions send mail (MAIL_FROM) gets SES's stand-in: each message a file in the mailbox.
    const sendsMail = [...topology.functions.values()].some((fn) => fn.environment[EnvNames.mailFrom] !== undefined);
    const mailbox = sendsMail ? mailboxDirectory(dataDir, options.inMemory) : undefined;
    const ses = mailbox ? new SesStandIn(mailbox) : undefined;
    const sesPort = ses ? await ses.listen(0) : undefined;
    if (ses) stopping.push(() => ses.close());

    const documents = DynamoDBDocumentClient.from(dynamo.client(), { marshallOptions: { removeUndefinedValues: true } });
    const keys = new DynamoKeyStore(documents, String(topology.outputs[StackOutputs.apiKeysTable]), String(topology.outputs[StackOutputs.auditTable]));
    const directory = new AccountDirectory(keys, new DynamoAccountStore(documents, String(topology.outputs[StackOutputs.accountsTable])));
    const devApiKey = await ensureDevApiKey(directory, keys, options.inMemory ? undefined : path.join(dataDir, 'dev-api-key'));

    // The user pool, played by an OpenID provider; the functions that verify its tokens are pointed at it.
    const pool = topology.userPools[0];
    let signIn: (LocalSignIn & { devUser: { email: string; password: string } }) | undefined;
    if (pool) {
      const users = new LocalUserDirectory(options.inMemory ? undefined : path.join(dataDir, 'users.json'));
      const provider = await startLocalSignIn({ pool: servedOverHttp(pool, options.shortBaseUrl), users, port: options.signInPort, ...(options.inMemory ? {} : { keysFile: path.join(dataDir, 'sign-in-keys.json') }) });
      stopping.push(() => provider.close());
      for (const spec of topology.functions.values()) pointAtLocalIssuer(spec, provider);
      const devUser = await ensureDevUser(users, options.inMemory ? undefined : path.join(dataDir, 'dev-user'));
      const devKey = await keys.findByHash(hashApiKey(devApiKey));
      if (!devKey) throw new Error('the development key was not stored');
      const members = new DynamoMemberStore(documents, String(topology.outputs[StackOutputs.membersTable]));
      await members.addMember({ workspaceId: accountOfKey(devKey).accountId, userId: devUser.sub, email: devUser.email, role: 'owner', joinedAt: new Date().toISOString() });
      signIn = Object.assign(provider, { devUser: { email: devUser.email, password: devUser.password } });
    }

    // No CloudWatch here: metrics stay off unless asked for (LOCAL_METRICS=1 prints their EMF lines). No CloudFront
    // either: customer domains are checked with the resolver, LOCAL_HOSTS_FILE first (resolver-attachments.ts), and their
    // TXT challenges with LOCAL_DNS_TXT_FILE first (dns-txt-records.ts).
    const sharedEnvironment = {
      ...localAwsEnvironment(options.dynamoDbPort, options.ssmPort, { sqsPort, kmsPort, ...(sesPort ? { sesPort } : {}) }),
      ...(signIn ? { AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: signIn.adminEndpoint } : {}),
      // Mail's links lead to this run's dashboard, not the distribution's name the template holds.
      [EnvNames.localDashboardUrl]: `http://localhost:${options.port}/app/`,
      // Receivers on this machine a local run may deliver webhooks to, and the retry schedule's scale (README).
      ...(process.env.LOCAL_WEBHOOK_ALLOW ? { [EnvNames.localWebhookAllow]: process.env.LOCAL_WEBHOOK_ALLOW } : {}),
      ...(process.env.LOCAL_WEBHOOK_TIME_SCALE ? { [EnvNames.localWebhookTimeScale]: process.env.LOCAL_WEBHOOK_TIME_SCALE } : {}),
      // Link health checks only the destinations listed here (host:port names, README), on a day shortened by the scale.
      [EnvNames.localHealthAllow]: process.env.LOCAL_HEALTH_ALLOW || 'none',
      ...(process.env.LOCAL_HEALTH_TIME_SCALE ? { [EnvNames.localHealthTimeScale]: process.env.LOCAL_HEALTH_TIME_SCALE } : {}),
      // A company's identity provider on this machine that single sign-on may name over http (host:port, README).
      ...(process.env.LOCAL_SSO_ALLOW ? { [EnvNames.localSsoAllow]: process.env.LOCAL_SSO_ALLOW } : {}),
      POWERTOOLS_METRICS_DISABLED: process.env.LOCAL_METRICS === '1' ? 'false' : 'true',
      [EnvNames.localDomains]: 'resolver',
      ...(process.env.LOCAL_HOSTS_FILE ? { [EnvNames.localHostsFile]: path.resolve(process.env.LOCAL_HOSTS_FILE) } : {}),
      ...(process.env.LOCAL_DNS_TXT_FILE ? { [EnvNames.localDnsTxtFile]: path.resolve(process.env.LOCAL_DNS_TXT_FILE) } : {}),
    };
    // Streams are read at Lambda's pace (stream-source.ts); a function's work off the visitor's path (the redirect and
    // the click counting its log feeds) and outside the streams' own consumers has its changes read at once.
    const tableStreams: LocalTableStream[] = [];
    const nudgeStreams = () => tableStreams.forEach((stream) => stream.nudge());
    const nudges = (id: string) =>
      !topology.logSubscriptions.some((subscription) => subscription.sourceFunctionId === id || subscription.destinationFunctionId === id) &&
      !topology.streamSources.some((source) => source.functionId === id);
    // Subscription filters read their source function's log lines; destinations start first, sources then.
    const functions = new Map<string, LocalFunction>();
    const subscriptions: LocalLogSubscription[] = [];
    const isSource = (id: string) => topology.logSubscriptions.some((subscription) => subscription.sourceFunctionId === id);
    for (const [id, spec] of [...topology.functions].sort(([a], [b]) => Number(isSource(a)) - Number(isSource(b)))) {
      const feeds = topology.logSubscriptions.filter((subscription) => subscription.sourceFunctionId === id);
      const readers = feeds.map((subscription) => {
        const destination = functions.get(subscription.destinationFunctionId);
        if (!destination) throw new Error(`subscription ${subscription.filterName} delivers to a function that is itself a source`);
        const reader = new LocalLogSubscription(subscription, destination, log);
        subscriptions.push(reader);
        return reader;
      });
      const onLogLine = readers.length > 0 ? (line: string) => readers.forEach((reader) => reader.offer(line)) : undefined;
      functions.set(id, new LocalFunction(spec, sharedEnvironment, onLogLine && { onLogLine, echo: process.env.LOCAL_FUNCTION_LOGS !== 'off' }, nudges(id) ? nudgeStreams : undefined));
    }
    stopping.push(() => Promise.all([...functions.values()].map((fn) => fn.stop())));
    stopping.push(() => Promise.all(subscriptions.map((subscription) => subscription.close())));
    await Promise.all([...functions.values()].map((fn) => fn.ready));

    // Lambda's event source mappings: queues polled, table streams read from now on.
    for (const source of topology.queueSources) {
      const consumer = functions.get(source.functionId);
      if (consumer) queues.consume(source, consumer, log);
    }
    stopping.push(() => queues.stopConsuming());
    const consumersByTable = new Map<string, StreamConsumer[]>();
    for (const spec of topology.streamSources) {
      const consumer = functions.get(spec.functionId);
      if (consumer) consumersByTable.set(spec.tableName, [...(consumersByTable.get(spec.tableName) ?? []), { spec, consumer }]);
    }
    for (const [tableName, consumers] of consumersByTable) {
      const stream = new LocalTableStream(tableName, consumers, `http://127.0.0.1:${options.dynamoDbPort}`, LOCAL_REGION, queues, log);
      await stream.start(dynamo.client());
      tableStreams.push(stream);
      stopping.push(() => stream.stop());
    }

    const customerEdge = topology.customerEdge && new LocalCustomerEdge(topology.customerEdge, originHeaderValues(topology.customerEdge.originHeaders, ssm), new URL(options.shortBaseUrl).hostname);
    const staticSite = topology.staticSite && new LocalStaticSite(topology.staticSite, originHeaderValues(topology.staticSite.api.originHeaders, ssm), signIn && dashboardSignInOf(signIn));
    const gateway = new LocalGateway({ topology, functions, log, throttles: process.env.LOCAL_THROTTLES !== 'off', ...(customerEdge ? { customerEdge } : {}), ...(staticSite ? { staticSite } : {}) });
    await gateway.listen(options.port);
    stopping.push(() => gateway.close());

    // EventBridge's rate rules; LOCAL_SCHEDULE_EVERY_MS runs them more often, LOCAL_HEALTH_TIME_SCALE link health's.
    const clock = { ...(Number(process.env.LOCAL_SCHEDULE_EVERY_MS) > 0 ? { everyMs: Number(process.env.LOCAL_SCHEDULE_EVERY_MS) } : {}), healthScale: config.healthTimeScale() };
    for (const schedule of topology.schedules) {
      const target = functions.get(schedule.functionId);
      if (!target) continue;
      const timer = setInterval(() => {
        target.invoke({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} }).catch((error: unknown) => log(`${schedule.functionId} failed: ${String(error)}`));
      }, localScheduleEveryMs(schedule, target.spec, clock));
      timer.unref();
      stopping.push(() => clearInterval(timer));
    }
    // SIGUSR2 crashes the functions that consume queues and streams mid-work (tests prove nothing is lost then).
    const consumers = [...new Set([...topology.queueSources, ...topology.streamSources].map((source) => source.functionId))].flatMap((id) => functions.get(id) ?? []);
    const crashConsumers = () => {
      log(`crashing ${consumers.map((fn) => fn.spec.logicalId).join(', ')}`);
      void Promise.all(consumers.map((fn) => fn.crash())).catch((error: unknown) => log(`restart failed: ${String(error)}`));
    };
    process.on('SIGUSR2', crashConsumers);
    stopping.push(() => process.off('SIGUSR2', crashConsumers));
    return {
      apiUrl: `http://localhost:${options.port}`,
      shortBaseUrl: options.shortBaseUrl,
      devApiKey,
      ...(signIn ? { signIn: { issuer: signIn.issuer, adminEndpoint: signIn.adminEndpoint, devUser: signIn.devUser, ...(signIn.cliClient ? { cliClientId: signIn.cliClient.id } : {}) } } : {}),
      topology,
      ...(mailbox ? { mailbox } : {}),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** LOCAL_MAILBOX_DIR, else beside the data (a fresh temporary directory when nothing is kept on disk). */
function mailboxDirectory(dataDir: string, inMemory: boolean): string {
  if (process.env.LOCAL_MAILBOX_DIR) return path.resolve(process.env.LOCAL_MAILBOX_DIR);
  return inMemory ? mkdtempSync(path.join(tmpdir(), 'shortener-mailbox-')) : path.join(dataDir, 'mailbox');
}

/** The values a distribution's origin sends, read from the secrets' stand-ins as CloudFormation resolves them. */
function originHeaderValues(headers: readonly OriginHeaderSpec[], ssm: SsmStandIn): Record<string, string> {
  return Object.fromEntries(
    headers.map((header) => {
      const stored = ssm.get(`${SECRETS_MANAGER_REFERENCE_PREFIX}${header.secretName}`) ?? '{}';
      return [header.name, String((JSON.parse(stored) as Record<string, unknown>)[header.jsonKey] ?? '')];
    }),
  );
}

/**
 * The clients' callbacks name the dashboard's distribution over https; here the local gateway serves that host over
 * http (the short base URL's origin), so the same pages are the callbacks. Nothing else is rewritten: other URLs
 * stay as exact as the template has them.
 */
export function servedOverHttp(pool: UserPoolSpec, shortBaseUrl: string): UserPoolSpec {
  const local = new URL(shortBaseUrl);
  const served = (url: string) => (url.startsWith(`https://${local.host}/`) ? `${local.origin}${url.slice(`https://${local.host}`.length)}` : url);
  return { ...pool, clients: pool.clients.map((client) => ({ ...client, callbackUrls: client.callbackUrls.map(served), logoutUrls: client.logoutUrls.map(served) })) };
}

/** The dashboard's sign-in settings (config.json, connect-src) with the local provider in the pool's place. */
function dashboardSignInOf(provider: LocalSignIn): DashboardSignIn | undefined {
  const [redirectUri] = provider.client.callbackUrls;
  const [signOutRedirectUri] = provider.client.logoutUrls;
  if (!redirectUri || !signOutRedirectUri) return undefined;
  return { config: { issuer: provider.issuer, clientId: provider.client.id, redirectUri, signOutRedirectUri }, providerOrigins: [new URL(provider.issuer).origin] };
}

/**
 * The template names Cognito's issuer (https://cognito-idp.<region>.amazonaws.com/<pool>); a local run's tokens come
 * from the local provider instead. The client id is the template's either way (its logical id, as Ref answers here).
 */
function pointAtLocalIssuer(spec: FunctionSpec, provider: LocalSignIn): void {
  if (spec.environment[EnvNames.tokenIssuer] === undefined) return;
  spec.environment[EnvNames.tokenIssuer] = provider.issuer;
  spec.environment[EnvNames.tokenJwksUrl] = provider.jwksUrl;
}

const DEV_USER_EMAIL = 'developer@example.com';

/** The development user (its password kept beside the dev key unless the data is in memory), confirmed. */
async function ensureDevUser(users: LocalUserDirectory, file: string | undefined): Promise<{ sub: string; email: string; password: string }> {
  const saved = file && existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
  const known = users.findByEmail(DEV_USER_EMAIL);
  if (known && saved && (await users.signIn(DEV_USER_EMAIL, saved))) return { sub: known.sub, email: known.email, password: saved };
  const password = `Dev-${randomBytes(12).toString('base64url')}-1`;
  const user = known ? await users.setPassword(DEV_USER_EMAIL, password, true) : await users.create(DEV_USER_EMAIL, password, { permanent: true });
  if (!user) throw new Error('the development user could not be created');
  if (file) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${password}\n`, { mode: 0o600 });
  }
  return { sub: user.sub, email: user.email, password };
}

/** A PRO account's key for development, kept across restarts unless the data is in memory. */
async function ensureDevApiKey(directory: AccountDirectory, keys: DynamoKeyStore, file: string | undefined): Promise<string> {
  if (file && existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    if (await keys.findByHash(hashApiKey(saved))) return saved;
  }
  const { apiKey } = await directory.open('PRO', { label: 'local development', nowMs: Date.now() });
  if (file) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${apiKey}\n`, { mode: 0o600 });
  }
  return apiKey;
}
