import { Match, Template } from 'aws-cdk-lib/assertions';
import { ROUTES } from '../../functions/shared/http/routes';
import { Messages } from '../../functions/shared/domain/messages';
import { buildStack } from './app-factory';
import { readTopology, type Template as Template_ } from '../../bin/local/template';

const dev = Template.fromStack(buildStack({ stage: 'dev' }).stack);
const prod = Template.fromStack(buildStack({ stage: 'prod' }).stack);

function logicalIdOf(template: Template, type: string, match: object): string {
  const found = Object.keys(template.findResources(type, match));
  if (found.length !== 1) throw new Error(`expected one ${type}, found ${found.length}`);
  return found[0] as string;
}

function functionId(template: Template, name: string): string {
  return logicalIdOf(template, 'AWS::Lambda::Function', { Properties: { Environment: { Variables: { POWERTOOLS_SERVICE_NAME: name } } } });
}

/** Every DynamoDB action a function's role may call, with the table it may call it on. */
function tableGrants(template: Template, fnName: string): string[] {
  const roleId = (template.toJSON().Resources[functionId(template, fnName)].Properties.Role['Fn::GetAtt'] as string[])[0];
  const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
    (policy.Properties.Roles as Array<{ Ref: string }>).some((role) => role.Ref === roleId),
  );
  return policies.flatMap((policy) =>
    (policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>).flatMap((statement) => {
      const actions = ([] as string[]).concat(statement.Action).filter((action) => action.startsWith('dynamodb:'));
      const resources = JSON.stringify(statement.Resource);
      const table = /"(Data(Links|ApiKeys|Accounts|ClickStats|Usage|AliasOverrides|Idempotency|Domains|Webhooks|AuditLog|Members|Imports|VisitorSalts|LinkHealth)[A-Z0-9]+)"/.exec(resources)?.[2] ?? 'none';
      return actions.map((action) => `${table}:${action}`);
    }),
  ).sort();
}

