import { assertDescribedByContract } from './contract';
import { request } from 'node:http';
import { connect } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { GetParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { EnvNames } from '../../functions/shared/config';
import { ORIGIN_VERIFY_HEADER } from '../../functions/shared/http/trusted-viewer';
import { DynamoKeyStore } from '../../functions/shared/adapters/dynamo-key-store';
import { DynamoAccountStore } from '../../functions/shared/adapters/dynamo-account-store';
import type { KeyStatus } from '../../functions/shared/domain/accounts/api-keys';
import type { Scope } from '../../functions/shared/domain/accounts/permissions';
import { AccountDirectory } from '../../bin/ops/account-directory';
import { formatFlagValue, type FlagName } from '../../functions/shared/domain/limits/flags';
import type { Plan } from '../../functions/shared/domain/limits/plans';
import { StackOutputs } from '../../lib/stack-outputs';
import { localAwsEnvironment, readLocalTopology } from '../../bin/local/stack';

/** Access to the local stack that global-setup.ts started: HTTP, its DynamoDB Local and its SSM stand-in. */

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: these tests run in the "stack" project, whose global setup starts the local stack`);
  return value;
}

export const baseUrl = () => required('LOCAL_STACK_URL');
export const devApiKey = () => required('LOCAL_STACK_DEV_KEY');

const awsEnvironment = () => localAwsEnvironment(Number(required('LOCAL_DYNAMODB_PORT')), Number(required('LOCAL_SSM_PORT')));
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

let documentClient: DynamoDBDocumentClient | undefined;
export function dynamo(): DynamoDBDocumentClient {
  const environment = awsEnvironment();
  documentClient ??= DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: environment.AWS_REGION, endpoint: environment.AWS_ENDPOINT_URL_DYNAMODB, credentials }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  return documentClient;
}

let ssmClient: SSMClient | undefined;
export function ssm(): SSMClient {
  const environment = awsEnvironment();
  ssmClient ??= new SSMClient({ region: environment.AWS_REGION, endpoint: environment.AWS_ENDPOINT_URL_SSM, credentials });
  return ssmClient;
}

export function stackOutput(name: StackOutputs): string {
  const value = readLocalTopology(baseUrl()).outputs[name];
  if (!value) throw new Error(`no output ${name}`);
  return value;
}

/** The origin secret's current value, as CloudFront sends it (stored as {"current": "..."}; a rotation adds "previous"). */
export async function originSecret(): Promise<string> {
  const reader = [...readLocalTopology(baseUrl()).functions.values()].find((fn) => fn.environment[EnvNames.originVerifyParameter]);
  const { Parameter } = await ssm().send(new GetParameterCommand({ Name: reader?.environment[EnvNames.originVerifyParameter] ?? '', WithDecryption: true }));
  return (JSON.parse(Parameter?.Value ?? '{}') as { current: string }).current;
}

/**
 * A visitor's headers as the service's distribution passes them on: CloudFront's own (a viewer country) mean something
 * to the API only beside the origin secret, which the local shared host does not add (docs/development.md).
 */
export async function asCloudFront(headers: Record<string, string>): Promise<Record<string, string>> {
  return { ...headers, [ORIGIN_VERIFY_HEADER]: await originSecret() };
}

export function accountDirectory(): AccountDirectory {
  return new AccountDirectory(new DynamoKeyStore(dynamo(), stackOutput(StackOutputs.apiKeysTable), stackOutput(StackOutputs.auditTable)), new DynamoAccountStore(dynamo(), stackOutput(StackOutputs.accountsTable)));
}

/** A new account with one key (or one more key of `accountId`), stored as the ops CLI stores them. */
export async function createApiKey(plan: Plan, options: { monthlyLimit?: number; status?: KeyStatus; accountId?: string; scopes?: readonly Scope[]; expiresAt?: string } = {}) {
  const directory = accountDirectory();
  const keyOptions = { nowMs: Date.now(), ...(options.scopes ? { scopes: options.scopes } : {}), ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}) };
  const issued = options.accountId
    ? await directory.addKey(options.accountId, keyOptions)
    : await directory.open(plan, { ...keyOptions, ...(options.monthlyLimit !== undefined ? { monthlyLimit: options.monthlyLimit } : {}) });
  if (!issued) throw new Error(`no account ${options.accountId}`);
  if (options.status && options.status !== 'active') {
    await dynamo().send(new PutCommand({ TableName: stackOutput(StackOutputs.apiKeysTable), Item: { ...issued.record, status: options.status } }));
  }
  return { apiKey: issued.apiKey, keyId: issued.record.keyId, accountId: issued.account.accountId, owner: issued.account.owner };
}

export async function setFlag(flag: FlagName, enabled: boolean): Promise<void> {
  const name = `${stackOutput(StackOutputs.flagsPrefix)}/${flag}`;
  await ssm().send(new PutParameterCommand({ Name: name, Value: formatFlagValue(enabled), Type: 'String', Overwrite: true }));
}

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Header names in the order and case they came, repeats included. */
  rawHeaderNames: string[];
  text: string;
  json: <T = Record<string, unknown>>() => T;
}

export interface HttpOptions {
  headers?: Record<string, string>;
  body?: string | object;
  /** A loopback source address (127.0.0.x) so per-IP limits of one test do not touch another's. */
  localAddress?: string;
}

/** Raw HTTP (no redirects followed, any method, chosen source address) against the local stack. */
export function http(method: string, path: string, options: HttpOptions = {}): Promise<HttpResult> {
  const url = new URL(path, baseUrl());
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method,
        headers: { ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}), ...options.headers },
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          settle(resolve, reject, method, path, { status: response.statusCode ?? 0, headers: response.headers, rawHeaderNames: response.rawHeaders.filter((_, index) => index % 2 === 0), text, json: <T>() => JSON.parse(text) as T });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Every answer a stack test receives is checked against the OpenAPI document (see contract.ts). */
function settle(resolve: (result: HttpResult) => void, reject: (error: Error) => void, method: string, path: string, result: HttpResult): void {
  try {
    assertDescribedByContract(method, path, result);
    resolve(result);
  } catch (error) {
    reject(error as Error);
  }
}

/**
 * A random address in 127.0.0.0/8 (16 million of them): a few dozen per run almost never meet, even across test
 * files, whose module state Jest resets.
 */
export function uniqueLoopbackAddress(): string {
  const octet = (min: number) => min + Math.floor(Math.random() * (255 - min));
  return `127.${octet(1)}.${octet(0)}.${octet(1)}`;
}

export const jsonHeaders = (apiKey?: string): Record<string, string> => ({
  'content-type': 'application/json',
  ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
});

/** Polls until `check` passes: flags reach the functions through a cache of a few seconds. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * Tables shaped exactly like the template's, under fresh names, so an integration test owns its data. Keyed by
 * the stack output that names the original (LinksTableName, UsageTableName, ...).
 */
export async function freshTables(): Promise<Record<string, string>> {
  const topology = readLocalTopology(baseUrl());
  const suffix = `-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const { DynamoDbLocal } = await import('../../bin/local/dynamodb-local');
  const local = new DynamoDbLocal({ port: Number(required('LOCAL_DYNAMODB_PORT')) });
  await local.ensureTables(topology.tables.map((table) => ({ ...table, name: table.name + suffix })));
  return Object.fromEntries(Object.entries(topology.outputs).map(([output, value]) => [output, value + suffix]));
}

