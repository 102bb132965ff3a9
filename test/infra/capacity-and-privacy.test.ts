import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { ROUTES } from '../../functions/shared/http/routes';
import { STRICT_TRANSPORT_SECURITY } from '../../functions/shared/http/headers';
import { MAX_BATCH_ITEMS } from '../../functions/shared/domain/links/batch-request';
import { BULK_TIME_BUDGET_MS } from '../../functions/shared/domain/links/bulk-request';
import { ACCOUNT_RATE_LIMIT, BATCH_FUNCTION, hashingSeconds, METHOD_THROTTLES, PASSWORD_HASH_CPU_MS, methodThrottle, RESERVED_CONCURRENCY, trafficClassOf, WAF_RATE_LIMITS, WEBHOOK_DELIVERER_MAX_CONCURRENCY } from '../../lib/capacity';
import { buildStack } from './app-factory';

/** Issue 16: a viral link cannot starve the API, no visitor address is kept, the account's settings once. */
const { app, stack } = buildStack({ stage: 'dev' });
const dev = Template.fromStack(stack);
function stackNamed(name: string): Stack {
  const found = app.node.children.find((child): child is Stack => child instanceof Stack && child.stackName === name);
  if (!found) throw new Error(`no stack ${name}`);
  return found;
}
const stackOf = (name: string) => Template.fromStack(stackNamed(name));
const edge = stackOf('shortener-dev-edge');

function functionOf(name: string): Record<string, unknown> {
  const [fn] = Object.values(dev.findResources('AWS::Lambda::Function', { Properties: { Environment: { Variables: { POWERTOOLS_SERVICE_NAME: name } } } }));
  return (fn as { Properties: Record<string, unknown> }).Properties;
}

