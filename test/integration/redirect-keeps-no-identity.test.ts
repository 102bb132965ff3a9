import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { localAwsEnvironment, readLocalTopology } from '../../bin/local/stack';
import { DynamoLinkStore } from '../../functions/shared/adapters/dynamo-link-store';
import { clickInLogLine } from '../../functions/shared/domain/analytics/click-lines';
import { isRegisterUpdate } from '../../functions/shared/domain/analytics/visitor-sketch';
import { baseUrl, dynamo } from '../support/local-stack';

/**
 * Issue 30: the redirect's own module, run in this process with the environment the template gives it (against the
 * local stack's DynamoDB Local and SSM), and everything it writes to its log read back: a person's click carries a
 * unique-visitor update, and neither the visitor's address (nor its /64) nor the User-Agent appears anywhere.
 */
let handler: (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
let linksTable: string;

beforeAll(async () => {
  const topology = readLocalTopology(baseUrl());
  const route = topology.routes.find((candidate) => candidate.method === 'GET' && candidate.resourcePath === '/{code}');
  const spec = route?.integration.kind === 'lambda' ? topology.functions.get(route.integration.functionId) : undefined;
  if (!spec) throw new Error('no function for GET /{code} in the template');
  Object.assign(process.env, spec.environment, localAwsEnvironment(Number(process.env.LOCAL_DYNAMODB_PORT), Number(process.env.LOCAL_SSM_PORT)), {
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  linksTable = String(spec.environment.LINKS_TABLE);
  const redirect = await import('../../functions/redirect/handler');
  handler = (event, context) => redirect.handler(event, context as Parameters<typeof redirect.handler>[1]);
});

const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0 PrivateBuild/7.3.1-unique';

function visit(code: string, sourceIp: string, userAgent: string): APIGatewayProxyEvent {
  return {
    resource: '/{code}',
    path: `/${code}`,
    httpMethod: 'GET',
    headers: { 'user-agent': userAgent, referer: 'https://news.example/story' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { code },
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: randomUUID(), identity: { sourceIp } },
  } as unknown as APIGatewayProxyEvent;
}

const lambdaContext = { functionName: 'redirect', awsRequestId: 'test', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

/** Everything the function writes while `run` runs: its log is its standard output (and the console, for safety). */
async function written(run: () => Promise<unknown>): Promise<string> {
  const chunks: string[] = [];
  const spies = [
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (chunks.push(String(chunk)), true)),
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (chunks.push(String(chunk)), true)),
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((method) => jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void chunks.push(args.map(String).join(' ')))),
  ];
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return chunks.join('');
}

describe('what the redirect writes for a visit', () => {
  it('is a click with a visitor update, and never the address, its network or the User-Agent', async () => {
    const code = `noid${randomUUID().slice(0, 8)}`;
    await new DynamoLinkStore(dynamo(), linksTable).createIfAbsent({ code, url: 'https://example.com/', isAlias: false, createdAt: new Date().toISOString(), clicks: 0, owner: 'acct:a' });
    const visitors: Array<[string, string[]]> = [
      ['203.0.113.77', ['203.0.113.77']],
      ['2001:db8:abcd:12:1111:2222:3333:4444', ['2001:db8:abcd:12', '2001:db8:abcd:12:1111:2222:3333:4444', '1111:2222:3333:4444']],
    ];
    for (const [address, forms] of visitors) {
      let status = 0;
      const output = await written(async () => {
        status = (await handler(visit(code, address, USER_AGENT), lambdaContext)).statusCode;
      });
      expect(status).toBe(302);
      const clicks = output.split('\n').flatMap((line) => clickInLogLine(line) ?? []);
      expect(clicks).toHaveLength(1);
      expect(clicks[0]).toMatchObject({ code, browser: 'Firefox', os: 'Linux' });
      expect(isRegisterUpdate(clicks[0]?.visitor)).toBe(true);
      for (const form of forms) expect(output).not.toContain(form);
      expect(output).not.toContain(USER_AGENT);
      expect(output).not.toContain('PrivateBuild');
      expect(output).not.toContain('140.0');
    }
  });
});
