import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Reads what the local stack needs from the synthesized CloudFormation template, so what runs locally is what
 * deploys: routes and their functions, the authorizer, gateway responses, function environments, tables and
 * SSM parameters. Only the intrinsic functions CDK emits for this stack are resolved.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Resource {
  Type: string;
  Properties?: Record<string, Json>;
  Metadata?: Record<string, Json>;
}
export interface Template {
  Resources: Record<string, Resource>;
  Outputs?: Record<string, { Value: Json }>;
}

export interface LocalNames {
  region: string;
  /** host[:port] standing in for the CloudFront distribution's domain name. */
  shortHost: string;
}

export interface FunctionSpec {
  logicalId: string;
  /** Absolute path of the bundled handler file. */
  entryFile: string;
  exportName: string;
  environment: Record<string, string>;
  timeoutSeconds: number;
  /** Lambda's runtime name, e.g. nodejs24.x. */
  runtime: string;
}

export type Integration = { kind: 'lambda'; functionId: string } | { kind: 'mock'; statusCode: number; body: string };

export interface RouteSpec {
  method: string;
  /** e.g. /v2/shorten or /{code} */
  resourcePath: string;
  integration: Integration;
  authorizer?: { functionId: string; identityHeaders: string[]; cacheSeconds: number };
  /** The stage's throttle for this method (its own MethodSettings entry, else the stage's default). */
  throttle?: { rateLimit: number; burstLimit: number };
}

export interface GatewayResponseSpec {
  statusCode: number;
  template: string;
  headers: Record<string, string>;
}

export interface TableSpec {
  name: string;
  keySchema: Array<{ AttributeName: string; KeyType: 'HASH' | 'RANGE' }>;
  attributeDefinitions: Array<{ AttributeName: string; AttributeType: 'S' | 'N' | 'B' }>;
  ttlAttribute?: string;
  /** StreamSpecification's view type, when the table has a stream. */
  streamViewType?: 'NEW_IMAGE' | 'OLD_IMAGE' | 'NEW_AND_OLD_IMAGES' | 'KEYS_ONLY';
  globalSecondaryIndexes: Array<{
    IndexName: string;
    KeySchema: Array<{ AttributeName: string; KeyType: 'HASH' | 'RANGE' }>;
    Projection: { ProjectionType: 'ALL' | 'KEYS_ONLY' | 'INCLUDE'; NonKeyAttributes?: string[] };
  }>;
}

export interface ParameterSpec {
  name: string;
  value: string;
}

/** A Secrets Manager secret the template generates; locally it gets a random value of the same length and shape. */
export interface SecretSpec {
  name: string;
  length: number;
  /** The value is `{"<jsonKey>": "<generated>"}` (GenerateStringKey). */
  jsonKey?: string;
}

/** A CloudWatch Logs subscription filter from a function's log group to another function. */
export interface LogSubscriptionSpec {
  sourceFunctionId: string;
  destinationFunctionId: string;
  filterPattern: string;
  logGroupName: string;
  filterName: string;
}

/** A rule that invokes a function on a fixed rate (EventBridge `rate(...)`). */
export interface ScheduleSpec {
  functionId: string;
  everyMs: number;
}

/**
 * The customer domains' distribution (CloudFront SaaS Manager, `ConnectionMode: tenant-only`): its viewer-request
 * function's code and the headers its origin adds, each value read from a secret's JSON key.
 */
export interface CustomerEdgeSpec {
  functionCode: string;
  originHeaders: OriginHeaderSpec[];
}

/** A header a distribution's origin adds to every request, its value read from a secret's JSON key. */
export interface OriginHeaderSpec {
  name: string;
  secretName: string;
  jsonKey: string;
}

/** An SQS queue: its visibility timeout and redrive policy. */
export interface QueueSpec {
  id: string;
  visibilityTimeoutSeconds: number;
  deadLetter?: { queueId: string; maxReceiveCount: number };
}

/** A Lambda event source mapping on an SQS queue. */
export interface QueueSourceSpec {
  functionId: string;
  queueId: string;
  batchSize: number;
  reportBatchItemFailures: boolean;
  /** ScalingConfig's MaximumConcurrency: at most this many batches in flight at once. */
  maxConcurrency?: number;
}