describe('functions', () => {
  it('are Node.js 22 on arm64 with JSON logs and a log group with retention', () => {
    dev.resourcePropertiesCountIs('AWS::Lambda::Function', { Runtime: 'nodejs24.x', Architectures: ['arm64'], LoggingConfig: Match.objectLike({ LogFormat: 'JSON' }) }, 23);
    // Twenty-three functions, the API's access logs and its execution logs (a group API Gateway would otherwise keep forever).
    dev.resourcePropertiesCountIs('AWS::Logs::LogGroup', { RetentionInDays: 30 }, 25);
  });

  it('each get only the DynamoDB calls they make, on the tables they use', () => {
    expect(tableGrants(dev, 'authorizer')).toEqual(['Accounts:dynamodb:GetItem', 'ApiKeys:dynamodb:GetItem', 'ApiKeys:dynamodb:UpdateItem', 'Members:dynamodb:GetItem']);
    // Keys and their audit records go in one transaction: its items' own actions, and the one index it lists from.
    expect(tableGrants(dev, 'keys')).toEqual(['ApiKeys:dynamodb:PutItem', 'ApiKeys:dynamodb:Query', 'ApiKeys:dynamodb:UpdateItem', 'AuditLog:dynamodb:PutItem', 'Usage:dynamodb:UpdateItem']);
    expect(tableGrants(dev, 'docs')).toEqual([]);
    expect(tableGrants(dev, 'me')).toEqual(['Members:dynamodb:Query']);
    for (const creator of ['create', 'batch']) {
      expect(tableGrants(dev, creator)).toEqual([
        'AliasOverrides:dynamodb:GetItem',
        'Domains:dynamodb:GetItem',
        'Idempotency:dynamodb:DeleteItem',
        'Idempotency:dynamodb:GetItem',
        'Idempotency:dynamodb:PutItem',
        'Idempotency:dynamodb:UpdateItem',
        'Links:dynamodb:PutItem',
        'Usage:dynamodb:UpdateItem',
      ].sort());
    }
    expect(tableGrants(dev, 'redirect')).toEqual(['Domains:dynamodb:GetItem', 'Links:dynamodb:GetItem', 'Links:dynamodb:UpdateItem', 'Usage:dynamodb:UpdateItem', 'VisitorSalts:dynamodb:UpdateItem']);
    expect(tableGrants(dev, 'links')).toEqual([
      'ClickStats:dynamodb:Query',
      'Domains:dynamodb:GetItem',
      'Links:dynamodb:BatchGetItem',
      'Links:dynamodb:GetItem',
      'Links:dynamodb:Query',
      'Links:dynamodb:UpdateItem',
      'Usage:dynamodb:GetItem',
      'Usage:dynamodb:UpdateItem',
    ]);
    expect(tableGrants(dev, 'qr')).toEqual(['Domains:dynamodb:GetItem', 'Links:dynamodb:GetItem', 'Usage:dynamodb:UpdateItem']);
    expect(tableGrants(dev, 'aggregator')).toEqual([
      'Accounts:dynamodb:BatchGetItem',
      'ClickStats:dynamodb:GetItem',
      'ClickStats:dynamodb:PutItem',
      'ClickStats:dynamodb:UpdateItem',
      'Links:dynamodb:GetItem',
      'Links:dynamodb:UpdateItem',
      'Webhooks:dynamodb:Query',
      'Webhooks:dynamodb:UpdateItem',
    ]);
    expect(tableGrants(dev, 'webhooks')).toEqual([
      'AuditLog:dynamodb:PutItem',
      'Usage:dynamodb:UpdateItem',
      'Webhooks:dynamodb:DeleteItem',
      'Webhooks:dynamodb:GetItem',
      'Webhooks:dynamodb:PutItem',
      'Webhooks:dynamodb:Query',
      'Webhooks:dynamodb:UpdateItem',
    ]);
    // The stream reads name the two streams; ListStreams has no resource-level permission.
    expect(tableGrants(dev, 'webhook-events')).toEqual([
      'Accounts:dynamodb:GetItem',
      'Links:dynamodb:DescribeStream',
      'Links:dynamodb:GetRecords',
      'Links:dynamodb:GetShardIterator',
      'Usage:dynamodb:DescribeStream',
      'Usage:dynamodb:GetRecords',
      'Usage:dynamodb:GetShardIterator',
      'Webhooks:dynamodb:Query',
      'none:dynamodb:ListStreams',
    ]);
    // The producer of link.clicked numbers a webhook's clicks (its backlog, issue 27): that attribute and no other.
    const roleId = (dev.toJSON().Resources[functionId(dev, 'aggregator')].Properties.Role['Fn::GetAtt'] as string[])[0];
    const statements = Object.values(dev.findResources('AWS::IAM::Policy'))
      .filter((policy) => (policy.Properties.Roles as Array<{ Ref: string }>).some((role) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<{ Action: unknown; Resource: unknown; Condition?: unknown }>)
      .filter((statement) => statement.Action === 'dynamodb:UpdateItem' && JSON.stringify(statement.Resource).includes('DataWebhooks'));
    expect(statements.map((statement) => statement.Condition)).toEqual([
      { 'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'clickSeq'] }, StringEqualsIfExists: { 'dynamodb:ReturnValues': 'UPDATED_NEW' } },
    ]);
    // The authorizer's one write is a key's last use: that attribute and no other, returning nothing.
    const authorizerRole = (dev.toJSON().Resources[functionId(dev, 'authorizer')].Properties.Role['Fn::GetAtt'] as string[])[0];
    const authorizerUpdates = Object.values(dev.findResources('AWS::IAM::Policy'))
      .filter((policy) => (policy.Properties.Roles as Array<{ Ref: string }>).some((role) => role.Ref === authorizerRole))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<{ Action: unknown; Condition?: unknown }>)
      .filter((statement) => statement.Action === 'dynamodb:UpdateItem');
    expect(authorizerUpdates.map((statement) => statement.Condition)).toEqual([
      { 'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['keyHash', 'lastUsedAt'] }, StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' } },
    ]);
    expect(tableGrants(dev, 'webhook-deliverer')).toEqual([
      'Links:dynamodb:GetItem',
      'Webhooks:dynamodb:DeleteItem',
      'Webhooks:dynamodb:GetItem',
      'Webhooks:dynamodb:PutItem',
      'Webhooks:dynamodb:UpdateItem',
    ]);
    expect(tableGrants(dev, 'domains')).toEqual([
      'AuditLog:dynamodb:PutItem',
      'Domains:dynamodb:DeleteItem',
      'Domains:dynamodb:GetItem',
      'Domains:dynamodb:PutItem',
      'Domains:dynamodb:Query',
      'Domains:dynamodb:UpdateItem',
      'Usage:dynamodb:UpdateItem',
    ]);
    expect(tableGrants(dev, 'domain-worker')).toEqual([
      'Domains:dynamodb:DeleteItem',
      'Domains:dynamodb:GetItem',
      'Domains:dynamodb:Query',
      'Domains:dynamodb:UpdateItem',
      'Links:dynamodb:Query',
      'Links:dynamodb:UpdateItem',
    ]);
  });

  it('let nobody change or delete an audit record: the reader queries, the writers put (conditionally, in code)', () => {
    expect(tableGrants(dev, 'audit')).toEqual(['AuditLog:dynamodb:Query', 'Usage:dynamodb:UpdateItem']);
    expect(tableGrants(dev, 'audit-events')).toEqual([
      'AuditLog:dynamodb:PutItem',
      'Links:dynamodb:DescribeStream',
      'Links:dynamodb:GetRecords',
      'Links:dynamodb:GetShardIterator',
      'none:dynamodb:ListStreams',
    ]);
    const names = Object.values(dev.findResources('AWS::Lambda::Function')).map((fn) => String(fn.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME ?? ''));
    const onAudit = Object.fromEntries(names.filter(Boolean).map((name) => [name, tableGrants(dev, name).filter((grant) => grant.startsWith('AuditLog:'))]));
    // Each writer puts its changes' records (keys, single sign-on and the workspace's people too); only the reader queries.
    expect(Object.entries(onAudit).filter(([, grants]) => grants.length > 0)).toEqual([
      ['keys', ['AuditLog:dynamodb:PutItem']],
      ['sso', ['AuditLog:dynamodb:PutItem']],
      ['workspace', ['AuditLog:dynamodb:PutItem']],
      ['domains', ['AuditLog:dynamodb:PutItem']],
      ['webhooks', ['AuditLog:dynamodb:PutItem']],
      ['audit', ['AuditLog:dynamodb:Query']],
      ['audit-events', ['AuditLog:dynamodb:PutItem']],
    ].sort(([a], [b]) => names.indexOf(a as string) - names.indexOf(b as string)));
  });

  it('may query only the one index each reads, never index/*', () => {
    const policies = JSON.stringify(dev.findResources('AWS::IAM::Policy'));
    for (const index of ['byOwner', 'byDomain', 'byWork', 'byAccount']) expect(policies).toContain(`/index/${index}`);
    expect(policies).not.toContain('/index/*');
  });

  it('do not use the broad AWS-managed basic execution role', () => {
    // CDK's own cross-region export reader and the dashboard's file copier run at deploy time only; the service's
    // functions are what this is about.
    const roles = Object.entries(dev.findResources('AWS::IAM::Role')).filter(([id]) => !id.startsWith('CustomCrossRegionExportReader') && !id.startsWith('CustomCDKBucketDeployment'));
    expect(roles.length).toBeGreaterThanOrEqual(8);
    expect(JSON.stringify(roles)).not.toContain('AWSLambdaBasicExecutionRole');
  });
});