describe('capacity: each kind of traffic has its own ceiling', () => {
  const stage = Object.values(dev.findResources('AWS::ApiGateway::Stage'))[0] as { Properties: { MethodSettings: Array<Record<string, unknown>>; TracingEnabled?: boolean } };

  const throttleOf = (method: string, path: string) =>
    // MethodSettings write the root as '/', every other path with its slashes as '~1'.
    stage.Properties.MethodSettings.find((candidate) => candidate.HttpMethod === method && candidate.ResourcePath === (path === '/' ? '/' : `/${path.replaceAll('/', '~1')}`));

  it.each(ROUTES.flatMap((route) => route.methods.map((method) => [method, route.path, trafficClassOf(route), route] as const)))(
    '%s %s is throttled on its own, as %s traffic',
    (method, path, _trafficClass, route) => {
      const expected = methodThrottle(route, method);
      expect(throttleOf(method, path)).toMatchObject({ ThrottlingRateLimit: expected.rateLimit, ThrottlingBurstLimit: expected.burstLimit });
    },
  );

  it('leaves API clients at least half of the account\'s rate, however hard visitors, v1 callers and readers push', () => {
    const notApi = ROUTES.filter((route) => !route.apiKey).flatMap((route) => route.methods.map((method) => Number(throttleOf(method, route.path)?.ThrottlingRateLimit)));
    const total = notApi.reduce((sum, rate) => sum + rate, 0);
    expect(total).toBeLessThanOrEqual(ACCOUNT_RATE_LIMIT / 2 + 500);
    expect(ACCOUNT_RATE_LIMIT - total).toBeGreaterThanOrEqual(METHOD_THROTTLES.api.rateLimit * 2);
    expect(METHOD_THROTTLES.anonymous.rateLimit).toBeLessThan(METHOD_THROTTLES.api.rateLimit / 10);
  });

  it('caps the redirect and reserves executions for the authorizer', () => {
    expect(functionOf('redirect').ReservedConcurrentExecutions).toBe(RESERVED_CONCURRENCY.redirect);
    expect(functionOf('authorizer').ReservedConcurrentExecutions).toBe(RESERVED_CONCURRENCY.authorizer);
    // The pool left to everything else stays well above the 100 AWS requires unreserved.
    expect(1000 - RESERVED_CONCURRENCY.redirect - RESERVED_CONCURRENCY.authorizer - RESERVED_CONCURRENCY.webhookRouter).toBeGreaterThanOrEqual(500);
  });

  it('bounds the webhook router and deliverer, so slow endpoints and a stream of clicks cannot take the pool (issue 27)', () => {
    expect(functionOf('webhook-events').ReservedConcurrentExecutions).toBe(RESERVED_CONCURRENCY.webhookRouter);
    const delivererId = Object.keys(dev.findResources('AWS::Lambda::Function', { Properties: { Environment: { Variables: { POWERTOOLS_SERVICE_NAME: 'webhook-deliverer' } } } }))[0];
    const [mapping] = Object.values(dev.findResources('AWS::Lambda::EventSourceMapping', { Properties: { FunctionName: { Ref: delivererId } } }));
    expect(mapping?.Properties.ScalingConfig).toEqual({ MaximumConcurrency: WEBHOOK_DELIVERER_MAX_CONCURRENCY });
    // What both can hold at worst still leaves the API's functions most of the unreserved pool.
    expect(1000 - RESERVED_CONCURRENCY.redirect - RESERVED_CONCURRENCY.authorizer - RESERVED_CONCURRENCY.webhookRouter - WEBHOOK_DELIVERER_MAX_CONCURRENCY).toBeGreaterThanOrEqual(500);
  });

  it('lets an operator on a small account drop the reservations', () => {
    const small = Template.fromStack(buildStack({ stage: 'dev', redirectConcurrency: 'none', authorizerConcurrency: '20', webhookRouterConcurrency: 'none' }).stack);
    const reserved = Object.values(small.findResources('AWS::Lambda::Function')).map((fn) => (fn as { Properties: { ReservedConcurrentExecutions?: number } }).Properties.ReservedConcurrentExecutions);
    expect(reserved.filter((value) => value !== undefined)).toEqual([20]);
  });

  it('limits API callers per address with a regional web ACL on the stage, v1 far more tightly', () => {
    const acl = Object.values(dev.findResources('AWS::WAFv2::WebACL'))[0] as { Properties: { Scope: string; Rules: Array<{ Name: string; Statement: { RateBasedStatement: { Limit: number } } }> } };
    expect(acl.Properties.Scope).toBe('REGIONAL');
    const limits = Object.fromEntries(acl.Properties.Rules.map((rule) => [rule.Name, rule.Statement.RateBasedStatement.Limit]));
    expect(limits).toEqual({
      AnonymousPerAddress: WAF_RATE_LIMITS.anonymousPerAddress,
      ApiPerAddress: WAF_RATE_LIMITS.apiPerAddress,
      DirectVisitorsPerAddress: WAF_RATE_LIMITS.directVisitorPerAddress,
    });
    dev.hasResourceProperties('AWS::WAFv2::WebACLAssociation', { ResourceArn: Match.objectLike({ 'Fn::Join': Match.anyValue() }) });
  });

  it('limits visitors per viewer address with a CloudFront web ACL in us-east-1, attached to the distribution', () => {
    expect(stackNamed('shortener-dev-edge').region).toBe('us-east-1');
    edge.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      Rules: [Match.objectLike({ Statement: { RateBasedStatement: Match.objectLike({ Limit: WAF_RATE_LIMITS.visitorPerAddress, AggregateKeyType: 'IP' }) } })],
    });
    dev.hasResourceProperties('AWS::CloudFront::Distribution', { DistributionConfig: Match.objectLike({ WebACLId: Match.anyValue() }) });
  });

  it('sizes the batch function for 50 password hashes with twice the time they take', () => {
    expect(functionOf('batch')).toMatchObject({ MemorySize: BATCH_FUNCTION.memorySize, Timeout: BATCH_FUNCTION.timeoutSeconds });
    expect(BATCH_FUNCTION.timeoutSeconds).toBeGreaterThanOrEqual(2 * hashingSeconds(MAX_BATCH_ITEMS, PASSWORD_HASH_CPU_MS, BATCH_FUNCTION.memorySize));
  });

  it('gives a bulk action\'s filter its time budget with a page of writes and the answer to spare in the links function', () => {
    // The budget is checked between pages: the page in flight (100 writes) and the answer come after it.
    expect((functionOf('links').Timeout as number) * 1000).toBeGreaterThanOrEqual(BULK_TIME_BUDGET_MS + 3_000);
  });
});