/** A Lambda event source mapping on a table's stream, with its filter patterns (JSON) and failure destination. */
export interface StreamSourceSpec {
  functionId: string;
  tableName: string;
  batchSize: number;
  filterPatterns: unknown[];
  retryAttempts: number;
  onFailureQueueId?: string;
}

/** One CloudFront behavior that serves files from a bucket: its path pattern, viewer-request code and response headers. */
export interface FileBehaviorSpec {
  pathPattern: string;
  viewerRequestCode?: string;
  /** From its response headers policy, by lower-case name. */
  headers: Record<string, string>;
}

/** The dashboard's files as CloudFront serves them: from a bucket a BucketDeployment fills from a cloud-assembly asset. */
export interface StaticSiteSpec {
  behaviors: FileBehaviorSpec[];
  /** Its default behavior, the API: the viewer-request code it runs and the headers its origin adds. */
  api: { viewerRequestCode?: string; originHeaders: OriginHeaderSpec[] };
  /** The built files (the deployment's source asset, as staged in cdk.out). */
  filesDir: string;
  /** Where the deployment puts them in the bucket: `app/` */
  keyPrefix: string;
}

/** A user pool's app client, as the local OpenID provider plays it (bin/local/oidc-provider.ts). */
export interface UserPoolClientSpec {
  id: string;
  /** Exact redirect URIs: a request naming any other is refused. */
  callbackUrls: string[];
  logoutUrls: string[];
  scopes: string[];
  accessTokenSeconds: number;
  idTokenSeconds: number;
  refreshTokenSeconds: number;
}

/** A Cognito user pool: its id (the logical id, as Ref answers locally), MFA setting and app clients. */
export interface UserPoolSpec {
  id: string;
  mfa: 'OFF' | 'OPTIONAL' | 'ON';
  /** Whether people may sign in with a passkey (WEB_AUTHN among the pool's first factors). */
  passkeys: boolean;
  clients: UserPoolClientSpec[];
}

export interface Topology {
  stage: string;
  userPools: UserPoolSpec[];
  staticSite?: StaticSiteSpec;
  queues: QueueSpec[];
  queueSources: QueueSourceSpec[];
  /** The KMS keys' logical ids (symmetric encryption keys, the only kind the template makes). */
  kmsKeys: string[];
  streamSources: StreamSourceSpec[];
  schedules: ScheduleSpec[];
  customerEdge?: CustomerEdgeSpec;
  logSubscriptions: LogSubscriptionSpec[];
  /** The REST API's binary media types: request bodies of these types reach functions base64-encoded. */
  binaryMediaTypes: string[];
  functions: Map<string, FunctionSpec>;
  routes: RouteSpec[];
  gatewayResponses: Map<string, GatewayResponseSpec>;
  tables: TableSpec[];
  parameters: ParameterSpec[];
  secrets: SecretSpec[];
  outputs: Record<string, string>;
}

export function loadTemplate(cloudAssemblyDir: string, stackName: string): Template {
  return JSON.parse(readFileSync(path.join(cloudAssemblyDir, `${stackName}.template.json`), 'utf8')) as Template;
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resourcesOfType(template: Template, type: string): Array<[string, Resource]> {
  return Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);
}

/** Logical ids named by Ref or Fn::GetAtt anywhere inside `value`, pseudo parameters (AWS::...) left out. */
function referencedIds(value: Json | undefined): string[] {
  if (Array.isArray(value)) return value.flatMap(referencedIds);
  if (!isObject(value)) return [];
  if (typeof value.Ref === 'string') return value.Ref.startsWith('AWS::') ? [] : [value.Ref];
  const getAtt = value['Fn::GetAtt'];
  if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return [getAtt[0]];
  return Object.values(value).flatMap(referencedIds);
}

function referencedId(value: Json | undefined): string | undefined {
  return referencedIds(value)[0];
}