describe('tables', () => {
  it('expire links and usage counters through native TTL', () => {
    dev.hasResourceProperties('AWS::DynamoDB::Table', { KeySchema: [{ AttributeName: 'code', KeyType: 'HASH' }], TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true } });
    dev.hasResourceProperties('AWS::DynamoDB::Table', { KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true } });
  });

  it('store API keys under their hash, and accounts by id', () => {
    dev.hasResourceProperties('AWS::DynamoDB::Table', { KeySchema: [{ AttributeName: 'keyHash', KeyType: 'HASH' }] });
    dev.hasResourceProperties('AWS::DynamoDB::Table', { KeySchema: [{ AttributeName: 'accountId', KeyType: 'HASH' }] });
  });

  it('index links by owner and creation time, so an account lists its links with a Query', () => {
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'code', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: Match.arrayWith([
        {
          IndexName: 'byOwner',
          KeySchema: [
            { AttributeName: 'owner', KeyType: 'HASH' },
            { AttributeName: 'createdAt', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ]),
    });
  });

  it('index API keys by account and creation time (sparse: keys from before accounts have none), so a workspace lists its keys with a Query', () => {
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'keyHash', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byAccount',
          KeySchema: [
            { AttributeName: 'accountId', KeyType: 'HASH' },
            { AttributeName: 'createdAt', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    });
  });

  it('index custom-domain links by domain (sparse), and domains by owner and by due work', () => {
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'code', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: Match.arrayWith([
        Match.objectLike({ IndexName: 'byDomain', KeySchema: [{ AttributeName: 'domain', KeyType: 'HASH' }, { AttributeName: 'createdAt', KeyType: 'RANGE' }], Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['owner'] } }),
      ]),
    });
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'domain', KeyType: 'HASH' }],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      GlobalSecondaryIndexes: [
        Match.objectLike({ IndexName: 'byOwner' }),
        Match.objectLike({ IndexName: 'byWork', KeySchema: [{ AttributeName: 'work', KeyType: 'HASH' }, { AttributeName: 'dueAt', KeyType: 'RANGE' }] }),
      ],
    });
  });

  it('are on demand, with point-in-time recovery (but for short-lived counters and retry records), retained when the stack goes', () => {
    dev.resourcePropertiesCountIs(
      'AWS::DynamoDB::Table',
      { BillingMode: 'PAY_PER_REQUEST', PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } },
      10,
    );
    // Issue 16: counters expire within the hour (the month's quota within the month); 35 days of backups would outlive them.
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false },
    });
    const retained = Object.entries(dev.findResources('AWS::DynamoDB::Table')).filter(([, table]) => table.DeletionPolicy === 'Retain');
    expect(retained.map(([id]) => id).filter((id) => id.startsWith('DataIdempotency'))).toEqual([]);
    expect(retained).toHaveLength(11);
  });

  it('keep idempotency records a day at most, through TTL, without backups', () => {
    dev.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        TimeToLiveSpecification: { AttributeName: 'expiration', Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false },
      }),
    });
  });

  it('keep the daily visitor salts nowhere past their day: TTL, no stream, no backups, deleted with the stack (issue 30)', () => {
    const salts = Object.values(dev.findResources('AWS::DynamoDB::Table')).filter((table) => table.Properties.KeySchema?.[0]?.AttributeName === 'day' && table.Properties.KeySchema.length === 1);
    expect(salts).toHaveLength(1);
    expect(salts[0]).toMatchObject({
      DeletionPolicy: 'Delete',
      Properties: { TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true }, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false } },
    });
    expect(salts[0]?.Properties.StreamSpecification).toBeUndefined();
  });

  it('refuse deletion in prod only', () => {
    prod.resourcePropertiesCountIs('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true }, 14);
    dev.resourcePropertiesCountIs('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true }, 0);
  });
});

