import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '../functions/shared/http/trusted-viewer';
import { WAF_RATE_LIMITS, WAF_WINDOW_SECONDS } from './capacity';

type Rule = CfnWebACL.RuleProperty;
type Statement = CfnWebACL.StatementProperty;

const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: false, metricName });

/** A rate-based rule blocking a client address past `limit` requests per window, on requests matching `scope`. */
export function rateRule(name: string, priority: number, limit: number, scope?: Statement): Rule {
  return {
    name,
    priority,
    action: { block: {} },
    visibilityConfig: visibility(name),
    statement: {
      rateBasedStatement: { limit, evaluationWindowSec: WAF_WINDOW_SECONDS, aggregateKeyType: 'IP', ...(scope ? { scopeDownStatement: scope } : {}) },
    },
  };
}

/**
 * A request for a route under `/v1/` or `/v2/`. WAF sees the path API Gateway received, which starts with the stage
 * (`/prod/v1/shorten`) on the API's own URL and through CloudFront's origin path, so the segment is looked for
 * anywhere: a short code holds no slash, so no visitor path contains one. At the edge the path is the viewer's
 * (`/v1/shorten`), which the same test finds.
 */
const pathHasSegment = (segment: string): Statement => ({
  byteMatchStatement: { fieldToMatch: { uriPath: {} }, positionalConstraint: 'CONTAINS', searchString: segment, textTransformations: [{ priority: 0, type: 'NONE' }] },
});

const hasOriginHeader: Statement = {
  sizeConstraintStatement: {
    fieldToMatch: { singleHeader: { Name: ORIGIN_VERIFY_HEADER } },
    comparisonOperator: 'GT',
    size: 0,
    textTransformations: [{ priority: 0, type: 'NONE' }],
  },
};

/** A web ACL of rate rules that lets everything else through. */
export function rateLimitingAcl(scope: Construct, id: string, props: { scope: 'REGIONAL' | 'CLOUDFRONT'; name: string; rules: Rule[] }): CfnWebACL {
  return new CfnWebACL(scope, id, {
    scope: props.scope,
    defaultAction: { allow: {} },
    visibilityConfig: visibility(props.name),
    rules: props.rules,
  });
}

const withoutOriginHeader: Statement = { notStatement: { statement: hasOriginHeader } };

/**
 * API callers per address, v1 far more tightly than v2: at the edge on the dashboard's distribution (every request,
 * by the viewer's address) and at the stage (`only`: the requests that did not come through CloudFront).
 */
export function apiCallerRules(only?: Statement): Rule[] {
  const within = (statement: Statement): Statement => (only ? { andStatement: { statements: [statement, only] } } : statement);
  return [
    rateRule('AnonymousPerAddress', 0, WAF_RATE_LIMITS.anonymousPerAddress, within(pathHasSegment('/v1/'))),
    rateRule('ApiPerAddress', 1, WAF_RATE_LIMITS.apiPerAddress, within(pathHasSegment('/v2/'))),
  ];
}

/**
 * The API stage's web ACL. Requests through CloudFront (the short domain's visitors, the dashboard's API callers)
 * are limited at the edge by the viewer's address (see EdgeFirewallStack): here they arrive from CloudFront's
 * addresses, which must not be limited (every viewer of one edge would share a limit), so only requests without
 * CloudFront's origin header (someone calling the API's own URL) are counted here. A forged header skips these
 * rules and still meets the stage's method throttles, the redirect's concurrency ceiling, v1's own limit (by API
 * Gateway's source IP, since a forged header carries no secret) and v2's per-key limit.
 */
export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: { stageArn: string; name: string }) {
    super(scope, id);
    this.webAcl = rateLimitingAcl(this, 'WebAcl', {
      scope: 'REGIONAL',
      name: props.name,
      rules: [
        ...apiCallerRules(withoutOriginHeader),
        rateRule('DirectVisitorsPerAddress', 2, WAF_RATE_LIMITS.directVisitorPerAddress, {
          andStatement: {
            statements: [
              { notStatement: { statement: pathHasSegment('/v1/') } },
              { notStatement: { statement: pathHasSegment('/v2/') } },
              withoutOriginHeader,
            ],
          },
        }),
      ],
    });
    new CfnWebACLAssociation(this, 'Association', { resourceArn: props.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