export function createResolver(template: Template, names: LocalNames) {
  const resolve = (value: Json): Json => {
    if (!isObject(value)) return Array.isArray(value) ? value.map(resolve) : value;
    if ('Ref' in value) return resolveRef(String(value.Ref));
    if ('Fn::GetAtt' in value) {
      const [id, attribute] = value['Fn::GetAtt'] as [string, string];
      return resolveGetAtt(id, attribute);
    }
    if ('Fn::Join' in value) {
      const [separator, parts] = value['Fn::Join'] as [string, Json[]];
      return parts.map((part) => String(resolve(part))).join(separator);
    }
    if ('Fn::Select' in value) {
      const [index, list] = value['Fn::Select'] as [number, Json];
      return (resolve(list) as Json[])[index] ?? null;
    }
    if ('Fn::Split' in value) {
      const [separator, source] = value['Fn::Split'] as [string, Json];
      return String(resolve(source)).split(separator);
    }
    return Object.fromEntries(Object.entries(value).map(([key, nested]) => [key, resolve(nested)]));
  };

  const resolveRef = (id: string): Json => {
    if (id === 'AWS::Region') return names.region;
    if (id === 'AWS::Partition') return 'aws';
    if (id === 'AWS::AccountId') return '000000000000';
    if (id === 'AWS::URLSuffix') return 'amazonaws.com';
    const resource = template.Resources[id];
    // SSM parameters answer Ref with their name; everything else local is named by its logical id.
    if (resource?.Type === 'AWS::SSM::Parameter') return resource.Properties?.Name ?? id;
    // A queue's Ref is its URL; the local SQS stand-in reads the queue's name (its logical id) off the end.
    if (resource?.Type === 'AWS::SQS::Queue') return `https://sqs.${names.region}.amazonaws.com/000000000000/${id}`;
    return id;
  };

  const resolveGetAtt = (id: string, attribute: string): Json => {
    const resource = template.Resources[id];
    if (resource?.Type === 'AWS::CloudFront::Distribution' && attribute === 'DomainName') return names.shortHost;
    if (resource?.Type === 'AWS::Lambda::Function' && attribute === 'Arn') {
      return `arn:aws:lambda:${names.region}:000000000000:function:${id}`;
    }
    if (resource?.Type === 'AWS::DynamoDB::Table' && attribute === 'Arn') return `arn:aws:dynamodb:${names.region}:000000000000:table/${id}`;
    if (resource?.Type === 'AWS::DynamoDB::Table' && attribute === 'StreamArn') return `arn:aws:dynamodb:${names.region}:000000000000:table/${id}/stream/local`;
    if (resource?.Type === 'AWS::SQS::Queue' && attribute === 'Arn') return `arn:aws:sqs:${names.region}:000000000000:${id}`;
    // The KMS stand-in reads the key's logical id off the end of its ARN.
    if (resource?.Type === 'AWS::KMS::Key' && attribute === 'Arn') return `arn:aws:kms:${names.region}:000000000000:key/${id}`;
    return `${id}.${attribute}`;
  };

  return resolve;
}

function resourcePaths(template: Template): Map<string, string> {
  const paths = new Map<string, string>();
  const resources = new Map(resourcesOfType(template, 'AWS::ApiGateway::Resource'));
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known) return known;
    const resource = resources.get(id);
    if (!resource) return '';
    const parentId = referencedId(resource.Properties?.ParentId);
    const parent = parentId && resources.has(parentId) ? pathOf(parentId) : '';
    const full = `${parent}/${String(resource.Properties?.PathPart)}`;
    paths.set(id, full);
    return full;
  };
  for (const id of resources.keys()) pathOf(id);
  return paths;
}

