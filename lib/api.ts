import { Duration, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  type MethodDeploymentOptions,
  MockIntegration,
  PassthroughBehavior,
  RequestAuthorizer,
  RestApi,
  type IResource,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { RemovalPolicy } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { addGatewayResponses } from './gateway-responses';
import { ROUTES, type Route, type RouteTarget } from '../functions/shared/http/routes';
import { ApiFirewall } from './api-firewall';
import { API_GATEWAY_LOG_GROUP_PREFIXES } from './api-gateway-account-stack';
import { METHOD_THROTTLES, methodThrottle } from './capacity';

/** `/path/METHOD` → the throttle of its traffic class, for every route of the one list. */
function methodThrottles(): Record<string, MethodDeploymentOptions> {
  return Object.fromEntries(
    ROUTES.flatMap((route) =>
      route.methods.map((method) => {
        const { rateLimit, burstLimit } = methodThrottle(route, method);
        return [`${route.path}/${method}`, { throttlingRateLimit: rateLimit, throttlingBurstLimit: burstLimit }];
      }),
    ),
  );
}

/**
 * Access logs without the caller's address, user agent or identity (the standard fields hold them): visits are
 * never recorded with anything that identifies the visitor, and API calls are traced by request id and key id.
 */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: AccessLogField.contextRequestId(),
    requestTime: AccessLogField.contextRequestTime(),
    httpMethod: AccessLogField.contextHttpMethod(),
    resourcePath: AccessLogField.contextResourcePath(),
    status: AccessLogField.contextStatus(),
    responseLength: AccessLogField.contextResponseLength(),
    latency: AccessLogField.contextResponseLatency(),
    keyId: AccessLogField.contextAuthorizer('keyId'),
  }),
);

export interface ShortenerApiProps {
  stage: string;
  /** Names the stage's web ACL. */
  name: string;
  /** The functions behind the routes; a target missing here gets its routes later (addRoutesOf). */
  functions: Partial<Record<Exclude<RouteTarget, 'health'>, IFunction>>;
  authorizer: IFunction;
  removalPolicy: RemovalPolicy;
}

/** The REST API: routes, the REQUEST authorizer on v2, JSON gateway responses, access logs. */
export class ShortenerApi extends Construct {
  readonly restApi: RestApi;
  private readonly authorizer: RequestAuthorizer;

  constructor(scope: Construct, id: string, props: ShortenerApiProps) {
    super(scope, id);
    // Under /aws/apigateway/: the only groups the account's API Gateway role may write to (ApiGatewayAccountStack).
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      logGroupName: `${API_GATEWAY_LOG_GROUP_PREFIXES.access}${props.name}-access`,
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: props.removalPolicy,
    });
    this.restApi = new RestApi(this, 'RestApi', {
      description: 'URL shortener API',
      endpointTypes: [EndpointType.REGIONAL],
      // Lambda answers marked isBase64Encoded (QR codes as PNG) reach clients as bytes; text answers pass as they are.
      binaryMediaTypes: ['*/*'],
      // The account's API Gateway role is managed once, in ApiGatewayAccountStack.
      cloudWatchRole: false,
      deployOptions: {
        stageName: props.stage,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: ACCESS_LOG_FORMAT,
        loggingLevel: MethodLoggingLevel.ERROR,
        metricsEnabled: true,
        // X-Ray would record sampled requests' client_ip and full URLs: no visitor address is kept anywhere.
        tracingEnabled: false,
        // Each method has its own ceiling by the kind of traffic it serves (capacity.ts), so visitors of a viral
        // link, anonymous v1 callers and paying API clients never share one.
        throttlingRateLimit: METHOD_THROTTLES.api.rateLimit,
        throttlingBurstLimit: METHOD_THROTTLES.api.burstLimit,
        methodOptions: methodThrottles(),
      },
    });
    // Execution logs go to a group API Gateway names itself; created here, it has a retention (else: forever).
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `${API_GATEWAY_LOG_GROUP_PREFIXES.execution}${this.restApi.restApiId}/${props.stage}`,
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: props.removalPolicy,
    });
    this.restApi.deploymentStage.node.addDependency(executionLogs);
    new ApiFirewall(this, 'Firewall', { stageArn: this.restApi.deploymentStage.stageArn, name: `${props.name}-api` });
    addGatewayResponses(this.restApi);

    this.authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: props.authorizer,
      identitySources: [IdentitySource.header('Authorization')],
      // No result caching: a revoked key is refused on its very next request.
      resultsCacheTtl: Duration.seconds(0),
    });

    for (const route of ROUTES) {
      if (route.target === 'health') this.addRoute(route, undefined);
      else {
        const target = props.functions[route.target];
        if (target) this.addRoute(route, target);
      }
    }
    this.acknowledgeFindings();
  }

  /** The routes of a function made after the API (one that needs the distributions, which need the API). */
  addRoutesOf(target: Exclude<RouteTarget, 'health'>, fn: IFunction): void {
    for (const route of ROUTES) if (route.target === target) this.addRoute(route, fn);
  }

  private addRoute(route: Route, fn: IFunction | undefined): void {
    const resource = this.restApi.root.resourceForPath(route.path);
    for (const method of route.methods) this.addMethod(resource, method, route, fn);
  }

  private addMethod(resource: IResource, method: string, route: Route, fn: IFunction | undefined): void {
    const integration = fn
      ? new LambdaIntegration(fn, { allowTestInvoke: false })
      : new MockIntegration({
          requestTemplates: { 'application/json': '{"statusCode": 200}' },
          passthroughBehavior: PassthroughBehavior.NEVER,
          integrationResponses: [{ statusCode: '200', responseTemplates: { 'application/json': '{"status":"ok"}' } }],
        });
    const created = resource.addMethod(method, integration, {
      ...(route.apiKey ? { authorizer: this.authorizer, authorizationType: AuthorizationType.CUSTOM } : { authorizationType: AuthorizationType.NONE }),
      ...(route.target === 'health' ? { methodResponses: [{ statusCode: '200' }] } : {}),
    });
    const why = route.apiKey
      ? 'Callers are API-key holders, checked by the Lambda REQUEST authorizer, not Cognito users.'
      : 'Public by the spec: v1 creation is anonymous (limited per IP), visitors follow short links, health is open.';
    Validations.of(created).acknowledge({ id: 'AwsSolutions-COG4', reason: why });
    if (!route.apiKey) Validations.of(created).acknowledge({ id: 'AwsSolutions-APIG4', reason: why });
  }

  private acknowledgeFindings(): void {
    Validations.of(this.restApi).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason: 'Bodies are validated by zod in the handlers, which must answer with the spec\'s exact messages and shapes.',
    });
  }
}