describe('click counting', () => {
  it('subscribes the aggregator to the redirect\'s click lines', () => {
    const redirect = dev.toJSON().Resources[functionId(dev, 'redirect')].Properties;
    dev.hasResourceProperties('AWS::Logs::SubscriptionFilter', {
      LogGroupName: redirect.LoggingConfig.LogGroup,
      FilterPattern: '{ $.message = "click" }',
      DestinationArn: { 'Fn::GetAtt': [functionId(dev, 'aggregator'), 'Arn'] },
    });
    dev.hasResourceProperties('AWS::Lambda::Permission', { Principal: 'logs.amazonaws.com', FunctionName: { 'Fn::GetAtt': [functionId(dev, 'aggregator'), 'Arn'] } });
  });

  it('keeps Lambda\'s own start and report lines out of the redirect\'s log group, and only there', () => {
    const redirect = dev.toJSON().Resources[functionId(dev, 'redirect')].Properties;
    expect(redirect.LoggingConfig).toEqual(expect.objectContaining({ LogFormat: 'JSON', SystemLogLevel: 'WARN' }));
    // The other functions keep their report lines: they are called far less, and a report is how one is debugged.
    dev.resourcePropertiesCountIs('AWS::Lambda::Function', { LoggingConfig: Match.objectLike({ SystemLogLevel: Match.anyValue() }) }, 1);
  });

  it('retries a failed delivery twice, then keeps it in a dead-letter queue', () => {
    dev.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: Match.objectLike({ 'Fn::GetAtt': Match.arrayWith(['Arn']) }) } },
    });
    // With the webhooks' delivery queue and its two dead-letter queues, the imports' chunk queue and its own, the audit
    // recorder's, and link health's check queue and its own.
    dev.resourceCountIs('AWS::SQS::Queue', 9);
  });

  it('keeps aggregates per link and UTC day, expiring through TTL', () => {
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'code', KeyType: 'HASH' },
        { AttributeName: 'day', KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
    });
  });
});

describe('feature flags', () => {
  it.each([
    ['shortening', 'on'],
    ['customAliases', 'on'],
    ['passwordProtection', 'on'],
    ['expiration', 'on'],
    ['maintenance', 'off'],
  ])('%s is an SSM parameter under /<app>/<stage>/ defaulting to %s', (flag, value) => {
    prod.hasResourceProperties('AWS::SSM::Parameter', { Name: `/shortener/prod/flags/${flag}`, Value: value, Type: 'String' });
  });
});