function isServiceFunction(resource: Resource): boolean {
  const variables = (resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
  return typeof variables?.POWERTOOLS_SERVICE_NAME === 'string';
}

export function readTopology(template: Template, cloudAssemblyDir: string, names: LocalNames): Topology {
  const resolve = createResolver(template, names);

  const functions = new Map<string, FunctionSpec>();
  for (const [id, resource] of resourcesOfType(template, 'AWS::Lambda::Function')) {
    const assetPath = resource.Metadata?.['aws:asset:path'];
    const handler = String(resource.Properties?.Handler ?? 'index.handler');
    // The service's functions name their service; CDK's own deploy-time providers (the cross-region export
    // reader) have nothing to do in a running service.
    if (typeof assetPath !== 'string' || !isServiceFunction(resource)) continue;
    const [file = 'index', exportName = 'handler'] = handler.split('.');
    const variables = resolve((resource.Properties?.Environment as { Variables?: Json } | undefined)?.Variables ?? {}) as Record<string, Json>;
    functions.set(id, {
      logicalId: id,
      entryFile: path.join(cloudAssemblyDir, assetPath, `${file}.mjs`),
      exportName,
      environment: Object.fromEntries(Object.entries(variables).map(([key, value]) => [key, String(value)])),
      timeoutSeconds: Number(resource.Properties?.Timeout ?? 3),
      runtime: String(resource.Properties?.Runtime),
    });
  }

  const authorizers = new Map(
    resourcesOfType(template, 'AWS::ApiGateway::Authorizer').map(([id, resource]) => {
      const properties = resource.Properties ?? {};
      const identityHeaders = String(properties.IdentitySource ?? '')
        .split(',')
        .map((source) => source.trim())
        .filter((source) => source.startsWith('method.request.header.'))
        .map((source) => source.slice('method.request.header.'.length).toLowerCase());
      return [
        id,
        { functionId: referencedId(properties.AuthorizerUri) ?? '', identityHeaders, cacheSeconds: Number(properties.AuthorizerResultTtlInSeconds ?? 300) },
      ] as const;
    }),
  );

  const paths = resourcePaths(template);
  // MethodSettings name a method by HttpMethod and its resource path with '/' escaped as '~1' ('*' and '/*': all;
  // the root is '/').
  const methodSettings = (resourcesOfType(template, 'AWS::ApiGateway::Stage')[0]?.[1].Properties?.MethodSettings ?? []) as Array<{
    HttpMethod?: string;
    ResourcePath?: string;
    ThrottlingRateLimit?: number;
    ThrottlingBurstLimit?: number;
  }>;
  const throttleOf = (method: string, resourcePath: string): RouteSpec['throttle'] => {
    const escaped = resourcePath === '/' ? '/' : `/${resourcePath.replaceAll('/', '~1')}`;
    const setting =
      methodSettings.find((candidate) => candidate.HttpMethod === method && candidate.ResourcePath === escaped) ??
      methodSettings.find((candidate) => candidate.HttpMethod === '*' && candidate.ResourcePath === '/*');
    return setting?.ThrottlingRateLimit !== undefined && setting.ThrottlingBurstLimit !== undefined
      ? { rateLimit: setting.ThrottlingRateLimit, burstLimit: setting.ThrottlingBurstLimit }
      : undefined;
  };
  const routes: RouteSpec[] = [];
  for (const [, resource] of resourcesOfType(template, 'AWS::ApiGateway::Method')) {
    const properties = resource.Properties ?? {};
    const resourceId = referencedId(properties.ResourceId);
    const resourcePath = (resourceId && paths.get(resourceId)) || '/';
    const integration = properties.Integration as { Type?: string; Uri?: Json; IntegrationResponses?: Array<{ StatusCode: string; ResponseTemplates?: Record<string, string> }> };
    const authorizerId = referencedId(properties.AuthorizerId);
    const authorizer = authorizerId ? authorizers.get(authorizerId) : undefined;
    const mockResponse = integration.IntegrationResponses?.[0];
    const throttle = throttleOf(String(properties.HttpMethod), resourcePath);
    routes.push({
      method: String(properties.HttpMethod),
      resourcePath,
      integration:
        integration.Type === 'MOCK'
          ? { kind: 'mock', statusCode: Number(mockResponse?.StatusCode ?? 200), body: mockResponse?.ResponseTemplates?.['application/json'] ?? '' }
          : { kind: 'lambda', functionId: referencedId(integration.Uri) ?? '' },
      ...(authorizer ? { authorizer } : {}),
      ...(throttle ? { throttle } : {}),
    });
  }

  const gatewayResponses = new Map<string, GatewayResponseSpec>();
  for (const [, resource] of resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse')) {
    const properties = resource.Properties ?? {};
    const headers = Object.fromEntries(
      Object.entries((properties.ResponseParameters ?? {}) as Record<string, string>).map(([key, value]) => [
        key.replace('gatewayresponse.header.', ''),
        value.replace(/^'|'$/g, ''),
      ]),
    );
    gatewayResponses.set(String(properties.ResponseType), {
      statusCode: Number(properties.StatusCode),
      template: ((properties.ResponseTemplates ?? {}) as Record<string, string>)['application/json'] ?? '',
      headers,
    });
  }

  const tables = resourcesOfType(template, 'AWS::DynamoDB::Table').map(([id, resource]): TableSpec => {
    const properties = resource.Properties ?? {};
    const ttl = properties.TimeToLiveSpecification as { AttributeName?: string; Enabled?: boolean } | undefined;
    const stream = properties.StreamSpecification as { StreamViewType?: TableSpec['streamViewType'] } | undefined;
    return {
      ...(stream?.StreamViewType ? { streamViewType: stream.StreamViewType } : {}),
      name: id,
      keySchema: properties.KeySchema as unknown as TableSpec['keySchema'],
      attributeDefinitions: properties.AttributeDefinitions as unknown as TableSpec['attributeDefinitions'],
      globalSecondaryIndexes: (properties.GlobalSecondaryIndexes ?? []) as unknown as TableSpec['globalSecondaryIndexes'],
      ...(ttl?.Enabled && ttl.AttributeName ? { ttlAttribute: ttl.AttributeName } : {}),
    };
  });

  const parameters = resourcesOfType(template, 'AWS::SSM::Parameter').map(([, resource]) => ({
    name: String(resource.Properties?.Name),
    value: String(resolve(resource.Properties?.Value ?? '')),
  }));

  const secrets = resourcesOfType(template, 'AWS::SecretsManager::Secret').map(([id, resource]): SecretSpec => {
    const generate = resource.Properties?.GenerateSecretString;
    return {
      name: String(resource.Properties?.Name ?? id),
      length: isObject(generate) && typeof generate.PasswordLength === 'number' ? generate.PasswordLength : 32,
      ...(isObject(generate) && typeof generate.GenerateStringKey === 'string' ? { jsonKey: generate.GenerateStringKey } : {}),
    };
  });

  // A function's log group is the one its LoggingConfig names; a filter on that group reads that function's lines.
  const functionOfLogGroup = new Map(
    resourcesOfType(template, 'AWS::Lambda::Function').flatMap(([id, resource]) => {
      const logGroupId = referencedId((resource.Properties?.LoggingConfig as { LogGroup?: Json } | undefined)?.LogGroup);
      return logGroupId ? [[logGroupId, id] as const] : [];
    }),
  );
  const logSubscriptions = resourcesOfType(template, 'AWS::Logs::SubscriptionFilter').flatMap(([id, resource]): LogSubscriptionSpec[] => {
    const properties = resource.Properties ?? {};
    const logGroupId = referencedId(properties.LogGroupName);
    const sourceFunctionId = logGroupId ? functionOfLogGroup.get(logGroupId) : undefined;
    const destinationFunctionId = referencedId(properties.DestinationArn);
    if (!sourceFunctionId || !destinationFunctionId || !functions.has(destinationFunctionId)) return [];
    return [{ sourceFunctionId, destinationFunctionId, filterPattern: String(properties.FilterPattern ?? ''), logGroupName: `/aws/lambda/${sourceFunctionId}`, filterName: id }];
  });

  const schedules = resourcesOfType(template, 'AWS::Events::Rule').flatMap(([, resource]): ScheduleSpec[] => {
    const everyMs = rateMs(String(resource.Properties?.ScheduleExpression ?? ''));
    const targets = (resource.Properties?.Targets ?? []) as Array<{ Arn?: Json }>;
    return everyMs === undefined ? [] : targets.flatMap((target) => {
      const functionId = referencedId(target.Arn);
      return functionId && functions.has(functionId) ? [{ functionId, everyMs }] : [];
    });
  });

  const queues = resourcesOfType(template, 'AWS::SQS::Queue').map(([id, resource]): QueueSpec => {
    const redrive = resource.Properties?.RedrivePolicy as { deadLetterTargetArn?: Json; maxReceiveCount?: number } | undefined;
    const deadLetterId = referencedId(redrive?.deadLetterTargetArn);
    return {
      id,
      visibilityTimeoutSeconds: Number(resource.Properties?.VisibilityTimeout ?? 30),
      ...(deadLetterId ? { deadLetter: { queueId: deadLetterId, maxReceiveCount: Number(redrive?.maxReceiveCount ?? 1) } } : {}),
    };
  });
  const queueIds = new Set(queues.map((queue) => queue.id));
  const tableIds = new Set(resourcesOfType(template, 'AWS::DynamoDB::Table').map(([id]) => id));
  const queueSources: QueueSourceSpec[] = [];
  const streamSources: StreamSourceSpec[] = [];
  for (const [, resource] of resourcesOfType(template, 'AWS::Lambda::EventSourceMapping')) {
    const properties = resource.Properties ?? {};
    const functionId = referencedId(properties.FunctionName);
    const sourceId = referencedId(properties.EventSourceArn);
    if (!functionId || !sourceId || !functions.has(functionId)) continue;
    const batchSize = Number(properties.BatchSize ?? 10);
    if (queueIds.has(sourceId)) {
      const responseTypes = (properties.FunctionResponseTypes ?? []) as string[];
      const maxConcurrency = (properties.ScalingConfig as { MaximumConcurrency?: number } | undefined)?.MaximumConcurrency;
      queueSources.push({
        functionId,
        queueId: sourceId,
        batchSize,
        reportBatchItemFailures: responseTypes.includes('ReportBatchItemFailures'),
        ...(maxConcurrency !== undefined ? { maxConcurrency: Number(maxConcurrency) } : {}),
      });
    } else if (tableIds.has(sourceId)) {
      const filters = ((properties.FilterCriteria as { Filters?: Array<{ Pattern?: string }> } | undefined)?.Filters ?? []).map((filter) => JSON.parse(String(filter.Pattern)) as unknown);
      const onFailure = referencedId((properties.DestinationConfig as { OnFailure?: { Destination?: Json } } | undefined)?.OnFailure?.Destination);
      streamSources.push({
        functionId,
        tableName: sourceId,
        batchSize,
        filterPatterns: filters,
        retryAttempts: Number(properties.MaximumRetryAttempts ?? 10),
        ...(onFailure && queueIds.has(onFailure) ? { onFailureQueueId: onFailure } : {}),
      });
    }
  }

  const kmsKeys = resourcesOfType(template, 'AWS::KMS::Key').map(([id]) => id);
  const userPools = readUserPools(template, resolve);
  const stage = resourcesOfType(template, 'AWS::ApiGateway::Stage')[0]?.[1].Properties?.StageName;
  const customerEdge = readCustomerEdge(template);
  const staticSite = readStaticSite(template, cloudAssemblyDir, resolve);
  const binaryMediaTypes = (resourcesOfType(template, 'AWS::ApiGateway::RestApi')[0]?.[1].Properties?.BinaryMediaTypes ?? []) as string[];
  const outputs = Object.fromEntries(Object.entries(template.Outputs ?? {}).map(([key, output]) => [key, String(resolve(output.Value))]));
  return { stage: String(stage ?? 'local'), userPools, queues, queueSources, kmsKeys, streamSources, schedules, ...(customerEdge ? { customerEdge } : {}), ...(staticSite ? { staticSite } : {}), logSubscriptions, binaryMediaTypes, functions, routes, gatewayResponses, tables, parameters, secrets, outputs };
}

const VALIDITY_UNIT_SECONDS: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86_400 };

