import * as path from 'node:path';
import { AssetHashType, DockerImage, Lazy, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { type RestApi, ResponseType } from 'aws-cdk-lib/aws-apigateway';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { ASSETS_FOLDER, buildDashboard, DASHBOARD_PATH } from '../web/build';
import { dashboardContentSecurityPolicy } from '../web/content-security-policy';
import type { SignInConfig } from '../web/dashboard/signing-in/oidc';
import { SIGN_IN_CONFIG_FILE } from '../web/dashboard/places';
import { EDGE_STRICT_TRANSPORT_SECURITY } from './short-domain';
import { GATEWAY_ANSWERS, gatewayResponseTemplate } from './gateway-responses';
import { ROUTES } from '../functions/shared/http/routes';
import { ORIGIN_VERIFY_HEADER } from '../functions/shared/http/trusted-viewer';
import { STRICT_TRANSPORT_SECURITY } from '../functions/shared/http/headers';

/** The page itself is checked on every load (a deploy shows at once); hashed assets never change, so they keep. */
export const DASHBOARD_CACHE_CONTROL = { page: 'no-cache', assets: 'public, max-age=31536000, immutable' } as const;

/**
 * Paths under /app without a file extension are the dashboard's own pages (it routes in the browser): CloudFront
 * answers them with index.html from the bucket. Files keep their path.
 */
export function dashboardPagesCode(): string {
  return `
function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (request.uri === '${DASHBOARD_PATH}' || last.indexOf('.') === -1) request.uri = '${DASHBOARD_PATH}/index.html';
  return request;
}`;
}

/** The API's routes as the dashboard's host passes them: a whole path (`/docs`), or a first segment and below (`/v2/`). */
export function apiPathsOnTheDashboardHost(): { pages: string[]; prefixes: string[] } {
  const api = ROUTES.filter((route) => route.target !== 'redirect').map((route) => route.path.split('/'));
  return {
    pages: [...new Set(api.filter((segments) => segments.length === 2).map((segments) => segments.join('/')))],
    prefixes: [...new Set(api.filter((segments) => segments.length > 2).map((segments) => `/${segments[1]}/`))],
  };
}

/**
 * Dot segments, escaped dots, slashes, backslashes or percents (read as something else once decoded), and controls
 * or spaces (which URL parsers drop: `/v2/\t../x` is `/v2/../x` to them).
 */
const AMBIGUOUS_PATH = /%2e|%2f|%5c|%25|\\|[\u0000-\u0020\u007f]|\/\.\.?(\/|$)/i;

/**
 * The viewer-request function of the API's behavior on the dashboard's host (CloudFront JS 2.0): only the API's own
 * routes reach it. Everything else, a short code above all (`/<code>` here would be an open redirect on the page
 * where people sign in), is answered 404 at the edge in the API's own words for an unknown route. An ambiguous path
 * (AMBIGUOUS_PATH) is refused too: whoever decodes or normalises it after this check (CloudFront, API Gateway) could
 * read it as another path (`/v2/..%2fabc` as `/abc`).
 */
export function dashboardApiPathsCode(): string {
  const { pages, prefixes } = apiPathsOnTheDashboardHost();
  const notFound = GATEWAY_ANSWERS.find((answer) => answer.type === ResponseType.MISSING_AUTHENTICATION_TOKEN);
  if (!notFound) throw new Error('no gateway answer for an unknown route');
  return `
var PAGES = ${JSON.stringify(pages)};
var PREFIXES = ${JSON.stringify(prefixes)};
var AMBIGUOUS = ${String(AMBIGUOUS_PATH)};
function handler(event) {
  var uri = event.request.uri;
  if (!AMBIGUOUS.test(uri)) {
    if (PAGES.indexOf(uri) !== -1) return event.request;
    for (var i = 0; i < PREFIXES.length; i++) if (uri.indexOf(PREFIXES[i]) === 0) return event.request;
  }
  return { statusCode: 404, statusDescription: 'Not Found',
    headers: { 'content-type': { value: 'application/json' }, 'cache-control': { value: 'no-store' }, '${STRICT_TRANSPORT_SECURITY.name}': { value: '${STRICT_TRANSPORT_SECURITY.value}' } },
    body: { encoding: 'text', data: ${JSON.stringify(gatewayResponseTemplate(notFound))} } };
}`;
}

export interface DashboardProps {
  api: RestApi;
  stageName: string;
  /** Its `current` field is sent to the API in ORIGIN_VERIFY_HEADER, beside which the viewer's address is believed. */
  originSecret: ISecret;
  /** As the short domain's (ShortDomainProps): raised by a rotation, so that CloudFormation reads the secret again. */
  originSecretGeneration: number;
  /** The API callers' web ACL (us-east-1, EdgeFirewallStack). */
  webAclArn: string;
  removalPolicy: RemovalPolicy;
}

/** How people sign in to the dashboard: what its page reads (`/app/config.json`) and the hosts it may fetch from. */
export interface DashboardSignIn {
  config: SignInConfig;
  /** The provider's origins the page calls (discovery, token exchange, revocation): its CSP's connect-src. */
  providerOrigins: string[];
}

/**
 * The account holders' dashboard (web/dashboard) on the API's own host: one CloudFront distribution whose default
 * behavior is the API (its routes only, nothing cached, every header but Host passed on, the origin secret added)
 * and whose /app paths are static files from a private bucket, read through origin access control. Same origin, so
 * no CORS; a Content-Security-Policy of that origin only; API callers limited per viewer address by its web ACL.
 * The files are built by web/build.ts while synthesizing.
 */
export class Dashboard extends Construct {
  readonly distribution: Distribution;
  /** https://<distribution>/app/ */
  readonly url: string;
  private readonly deployment: BucketDeployment;
  private readonly signInOrigins: string[] = [];

  constructor(scope: Construct, id: string, props: DashboardProps) {
    super(scope, id);
    const bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: props.removalPolicy,
    });
    const files = S3BucketOrigin.withOriginAccessControl(bucket);
    const pages = new CloudFrontFunction(this, 'Pages', { runtime: FunctionRuntime.JS_2_0, code: FunctionCode.fromInline(dashboardPagesCode()) });
    const apiPathsOnly = new CloudFrontFunction(this, 'ApiPathsOnly', { runtime: FunctionRuntime.JS_2_0, code: FunctionCode.fromInline(dashboardApiPathsCode()) });
    const headersWith = (name: string, cacheControl: string) =>
      new ResponseHeadersPolicy(this, name, {
        securityHeadersBehavior: {
          // Lazy: the sign-in provider is made after the distribution (its client's callback is on this host).
          contentSecurityPolicy: { contentSecurityPolicy: Lazy.string({ produce: () => dashboardContentSecurityPolicy(this.signInOrigins) }), override: true },
          contentTypeOptions: { override: true },
          frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
          referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
          strictTransportSecurity: EDGE_STRICT_TRANSPORT_SECURITY,
        },
        customHeadersBehavior: { customHeaders: [{ header: 'Cache-Control', value: cacheControl, override: true }] },
      });
    const fileBehavior = (headers: ResponseHeadersPolicy): BehaviorOptions => ({
      origin: files,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: headers,
      functionAssociations: [{ function: pages, eventType: FunctionEventType.VIEWER_REQUEST }],
    });
    const pageBehavior = fileBehavior(headersWith('PageHeaders', DASHBOARD_CACHE_CONTROL.page));
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Dashboard (/app) and the API on one host (origin secret generation ${props.originSecretGeneration})`,
      webAclId: props.webAclArn,
      priceClass: PriceClass.PRICE_CLASS_100,
      defaultBehavior: {
        origin: new HttpOrigin(`${props.api.restApiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`, {
          originPath: `/${props.stageName}`,
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          // Resolved by CloudFormation from Secrets Manager at deploy time; it never appears in the template.
          customHeaders: { [ORIGIN_VERIFY_HEADER]: props.originSecret.secretValueFromJson('current').unsafeUnwrap() },
        }),
        // API clients never get a redirect they might follow with a different method.
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        // With caching off, this policy passes Authorization on (API Gateway needs its own Host).
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        functionAssociations: [{ function: apiPathsOnly, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      // In this order: CloudFront takes the first pattern that matches.
      additionalBehaviors: {
        [`${DASHBOARD_PATH}/${ASSETS_FOLDER}/*`]: fileBehavior(headersWith('AssetHeaders', DASHBOARD_CACHE_CONTROL.assets)),
        [DASHBOARD_PATH]: pageBehavior,
        [`${DASHBOARD_PATH}/*`]: pageBehavior,
      },
    });
    this.url = `https://${this.distribution.distributionDomainName}${DASHBOARD_PATH}/`;

    const deployment = (this.deployment = new BucketDeployment(this, 'Deploy', {
      sources: [
        Source.asset(path.join(__dirname, '..', 'web'), {
          // The build reads shared code outside web/ (the typed client's types, the CSV import): hashing its
          // output, not its folder, is what notices every change.
          assetHashType: AssetHashType.OUTPUT,
          bundling: {
            image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-alpine'),
            local: {
              tryBundle(outputDir) {
                buildDashboard(outputDir);
                return true;
              },
            },
          },
        }),
      ],
      destinationBucket: bucket,
      destinationKeyPrefix: `${DASHBOARD_PATH.slice(1)}/`,
      distribution: this.distribution,
      distributionPaths: [DASHBOARD_PATH, `${DASHBOARD_PATH}/*`],
      memoryLimit: 512,
    }));
    this.acknowledgeFindings(bucket, deployment);
  }

  /**
   * People sign in through `signIn`'s provider (issue 29): its settings beside the page as `config.json` (written at
   * deploy time, when the pool's ids are known) and its origins in the page's connect-src.
   */
  signInWith(signIn: DashboardSignIn): void {
    this.signInOrigins.push(...signIn.providerOrigins);
    this.deployment.addSource(Source.jsonData(SIGN_IN_CONFIG_FILE, signIn.config));
  }

  private acknowledgeFindings(bucket: Bucket, deployment: BucketDeployment): void {
    const acknowledge = (scope: Construct, id: string, reason: string) => Validations.of(scope).acknowledge({ id, reason });
    acknowledge(bucket, 'AwsSolutions-S1', 'Only the dashboard\'s static files, read by CloudFront alone; access logs would record nothing but CloudFront.');
    acknowledge(this.distribution, 'AwsSolutions-CFR1', 'Account holders may work from any country.');
    acknowledge(this.distribution, 'AwsSolutions-CFR3', 'Edge access logs would record every viewer address; API Gateway access logs (without addresses) cover the API.');
    acknowledge(this.distribution, 'AwsSolutions-CFR4', 'Without a custom domain CloudFront serves its default certificate, whose TLS floor cannot be set.');
    // CDK's own deploy-time copier (one per stack): it runs at deploy only, with the role CDK gives it.
    const copier = 'CDK\'s BucketDeployment copies the built files from the asset bucket into the dashboard bucket at deploy time and invalidates the distribution\'s /app paths; its role is what CDK grants it.';
    acknowledge(deployment.handlerRole, 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', copier);
    for (const evidence of ['Action::s3:Abort*', 'Action::s3:DeleteObject*', 'Action::s3:GetBucket*', 'Action::s3:GetObject*', 'Action::s3:List*', 'Resource::*', `Resource::<${Stack.of(this).getLogicalId(bucket.node.defaultChild as CfnBucket)}.Arn>/*`, `Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-${Stack.of(this).region}/*`]) {
      acknowledge(deployment.handlerRole, `AwsSolutions-IAM5[${evidence}]`, copier);
    }
    const copierFunction = Stack.of(this).node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (copierFunction) acknowledge(copierFunction, 'AwsSolutions-L1', `${copier} Its runtime is the one CDK chooses.`);
  }
}