describe('REST API', () => {
  const methods = dev.findResources('AWS::ApiGateway::Method');
  const authorizerId = logicalIdOf(dev, 'AWS::ApiGateway::Authorizer', {});

  const topology = readTopology(dev.toJSON() as Template_, '/unused', { region: 'us-east-1', shortHost: 'sho.rt' });

  it.each(ROUTES.flatMap((route) => route.methods.map((method) => [method, route.path, route] as const)))(
    '%s %s reaches its target, behind the API-key authorizer exactly when the spec asks',
    (method, path, route) => {
      const deployed = topology.routes.find((candidate) => candidate.method === method && candidate.resourcePath === path);
      expect(deployed).toBeDefined();
      expect(deployed?.authorizer !== undefined).toBe(route.apiKey);
      const expected = route.target === 'health' ? { kind: 'mock' } : { kind: 'lambda', functionId: functionId(dev, route.target) };
      expect(deployed?.integration).toMatchObject(expected);
    },
  );

  it('has no route the list does not name', () => {
    expect(topology.routes).toHaveLength(ROUTES.flatMap((route) => route.methods).length);
    expect(Object.values(methods).filter((method) => method.Properties.AuthorizerId).every((method) => method.Properties.AuthorizerId.Ref === authorizerId)).toBe(true);
  });

  it('authorizes on the Authorization header with a REQUEST authorizer, without caching results', () => {
    dev.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 0,
    });
  });

  it('answers a missing key with the spec 401 body', () => {
    dev.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'UNAUTHORIZED',
      StatusCode: '401',
      ResponseTemplates: { 'application/json': JSON.stringify({ statusCode: 401, message: Messages.apiKeyRequired, error: 'Unauthorized' }) },
    });
  });

  it('turns an authorizer denial into a 401 carrying the authorizer message', () => {
    dev.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'ACCESS_DENIED',
      StatusCode: '401',
      ResponseTemplates: { 'application/json': '{"statusCode":401,"message":"$context.authorizer.message","error":"Unauthorized"}' },
    });
  });

  it('answers unknown routes and every default error with JSON', () => {
    dev.hasResourceProperties('AWS::ApiGateway::GatewayResponse', { ResponseType: 'MISSING_AUTHENTICATION_TOKEN', StatusCode: '404' });
    for (const type of ['DEFAULT_4XX', 'DEFAULT_5XX']) {
      dev.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        ResponseTemplates: { 'application/json': Match.stringLikeRegexp('^\\{"statusCode":\\d+,"message":".+","error":".+"\\}$') },
      });
    }
  });

  it('logs access without the caller\'s address or user agent', () => {
    const stage = Object.values(dev.findResources('AWS::ApiGateway::Stage'))[0];
    const format = String(stage?.Properties.AccessLogSetting.Format);
    expect(format).toContain('$context.requestId');
    for (const field of ['sourceIp', 'userAgent', 'identity.caller', 'identity.user']) expect(format).not.toContain(field);
  });

  it('logs access and throttles the stage far above the per-key limits', () => {
    dev.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      AccessLogSetting: Match.objectLike({ DestinationArn: Match.anyValue() }),
      MethodSettings: Match.arrayWith([Match.objectLike({ ThrottlingRateLimit: 2000 })]),
    });
  });
});

describe('short domain', () => {
  it('puts CloudFront in front of the API, letting only visitor paths through', () => {
    // The shared short domain's distribution, the customer domains' one (below) and the dashboard's (dashboard.test.ts).
    dev.resourceCountIs('AWS::CloudFront::Distribution', 3);
    // The two visitors' functions, and the dashboard's two: its pages and its API paths (dashboard.test.ts).
    dev.resourceCountIs('AWS::CloudFront::Function', 4);
    const visitorFunctions = Object.entries(dev.findResources('AWS::CloudFront::Function')).filter(([id]) => !id.startsWith('Dashboard'));
    expect(visitorFunctions).toHaveLength(2);
    for (const [, fn] of visitorFunctions) {
      const code = String(fn.Properties.FunctionCode);
      expect(code).toContain('"v2"');
      expect(code).toContain('"health"');
    }
  });

  it('serves a custom domain with its certificate and DNS record when given one', () => {
    const custom = Template.fromStack(
      buildStack({
        stage: 'prod',
        shortDomain: 'sho.rt',
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
        hostedZoneId: 'Z123',
        hostedZoneName: 'sho.rt',
      }).stack,
    );
    custom.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ Aliases: ['sho.rt'], ViewerCertificate: Match.objectLike({ MinimumProtocolVersion: 'TLSv1.2_2021' }) }),
    });
    custom.resourceCountIs('AWS::Route53::RecordSet', 1);
    custom.hasResourceProperties('AWS::SSM::Parameter', { Name: '/shortener/prod/shortBaseUrl', Value: 'https://sho.rt' });
    // create, batch, links, qr, domains, and the three webhook functions (their events carry link views).
    custom.resourcePropertiesCountIs('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ SHORT_BASE_URL: 'https://sho.rt' }) } }, 8);
  });
});