/** The pools and their clients, token lifetimes in seconds (Cognito's defaults where the template says nothing). */
function readUserPools(template: Template, resolve: (value: Json) => Json): UserPoolSpec[] {
  const clients = resourcesOfType(template, 'AWS::Cognito::UserPoolClient');
  return resourcesOfType(template, 'AWS::Cognito::UserPool').map(([poolId, pool]) => ({
    id: poolId,
    mfa: String(pool.Properties?.MfaConfiguration ?? 'OFF') as UserPoolSpec['mfa'],
    passkeys: JSON.stringify((pool.Properties?.Policies as { SignInPolicy?: { AllowedFirstAuthFactors?: Json } } | undefined)?.SignInPolicy?.AllowedFirstAuthFactors ?? []).includes('"WEB_AUTHN"'),
    clients: clients
      .filter(([, client]) => referencedId(client.Properties?.UserPoolId) === poolId)
      .map(([clientId, client]): UserPoolClientSpec => {
        const properties = client.Properties ?? {};
        const units = (properties.TokenValidityUnits ?? {}) as Record<string, string>;
        const seconds = (value: Json | undefined, unit: string | undefined, fallback: number) => (typeof value === 'number' ? value * (VALIDITY_UNIT_SECONDS[unit ?? ''] ?? 1) : fallback);
        return {
          id: clientId,
          callbackUrls: ((resolve(properties.CallbackURLs ?? []) as Json[]) ?? []).map(String),
          logoutUrls: ((resolve(properties.LogoutURLs ?? []) as Json[]) ?? []).map(String),
          scopes: ((properties.AllowedOAuthScopes ?? []) as Json[]).map(String),
          accessTokenSeconds: seconds(properties.AccessTokenValidity, units.AccessToken ?? 'hours', 3600),
          idTokenSeconds: seconds(properties.IdTokenValidity, units.IdToken ?? 'hours', 3600),
          refreshTokenSeconds: seconds(properties.RefreshTokenValidity, units.RefreshToken ?? 'days', 30 * 86_400),
        };
      }),
  }));
}