describe('privacy and transport', () => {
  it('records no X-Ray traces on the API stage (they hold client addresses and full URLs)', () => {
    dev.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: false });
    for (const fn of ['create', 'batch', 'redirect', 'links']) expect(functionOf(fn).TracingConfig).toBeUndefined();
  });

  it('counts addresses under a generated secret, given to the functions that count them', () => {
    dev.hasResourceProperties('AWS::SecretsManager::Secret', { Name: 'shortener-dev-client-key', GenerateSecretString: Match.objectLike({ PasswordLength: 48 }) });
    for (const fn of ['create', 'batch', 'redirect']) {
      expect((functionOf(fn).Environment as { Variables: Record<string, string> }).Variables.CLIENT_KEY_PARAMETER).toBe('/aws/reference/secretsmanager/shortener-dev-client-key');
    }
  });

  it('sends HSTS from the short domain\'s distribution', () => {
    dev.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: { StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true } },
      }),
    });
    expect(STRICT_TRANSPORT_SECURITY.value).toBe('max-age=63072000; includeSubDomains');
  });

  it('sends HSTS on every answer API Gateway makes itself', () => {
    const responses = Object.values(dev.findResources('AWS::ApiGateway::GatewayResponse'));
    expect(responses.length).toBeGreaterThan(10);
    for (const response of responses) {
      expect((response as { Properties: { ResponseParameters: Record<string, string> } }).Properties.ResponseParameters['gatewayresponse.header.Strict-Transport-Security']).toBe(`'${STRICT_TRANSPORT_SECURITY.value}'`);
    }
  });

  it('sends the origin secret\'s current value, and names its rotation generation', () => {
    const distribution = JSON.stringify(dev.findResources('AWS::CloudFront::Distribution'));
    expect(distribution).toContain(':SecretString:current::}}');
    expect(distribution).toContain('origin secret generation 1');
    const rotated = JSON.stringify(Template.fromStack(buildStack({ stage: 'dev', originSecretGeneration: '2' }).stack).findResources('AWS::CloudFront::Distribution'));
    expect(rotated).toContain('origin secret generation 2');
  });
});

describe('least privilege and logs', () => {
  const policies = JSON.stringify(dev.findResources('AWS::IAM::Policy'));

  it('reads flags with GetParameters only, never their history', () => {
    expect(policies).not.toContain('ssm:GetParameterHistory');
    expect(policies).toContain('ssm:GetParameters');
  });

  it('lets the aggregator add to a link\'s clicks and bots and touch nothing else of it', () => {
    expect(policies).toContain('"dynamodb:Attributes":["code","clicks","bots"]');
    expect(policies).toContain('"dynamodb:Attributes":["code","owner","tags"]');
    // Of a workspace's account record, the analytics switches alone (issue 30).
    expect(policies).toContain('"dynamodb:Attributes":["accountId","analytics"]');
    expect(policies).toContain('"dynamodb:ReturnValues":"NONE"');
  });

  it('creates the execution log group API Gateway writes to, with a retention', () => {
    dev.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: { 'Fn::Join': ['', Match.arrayWith(['API-Gateway-Execution-Logs_'])] },
      RetentionInDays: 30,
    });
  });

  it('manages the account\'s API Gateway role once, in its own stack, scoped to API Gateway\'s log groups', () => {
    dev.resourceCountIs('AWS::ApiGateway::Account', 0);
    const account = stackOf(app.node.children.map((child) => child.node.id).find((id) => id.startsWith('shortener-apigateway-account-')) ?? '');
    account.resourceCountIs('AWS::ApiGateway::Account', 1);
    const role = JSON.stringify(account.findResources('AWS::IAM::Role'));
    expect(role).not.toContain('AmazonAPIGatewayPushToCloudWatchLogs');
    expect(role).toContain('log-group:API-Gateway-Execution-Logs_*');
    expect(role).not.toMatch(/"logs:(GetLogEvents|FilterLogEvents)"/);
  });
});
