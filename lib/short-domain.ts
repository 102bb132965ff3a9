import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER, VIEWER_HOST_HEADER } from '../functions/shared/http/trusted-viewer';
import { STRICT_TRANSPORT_SECURITY } from '../functions/shared/http/headers';

/** HSTS as CloudFront adds it to every answer of a distribution: the same max-age the API's own answers carry. */
export const EDGE_STRICT_TRANSPORT_SECURITY = {
  accessControlMaxAge: Duration.seconds(Number(/max-age=(\d+)/.exec(STRICT_TRANSPORT_SECURITY.value)?.[1])),
  includeSubdomains: true,
  override: true,
};

export interface ShortDomainProps {
  api: RestApi;
  /** The API's stage, by name: the origin names the API and stage without waiting for their deployment. */
  stageName: string;
  /** Its `current` field is sent to the origin in ORIGIN_VERIFY_HEADER: the proof that a request came through here. */
  originSecret: ISecret;
  /**
   * Raised by an operator rotating the origin secret (README, Operating): CloudFormation re-reads a secret only
   * when the resource using it changes, so the generation is part of the distribution's comment.
   */
  originSecretGeneration: number;
  /** The visitors' web ACL (us-east-1, EdgeFirewallStack). */
  webAclArn: string;
  /** First path segments of API routes: the short domain answers them with 404. */
  apiPathSegments: readonly string[];
  domainName?: string;
  certificateArn?: string;
  hostedZoneId?: string;
  hostedZoneName?: string;
}

/** Which distribution a viewer-request function serves: the shared short domain, or the customers' own domains. */
export type VisitorHosts = 'shared' | 'customer';

/**
 * The viewer-request function (CloudFront JS 2.0): one path segment that could be a short code passes, anything
 * else, API routes included, is answered 404 at the edge. On customers' domains the root passes too (their
 * rootUrl), and the viewer's Host is copied into VIEWER_HOST_HEADER, since API Gateway needs its own Host; on the
 * shared domain that header is removed, so no viewer can name a customer's domain there.
 */
export function visitorRoutesOnlyCode(apiPathSegments: readonly string[], hosts: VisitorHosts = 'shared'): string {
  const customer = hosts === 'customer';
  return `
var API = ${JSON.stringify(apiPathSegments)};
function handler(event) {
  var request = event.request;
  var segments = request.uri.split('/');
  ${customer ? `request.headers['${VIEWER_HOST_HEADER}'] = { value: request.headers.host ? request.headers.host.value : '' };` : `delete request.headers['${VIEWER_HOST_HEADER}'];`}
  if (segments.length === 2 && ${customer ? "(segments[1] === '' || " : '('}/^[A-Za-z0-9-]{1,50}$/.test(segments[1])) && API.indexOf(segments[1]) === -1) return request;
  return { statusCode: 404, statusDescription: 'Not Found', headers: { 'content-type': { value: 'application/json' }, 'cache-control': { value: 'no-store' } },
    body: { encoding: 'text', data: '{"statusCode":404,"message":"Not Found","error":"Not Found"}' } };
}`;
}

/**
 * A backstop only: the origin marks every answer private or no-store, so the edge keeps none (an edge-served
 * redirect would be a visit nobody counts, and an owner's edit would wait for it to expire).
 */
export const EDGE_CACHE_MAX_SECONDS = 300;

/**
 * Visitors reach short links through CloudFront. A viewer-request function lets only visitor paths through,
 * so the API is not reachable on the short domain. The cache follows the origin's Cache-Control, which lets only
 * browsers keep plain redirects (private) and nobody keep anything else (no-store).
 */
export class ShortDomain extends Construct {
  readonly distribution: Distribution;
  /** https://<short domain or CloudFront domain> */
  readonly baseUrl: string;
  private readonly props: ShortDomainProps;
  private readonly cachePolicy: CachePolicy;
  private readonly responseHeaders: ResponseHeadersPolicy;

  constructor(scope: Construct, id: string, props: ShortDomainProps) {
    super(scope, id);
    this.props = props;
    const cachePolicy = new CachePolicy(this, 'FollowOrigin', {
      defaultTtl: Duration.seconds(0),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(EDGE_CACHE_MAX_SECONDS),
    });
    const certificate = props.certificateArn ? Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn) : undefined;
    // HSTS at the edge too: every answer of the short domain tells browsers to use HTTPS only from then on.
    const responseHeaders = new ResponseHeadersPolicy(this, 'Hsts', {
      securityHeadersBehavior: {
        strictTransportSecurity: EDGE_STRICT_TRANSPORT_SECURITY,
      },
    });
    this.cachePolicy = cachePolicy;
    this.responseHeaders = responseHeaders;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Short links (origin secret generation ${props.originSecretGeneration})`,
      webAclId: props.webAclArn,
      priceClass: PriceClass.PRICE_CLASS_100,
      ...(props.domainName && certificate
        ? { domainNames: [props.domainName], certificate, minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021 }
        : {}),
      defaultBehavior: this.visitorBehavior('shared'),
    });
    this.baseUrl = `https://${props.domainName ?? this.distribution.distributionDomainName}`;

    if (props.domainName && props.hostedZoneId && props.hostedZoneName) {
      const zone = HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: props.hostedZoneId, zoneName: props.hostedZoneName });
      new ARecord(this, 'Alias', { zone, recordName: props.domainName, target: RecordTarget.fromAlias(new CloudFrontTarget(this.distribution)) });
    }
    this.acknowledgeFindings(Boolean(certificate));
  }

  /**
   * How a distribution of visitors behaves: the API as origin (with the origin secret), HTTPS only, the cache
   * following the origin, HSTS, and the viewer-request function for its kind of hosts. The shared short domain's
   * distribution and the customer domains' one (CustomDomains) are built from it alike.
   */
  visitorBehavior(hosts: VisitorHosts): BehaviorOptions {
    const visitorRoutesOnly = new CloudFrontFunction(this, hosts === 'shared' ? 'VisitorRoutesOnly' : 'CustomerVisitorRoutesOnly', {
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(visitorRoutesOnlyCode(this.props.apiPathSegments, hosts)),
    });
    return {
      // What RestApiOrigin builds, without its reference to the stage: the customer domains' distribution is named by
      // the domains function, whose routes are part of the API's deployment, so naming the stage would be a cycle.
      origin: new HttpOrigin(`${this.props.api.restApiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`, {
        originPath: `/${this.props.stageName}`,
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        // Resolved by CloudFormation from Secrets Manager at deploy time; it never appears in the template.
        customHeaders: { [ORIGIN_VERIFY_HEADER]: this.props.originSecret.secretValueFromJson('current').unsafeUnwrap() },
      }),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      // POST carries the password form; everything else is refused by the function or the API.
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: this.cachePolicy,
      responseHeadersPolicy: this.responseHeaders,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      functionAssociations: [{ function: visitorRoutesOnly, eventType: FunctionEventType.VIEWER_REQUEST }],
    };
  }

  private acknowledgeFindings(customCertificate: boolean): void {
    const acknowledge = (id: string, reason: string) => Validations.of(this.distribution).acknowledge({ id, reason });
    acknowledge('AwsSolutions-CFR1', 'Short links are for everyone; no country is blocked.');
    acknowledge('AwsSolutions-CFR3', 'Edge access logs would record every viewer address, which the service keeps nowhere; API Gateway access logs (without addresses) and click lines cover visits.');
    if (!customCertificate) {
      acknowledge('AwsSolutions-CFR4', 'Without a custom domain CloudFront serves its default certificate, whose TLS floor cannot be set.');
    }
  }
}