const RATE_UNITS_MS: Record<string, number> = { minute: 60_000, minutes: 60_000, hour: 3_600_000, hours: 3_600_000, day: 86_400_000, days: 86_400_000 };

/** `rate(5 minutes)` in milliseconds; cron expressions have no local counterpart (none in this template). */
function rateMs(expression: string): number | undefined {
  const match = /^rate\((\d+) (minutes?|hours?|days?)\)$/.exec(expression.trim());
  return match ? Number(match[1]) * (RATE_UNITS_MS[match[2] ?? ''] ?? 0) : undefined;
}

type ResponseHeadersConfig = {
  SecurityHeadersConfig?: {
    ContentSecurityPolicy?: { ContentSecurityPolicy?: string };
    ContentTypeOptions?: object;
    FrameOptions?: { FrameOption?: string };
    ReferrerPolicy?: { ReferrerPolicy?: string };
    StrictTransportSecurity?: { AccessControlMaxAgeSec?: number; IncludeSubdomains?: boolean; Preload?: boolean };
  };
  CustomHeadersConfig?: { Items?: Array<{ Header?: string; Value?: string }> };
};

/** The headers a CloudFront response headers policy adds, as CloudFront writes them. */
export function responseHeadersOf(config: ResponseHeadersConfig | undefined): Record<string, string> {
  const security = config?.SecurityHeadersConfig ?? {};
  const headers: Record<string, string> = {};
  if (security.ContentSecurityPolicy?.ContentSecurityPolicy) headers['content-security-policy'] = security.ContentSecurityPolicy.ContentSecurityPolicy;
  if (security.ContentTypeOptions) headers['x-content-type-options'] = 'nosniff';
  if (security.FrameOptions?.FrameOption) headers['x-frame-options'] = security.FrameOptions.FrameOption;
  if (security.ReferrerPolicy?.ReferrerPolicy) headers['referrer-policy'] = security.ReferrerPolicy.ReferrerPolicy;
  const hsts = security.StrictTransportSecurity;
  if (hsts?.AccessControlMaxAgeSec !== undefined) {
    headers['strict-transport-security'] = [`max-age=${hsts.AccessControlMaxAgeSec}`, ...(hsts.IncludeSubdomains ? ['includeSubDomains'] : []), ...(hsts.Preload ? ['preload'] : [])].join('; ');
  }
  for (const item of config?.CustomHeadersConfig?.Items ?? []) if (item.Header && item.Value !== undefined) headers[item.Header.toLowerCase()] = item.Value;
  return headers;
}