describe('customer domains (CloudFront SaaS Manager)', () => {
  const distributions = dev.findResources('AWS::CloudFront::Distribution');
  const [tenantsId, tenants] = Object.entries(distributions).find(([, resource]) => resource.Properties.DistributionConfig.ConnectionMode === 'tenant-only') ?? [];
  const [, shared] = Object.entries(distributions).find(([id]) => id !== tenantsId && id.startsWith('ShortDomain')) ?? [];

  it('are served by a multi-tenant distribution built like the short domain\'s, and a connection group', () => {
    const config = tenants?.Properties.DistributionConfig;
    expect(config).toMatchObject({ ConnectionMode: 'tenant-only', TenantConfig: { ParameterDefinitions: [] } });
    // Refused on a multi-tenant distribution: the connection group decides them.
    expect(config).not.toHaveProperty('PriceClass');
    expect(config).not.toHaveProperty('IPV6Enabled');
    expect(config).not.toHaveProperty('Aliases');
    const sharedConfig = shared?.Properties.DistributionConfig;
    const withoutId = (origins: Array<Record<string, unknown>>) => origins.map(({ Id: _id, ...origin }) => origin);
    expect(withoutId(config.Origins)).toEqual(withoutId(sharedConfig.Origins));
    expect(config.WebACLId).toEqual(sharedConfig.WebACLId);
    expect(config.DefaultCacheBehavior.CachePolicyId).toEqual(sharedConfig.DefaultCacheBehavior.CachePolicyId);
    dev.hasResourceProperties('AWS::CloudFront::ConnectionGroup', { Enabled: true, Ipv6Enabled: true });
  });

  it('send HSTS without includeSubDomains on customer domains, and with it on the shared short domain', () => {
    const hsts = (distribution: typeof tenants) => {
      const policyId = (distribution?.Properties.DistributionConfig.DefaultCacheBehavior.ResponseHeadersPolicyId.Ref ?? '') as string;
      return dev.toJSON().Resources[policyId].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.StrictTransportSecurity;
    };
    expect(hsts(tenants)).toEqual({ AccessControlMaxAgeSec: 63072000, IncludeSubdomains: false, Override: true });
    expect(hsts(shared)).toEqual({ AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true });
  });

  it('pass the viewer\'s host on from the tenants\' edge function, which the local stack runs too', () => {
    const fnId = (tenants?.Properties.DistributionConfig.DefaultCacheBehavior.FunctionAssociations[0].FunctionARN['Fn::GetAtt'] as string[])[0] as string;
    expect(String(dev.toJSON().Resources[fnId].Properties.FunctionCode)).toContain("request.headers['x-viewer-host'] = ");
    const topology = readTopology(dev.toJSON() as Template_, '/tmp', { region: 'us-east-1', shortHost: 'localhost:3000' });
    expect(topology.customerEdge?.originHeaders).toEqual([{ name: 'x-origin-verify', secretName: 'shortener-dev-origin-verify', jsonKey: 'current' }]);
  });

  it('let the domains function and the worker manage tenants of that distribution only, and only the worker remove them', () => {
    for (const name of ['domains', 'domain-worker']) {
      const roleId = (dev.toJSON().Resources[functionId(dev, name)].Properties.Role['Fn::GetAtt'] as string[])[0];
      const statements = Object.values(dev.findResources('AWS::IAM::Policy'))
        .filter((policy) => (policy.Properties.Roles as Array<{ Ref: string }>).some((role) => role.Ref === roleId))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>)
        .filter((statement) => JSON.stringify(statement.Action).includes('cloudfront:'));
      const resources = JSON.stringify(statements.map((statement) => statement.Resource));
      expect(resources).toContain(tenantsId);
      expect(resources).toContain(':distribution-tenant/*');
      expect(resources).toContain('ConnectionGroup');
      expect(resources).not.toMatch(/"\*"|distribution\/\*/);
      const actions = statements.flatMap((statement) => ([] as string[]).concat(statement.Action));
      expect(actions.every((action) => /^cloudfront:(Create|Get|Update|Delete)DistributionTenant$|^cloudfront:(VerifyDnsConfiguration|GetManagedCertificateDetails)$/.test(action))).toBe(true);
      expect(actions.includes('cloudfront:DeleteDistributionTenant')).toBe(name === 'domain-worker');
    }
  });

  it('are checked and cleaned up every minute by the worker', () => {
    dev.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 minute)', Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [functionId(dev, 'domain-worker'), 'Arn'] } })] });
  });
});

describe('stage configuration', () => {
  it('rejects an unknown stage and a domain without certificate', () => {
    expect(() => buildStack({ stage: 'qa' })).toThrow(/stage must be one of/);
    expect(() => buildStack({ shortDomain: 'sho.rt' })).toThrow(/certificateArn/);
  });
});

describe('URL safety configuration', () => {
  it('reads the Google key from the named SecureString and passes the fail mode to the functions that check destinations only', () => {
    const template = Template.fromStack(buildStack({ safeBrowsingKeyParameter: '/shortener/dev/safeBrowsingKey', safetyFailMode: 'allow' }).stack);
    for (const name of ['create', 'batch', 'links']) {
      template.hasResourceProperties('AWS::Lambda::Function', {
        Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: name, SAFE_BROWSING_KEY_PARAMETER: '/shortener/dev/safeBrowsingKey', SAFETY_FAIL_MODE: 'allow' }) },
      });
    }
    expect(JSON.stringify(template.findResources('AWS::IAM::Policy'))).toContain('parameter/shortener/dev/safeBrowsingKey');
    // ...and the domains function, whose rootUrl, notFoundUrl and expiredUrl are destinations too, and the webhooks one.
    template.resourcePropertiesCountIs('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ SAFE_BROWSING_KEY_PARAMETER: Match.anyValue() }) } }, 5);
    expect(() => buildStack({ safetyFailMode: 'maybe' })).toThrow(/safetyFailMode/);
  });
});