/**
 * Limits count in fixed windows: a test that makes many attempts waits, when a window is about to end, for the
 * next one to begin, so its attempts all land in one window.
 */
export async function clearOfWindowEdge(windowSeconds: number, marginMs = 30_000): Promise<void> {
  const untilEdge = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (untilEdge < marginMs) await new Promise((resolve) => setTimeout(resolve, untilEdge + 100));
}

/**
 * One request written byte for byte on a socket: header values holding any bytes (UTF-8 of any text, controls),
 * which Node's own client refuses to send. The answer is read until the server closes the connection.
 */
/** `localAddress`: a loopback address of the caller's own, so its v1 calls do not share 127.0.0.1's per-address limit. */
export function rawHttp(method: string, path: string, headers: ReadonlyArray<[string, Buffer | string]>, body: Buffer | string = '', localAddress?: string): Promise<HttpResult> {
  const { hostname, port } = new URL(baseUrl());
  const head = Buffer.concat([
    Buffer.from(`${method} ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`),
    ...headers.map(([name, value]) => Buffer.concat([Buffer.from(`${name}: `), Buffer.isBuffer(value) ? value : Buffer.from(value), Buffer.from('\r\n')])),
    Buffer.from('\r\n'),
  ]);
  return new Promise((resolve, reject) => {
    // write, not end: a half-closed socket could make the server drop its answer to a request it refuses.
    const socket = connect({ port: Number(port), host: '127.0.0.1', ...(localAddress ? { localAddress } : {}) }, () => socket.write(Buffer.concat([head, Buffer.from(body)])));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const split = raw.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
      const headersOut: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headersOut[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const payload = raw.slice(split + 4);
      const text = Buffer.from(/chunked/i.test(headersOut['transfer-encoding'] ?? '') ? unchunk(payload) : payload, 'latin1').toString('utf8');
      settle(resolve, reject, method, path, {
        status: Number(statusLine.split(' ')[1]),
        headers: headersOut,
        rawHeaderNames: lines.map((line) => line.slice(0, line.indexOf(':'))),
        text,
        json: <T>() => JSON.parse(text) as T,
      });
    });
  });
}

function unchunk(payload: string): string {
  let body = '';
  let rest = payload;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return body;
    body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}