/**
 * The distribution behaviors whose origin is a bucket (origin access control), and the files a BucketDeployment
 * puts in that bucket: what CloudFront would serve on those paths.
 */
function readStaticSite(template: Template, cloudAssemblyDir: string, resolve: (value: Json) => Json): StaticSiteSpec | undefined {
  for (const [, distribution] of resourcesOfType(template, 'AWS::CloudFront::Distribution')) {
    type Behavior = { PathPattern?: string; TargetOriginId?: string; ResponseHeadersPolicyId?: Json; FunctionAssociations?: FunctionAssociation[] };
    type Origin = { Id?: string; DomainName?: Json; OriginAccessControlId?: Json; OriginCustomHeaders?: OriginCustomHeader[] };
    const config = distribution.Properties?.DistributionConfig as { DefaultCacheBehavior?: Behavior; CacheBehaviors?: Behavior[]; Origins?: Origin[] } | undefined;
    const bucketOrigins = new Map((config?.Origins ?? []).filter((origin) => origin.OriginAccessControlId !== undefined && origin.Id).map((origin) => [origin.Id as string, referencedId(origin.DomainName)]));
    const behaviors = (config?.CacheBehaviors ?? []).filter((behavior) => behavior.TargetOriginId && bucketOrigins.has(behavior.TargetOriginId));
    const bucketId = behaviors[0]?.TargetOriginId ? bucketOrigins.get(behaviors[0].TargetOriginId) : undefined;
    const deployment = resourcesOfType(template, 'Custom::CDKBucketDeployment').find(([, resource]) => referencedId(resource.Properties?.DestinationBucketName) === bucketId);
    const objectKey = (deployment?.[1].Properties?.SourceObjectKeys as Json[] | undefined)?.[0];
    if (!bucketId || !deployment || typeof objectKey !== 'string') continue;
    const apiCode = viewerRequestCodeOf(template, config?.DefaultCacheBehavior?.FunctionAssociations);
    const apiOrigin = config?.Origins?.find((origin) => origin.Id === config.DefaultCacheBehavior?.TargetOriginId);
    return {
      api: { ...(apiCode === undefined ? {} : { viewerRequestCode: apiCode }), originHeaders: originHeadersOf(template, apiOrigin?.OriginCustomHeaders) },
      filesDir: path.join(cloudAssemblyDir, `asset.${objectKey.replace(/\.zip$/, '')}`),
      keyPrefix: String(deployment[1].Properties?.DestinationBucketKeyPrefix ?? ''),
      behaviors: behaviors.map((behavior) => {
        const code = viewerRequestCodeOf(template, behavior.FunctionAssociations);
        const policyId = referencedId(behavior.ResponseHeadersPolicyId);
        // Resolved: the Content-Security-Policy names the sign-in provider's hosts (lib/dashboard.ts).
        const policy = policyId ? (resolve(template.Resources[policyId]?.Properties?.ResponseHeadersPolicyConfig ?? null) as ResponseHeadersConfig | null) ?? undefined : undefined;
        return { pathPattern: String(behavior.PathPattern), ...(typeof code === 'string' ? { viewerRequestCode: code } : {}), headers: responseHeadersOf(policy) };
      }),
    };
  }
  return undefined;
}