describe('webhooks (issue 19)', () => {
  const queueId = Object.keys(dev.findResources('AWS::SQS::Queue')).find((id) => id.startsWith('WebhooksDeliveries')) ?? '';

  it('read the links table\'s stream and the usage table\'s monthly quota counters only, from committed changes', () => {
    const router = functionId(dev, 'webhook-events');
    dev.hasResourceProperties('AWS::DynamoDB::Table', { KeySchema: [{ AttributeName: 'code', KeyType: 'HASH' }], StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' } });
    dev.hasResourceProperties('AWS::DynamoDB::Table', { KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' } });
    const mappings = Object.values(dev.findResources('AWS::Lambda::EventSourceMapping', { Properties: { FunctionName: { Ref: router } } }));
    expect(mappings).toHaveLength(2);
    for (const mapping of mappings) {
      // Retried, split on error, then kept: a batch the router cannot turn into tasks is never dropped unseen.
      expect(mapping.Properties).toMatchObject({ StartingPosition: 'TRIM_HORIZON', BisectBatchOnFunctionError: true, MaximumRetryAttempts: 10, DestinationConfig: { OnFailure: { Destination: expect.anything() } } });
    }
    const filtered = mappings.filter((mapping) => mapping.Properties.FilterCriteria);
    expect(filtered.map((mapping) => JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern))).toEqual([{ dynamodb: { Keys: { pk: { S: [{ prefix: 'quota#' }] } } } }]);
  });

  it('queue deliveries for 14 days, hand failed tasks back one by one, and keep what fails five times', () => {
    dev.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 1_209_600, VisibilityTimeout: 180, RedrivePolicy: { maxReceiveCount: 5 } });
    dev.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionId(dev, 'webhook-deliverer') },
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(dev.toJSON().Resources[functionId(dev, 'webhook-deliverer')].Properties.Timeout).toBe(30);
  });

  it('seal signing secrets with a rotating KMS key: the API may only make data keys, the deliverer only open them (issue 27)', () => {
    const keys = dev.findResources('AWS::KMS::Key');
    expect(Object.values(keys).map((key) => key.Properties.EnableKeyRotation)).toEqual([true]);
    const keyId = Object.keys(keys)[0] as string;
    const kmsStatements = (name: string) => {
      const roleId = (dev.toJSON().Resources[functionId(dev, name)].Properties.Role['Fn::GetAtt'] as string[])[0];
      return Object.values(dev.findResources('AWS::IAM::Policy'))
        .filter((policy) => (policy.Properties.Roles as Array<{ Ref: string }>).some((role) => role.Ref === roleId))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown; Condition?: unknown }>)
        .filter((statement) => JSON.stringify(statement.Action).includes('kms:'));
    };
    const onlyWebhookContext = { 'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['webhookId'] }, Null: { 'kms:EncryptionContextKeys': 'false' } };
    expect(kmsStatements('webhooks')).toEqual([{ Effect: 'Allow', Action: 'kms:GenerateDataKey', Resource: { 'Fn::GetAtt': [keyId, 'Arn'] }, Condition: onlyWebhookContext }]);
    expect(kmsStatements('webhook-deliverer')).toEqual([{ Effect: 'Allow', Action: 'kms:Decrypt', Resource: { 'Fn::GetAtt': [keyId, 'Arn'] }, Condition: onlyWebhookContext }]);
    for (const other of ['webhook-events', 'aggregator', 'links', 'create', 'redirect']) expect(kmsStatements(other)).toEqual([]);
    for (const name of ['webhooks', 'webhook-deliverer']) {
      expect(dev.toJSON().Resources[functionId(dev, name)].Properties.Environment.Variables.WEBHOOK_SECRETS_KEY).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    }
  });

  it('route /v2/webhooks and below to the webhooks function, behind the authorizer', () => {
    const fnId = functionId(dev, 'webhooks');
    const methods = Object.values(dev.findResources('AWS::ApiGateway::Method')).filter((method) => JSON.stringify(method.Properties.Integration).includes(fnId));
    expect(methods).toHaveLength(ROUTES.filter((route) => route.target === 'webhooks').reduce((sum, route) => sum + route.methods.length, 0));
    for (const method of methods) expect(method.Properties.AuthorizationType).toBe('CUSTOM');
  });
});

