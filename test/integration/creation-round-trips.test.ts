import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { localAwsEnvironment, readLocalTopology } from '../../bin/local/stack';
import { baseUrl } from '../support/local-stack';

/**
 * Issue 28: a creation costs at most two sequential DynamoDB round trips after the authorizer: the minute window, the
 * monthly quota and the account's default domain side by side, then the link. The create function's own module runs in this process with the
 * environment the template gives it, against the local stack's DynamoDB Local and SSM, and every DynamoDB call it
 * sends is timed at its client.
 */
interface Call {
  command: string;
  startedAt: number;
  endedAt: number;
}

/** Calls grouped into round trips (names sorted): a call that starts after every earlier call has answered waited for them. */
function roundTrips(calls: readonly Call[]): string[][] {
  const rounds: string[][] = [];
  let answeredBy = -Infinity;
  for (const call of [...calls].sort((a, b) => a.startedAt - b.startedAt)) {
    if (call.startedAt >= answeredBy || rounds.length === 0) rounds.push([]);
    rounds.at(-1)?.push(call.command);
    answeredBy = Math.max(answeredBy, call.endedAt);
  }
  return rounds.map((round) => round.sort());
}

let handler: (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
const calls: Call[] = [];

beforeAll(async () => {
  const topology = readLocalTopology(baseUrl());
  const route = topology.routes.find((candidate) => candidate.method === 'POST' && candidate.resourcePath === '/v2/shorten');
  const spec = route?.integration.kind === 'lambda' ? topology.functions.get(route.integration.functionId) : undefined;
  if (!spec) throw new Error('no function for POST /v2/shorten in the template');
  Object.assign(process.env, spec.environment, localAwsEnvironment(Number(process.env.LOCAL_DYNAMODB_PORT), Number(process.env.LOCAL_SSM_PORT)), {
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  const create = await import('../../functions/create/handler');
  // The Lambda runtime calls it with the event and the context only: middy adds the rest.
  handler = (event, context) => create.handler(event, context as Parameters<typeof create.handler>[1]);
  const { dynamoPlain } = await import('../../functions/shared/adapters/clients');
  dynamoPlain().middlewareStack.add(
    (next, context) => async (args) => {
      const startedAt = performance.now();
      try {
        return await next(args);
      } finally {
        calls.push({ command: String(context.commandName), startedAt, endedAt: performance.now() });
      }
    },
    { step: 'initialize', name: 'roundTripTimer' },
  );
});

/** A POST /v2/shorten as API Gateway hands it over once the authorizer has vouched for the key. */
function creation(plan: 'PRO' | 'ENTERPRISE', body: object): APIGatewayProxyEvent {
  const accountId = `acct_${randomUUID().slice(0, 8)}`;
  return {
    resource: '/v2/shorten',
    path: '/v2/shorten',
    httpMethod: 'POST',
    headers: { 'content-type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: {
      requestId: randomUUID(),
      identity: { sourceIp: '192.0.2.10' },
      authorizer: { keyId: `key_${randomUUID().slice(0, 8)}`, accountId, owner: `acct:${accountId}`, plan, monthlyLimit: '' },
    },
  } as unknown as APIGatewayProxyEvent;
}

const lambdaContext = { functionName: 'create', awsRequestId: 'test', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

async function tripsOf(event: APIGatewayProxyEvent): Promise<{ status: number; rounds: string[][] }> {
  calls.length = 0;
  const response = await handler(event, lambdaContext);
  return { status: response.statusCode, rounds: roundTrips(calls) };
}

describe('creation round trips', () => {
  beforeAll(async () => {
    // The container's first request also reads its flags and the short base URL (SSM, kept afterwards).
    const warmUp = await handler(creation('PRO', { url: 'https://example.com/warm-up' }), lambdaContext);
    if (warmUp.statusCode !== 201) throw new Error(`the warm-up creation answered ${warmUp.statusCode}: ${warmUp.body}`);
  });

  it('creates a link on a metered plan in two: minute window, monthly quota and default domain side by side, then the link', async () => {
    const { status, rounds } = await tripsOf(creation('PRO', { url: 'https://example.com/two-round-trips' }));
    expect(status).toBe(201);
    expect(rounds).toEqual([['GetItemCommand', 'UpdateItemCommand', 'UpdateItemCommand'], ['PutItemCommand']]);
  });

  it('creates an alias on an unmetered plan in two: minute window and default domain, then the link', async () => {
    const { status, rounds } = await tripsOf(creation('ENTERPRISE', { url: 'https://example.com/alias', alias: `trips-${randomUUID().slice(0, 8)}` }));
    expect(status).toBe(201);
    expect(rounds).toEqual([['GetItemCommand', 'UpdateItemCommand'], ['PutItemCommand']]);
  });
});