function readCustomerEdge(template: Template): CustomerEdgeSpec | undefined {
  const distribution = resourcesOfType(template, 'AWS::CloudFront::Distribution').find(([, resource]) => {
    const config = resource.Properties?.DistributionConfig;
    return isObject(config) && config.ConnectionMode === 'tenant-only';
  });
  if (!distribution) return undefined;
  const config = distribution[1].Properties?.DistributionConfig as { DefaultCacheBehavior?: { FunctionAssociations?: FunctionAssociation[] }; Origins?: Array<{ OriginCustomHeaders?: OriginCustomHeader[] }> };
  const functionCode = viewerRequestCodeOf(template, config.DefaultCacheBehavior?.FunctionAssociations);
  if (functionCode === undefined) return undefined;
  return { functionCode, originHeaders: originHeadersOf(template, config.Origins?.[0]?.OriginCustomHeaders) };
}

type FunctionAssociation = { EventType?: string; FunctionARN?: Json };
type OriginCustomHeader = { HeaderName?: string; HeaderValue?: Json };

/** The code of a behavior's viewer-request CloudFront function, as CloudFront runs it. */
function viewerRequestCodeOf(template: Template, associations: FunctionAssociation[] | undefined): string | undefined {
  const functionId = referencedId(associations?.find((association) => association.EventType === 'viewer-request')?.FunctionARN);
  const code = functionId ? template.Resources[functionId]?.Properties?.FunctionCode : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** An origin's custom headers whose values CloudFormation reads from a secret. */
function originHeadersOf(template: Template, headers: OriginCustomHeader[] | undefined): OriginHeaderSpec[] {
  return (headers ?? []).flatMap((header) => {
    // {{resolve:secretsmanager:<secret>:SecretString:<jsonKey>::}}, the secret named by its Ref.
    const secretId = referencedId(header.HeaderValue);
    const secret = secretId ? template.Resources[secretId] : undefined;
    const jsonKey = /SecretString:([^:]*):/.exec(JSON.stringify(header.HeaderValue))?.[1];
    if (!header.HeaderName || secret?.Type !== 'AWS::SecretsManager::Secret' || !jsonKey) return [];
    return [{ name: header.HeaderName.toLowerCase(), secretName: String(secret.Properties?.Name ?? secretId), jsonKey }];
  });
}