describe('imports (issue 31)', () => {
  it('give the API the job\'s reads and writes and the domains\' owner index, and the worker one conditional link write', () => {
    expect(tableGrants(dev, 'imports')).toEqual(['Domains:dynamodb:Query', 'Imports:dynamodb:GetItem', 'Imports:dynamodb:PutItem', 'Imports:dynamodb:Query', 'Usage:dynamodb:GetItem', 'Usage:dynamodb:UpdateItem']);
    expect(tableGrants(dev, 'import-worker')).toEqual(['Domains:dynamodb:Query', 'Imports:dynamodb:GetItem', 'Imports:dynamodb:PutItem', 'Imports:dynamodb:Query', 'Links:dynamodb:PutItem']);
  });

  it('queue chunks for 14 days, one at a time to the worker, at most five at once, keeping what fails five times', () => {
    const chunks = Object.keys(dev.findResources('AWS::SQS::Queue')).find((id) => id.startsWith('ImportsChunks')) ?? '';
    dev.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 1_209_600, RedrivePolicy: { maxReceiveCount: 5, deadLetterTargetArn: Match.anyValue() } });
    dev.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionId(dev, 'import-worker') },
      EventSourceArn: { 'Fn::GetAtt': [chunks, 'Arn'] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 5 },
    });
  });

  it('route /v2/imports and below to the imports function, behind the authorizer', () => {
    const fnId = functionId(dev, 'imports');
    const methods = Object.values(dev.findResources('AWS::ApiGateway::Method')).filter((method) => JSON.stringify(method.Properties.Integration).includes(fnId));
    // POST and GET /v2/imports, GET /v2/imports/{id}, POST /v2/imports/preview.
    expect(methods).toHaveLength(4);
    for (const method of methods) expect(method.Properties.AuthorizationType).toBe('CUSTOM');
  });
});

describe('link health (issue 31)', () => {
  const statementsOf = (fnName: string) => {
    const roleId = (dev.toJSON().Resources[functionId(dev, fnName)].Properties.Role['Fn::GetAtt'] as string[])[0];
    return Object.values(dev.findResources('AWS::IAM::Policy'))
      .filter((policy) => (policy.Properties.Roles as Array<{ Ref: string }>).some((role) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown; Condition?: unknown }>);
  };

  it('give the worker its table\'s items, link reads, the due index, and one link write naming health\'s attributes only', () => {
    expect(tableGrants(dev, 'link-health')).toEqual([
      'LinkHealth:dynamodb:GetItem',
      'LinkHealth:dynamodb:PutItem',
      'LinkHealth:dynamodb:UpdateItem',
      'Links:dynamodb:GetItem',
      'Links:dynamodb:Query',
      'Links:dynamodb:UpdateItem',
    ]);
    const linkWrite = statementsOf('link-health').find((statement) => statement.Action === 'dynamodb:UpdateItem' && JSON.stringify(statement.Resource).includes('DataLinks'));
    expect(linkWrite?.Condition).toEqual({
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['code', 'health', 'healthDueAt', 'healthShard'] },
      StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
    });
    const query = statementsOf('link-health').find((statement) => statement.Action === 'dynamodb:Query');
    expect(JSON.stringify(query?.Resource)).toContain('/index/byHealthDue');
    // The router queues checks and reads nothing more for them.
    expect(statementsOf('webhook-events').filter((statement) => JSON.stringify(statement.Resource).includes('LinkHealthChecks')).flatMap((statement) => statement.Action)).toEqual(
      expect.arrayContaining(['sqs:SendMessage']),
    );
    expect(tableGrants(dev, 'webhook-events').some((grant) => grant.startsWith('LinkHealth:'))).toBe(false);
  });

  it('index due checks by shard and time, keys only; keep URL checks and host seconds under TTL without backups', () => {
    dev.hasResourceProperties('AWS::DynamoDB::Table', {
      GlobalSecondaryIndexes: Match.arrayWith([
        Match.objectLike({ IndexName: 'byHealthDue', KeySchema: [{ AttributeName: 'healthShard', KeyType: 'HASH' }, { AttributeName: 'healthDueAt', KeyType: 'RANGE' }], Projection: { ProjectionType: 'KEYS_ONLY' } }),
      ]),
    });
    const table = logicalIdOf(dev, 'AWS::DynamoDB::Table', { Properties: { KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true }, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false }, StreamSpecification: Match.absent() } });
    expect(table).toMatch(/^DataLinkHealth/);
  });

  it('run the worker hourly by schedule and from its queue, five at a time, keeping what fails five times', () => {
    const worker = functionId(dev, 'link-health');
    dev.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 hour)', Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [worker, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })] });
    const checks = Object.keys(dev.findResources('AWS::SQS::Queue')).find((id) => id.startsWith('LinkHealthChecks')) ?? '';
    dev.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: worker },
      EventSourceArn: { 'Fn::GetAtt': [checks, 'Arn'] },
      BatchSize: 5,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 5 },
    });
    expect(dev.toJSON().Resources[checks].Properties.RedrivePolicy).toEqual({ maxReceiveCount: 5, deadLetterTargetArn: { 'Fn::GetAtt': [expect.stringMatching(/^LinkHealthCheckDeadLetters/), 'Arn'] } });
    // No third reader of the links stream: new and changed links reach the worker through the router.
    const linksStreamReaders = Object.values(dev.findResources('AWS::Lambda::EventSourceMapping')).filter((mapping) => JSON.stringify(mapping.Properties.EventSourceArn).includes('DataLinks'));
    expect(linksStreamReaders).toHaveLength(2);
  });
});
